// Embind declarations only. The JS layer (bindings/js) snapshots and type-checks the caller's
// options, writes them into a frame in WASM memory and calls one function per operation with
// the frame's address (operations.h); describe() tells it, once, the frames' slots, the status
// codes and the enums. posenc-module.d.ts declares this surface for TypeScript readers.
#include <emscripten/bind.h>

#include <cstdint>
#include <string>

#include "describe.h"
#include "operations.h"
#include "posenc/size_limits.h"

namespace {

// An operation as JS sees it: the frame's address in, a status code out.
template <class Frame, int (*Operation)(Frame&)>
int call(std::uintptr_t frame) {
  return Operation(*reinterpret_cast<Frame*>(frame));
}

}  // namespace

EMSCRIPTEN_BINDINGS(posenc) {
  namespace bindings = posenc::bindings;
  emscripten::function(
      "describe", +[] { return std::string(bindings::kDescription); });
  emscripten::constant("maxSeqLen", posenc::kMaxSeqLen);
  emscripten::constant("maxDim", posenc::kMaxDim);
  emscripten::constant("maxElements", static_cast<double>(posenc::kMaxElements));
  emscripten::constant("maxPosition", static_cast<double>(posenc::kMaxPosition));
  emscripten::constant("simdBuild", POSENC_SIMD != 0);
#define POSENC_OPERATION_BINDING(operation, slots) \
  emscripten::function(#operation, &call<bindings::frames::operation, &bindings::operation>);
  POSENC_FRAMES(POSENC_OPERATION_BINDING)
#undef POSENC_OPERATION_BINDING
  emscripten::function("ropePlanFree", &bindings::ropePlanFree);
}

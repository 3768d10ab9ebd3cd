// The module's declarations only. The JS layer (bindings/js) snapshots and type-checks the
// caller's options, writes them into its operands in WASM memory and calls one exported function per
// operation with the operands' address (operations.h); describe() (Embind) tells it, once, the
// operations' operands, the status codes and the enums. posenc-module.d.ts declares this surface for TypeScript
// readers.
#include <emscripten/bind.h>
#include <emscripten/emscripten.h>

#include <cstdint>
#include <string>

#include "describe.h"
#include "operations.h"
#include "posenc/size_limits.h"

namespace {

// An operation as JS sees it: the operands' address in, a status code out.
template <class Operands, int (*Operation)(Operands&)>
int call(std::uintptr_t operands) {
  return Operation(*reinterpret_cast<Operands*>(operands));
}

}  // namespace

// The operations are plain WebAssembly exports, posenc_<operation>(operands address) -> status
// (Module._posenc_<operation>): Embind's generic invoker (no eval, -sDYNAMIC_EXECUTION=0)
// costs about 0.2 µs a call, most of what a decoding step's whole call may take; a plain export
// costs a hundredth of that. The operands are only numbers, so there is nothing to convert.
#define POSENC_OPERATION_EXPORT(operation, slots)                                               \
  extern "C" EMSCRIPTEN_KEEPALIVE int posenc_##operation(std::uintptr_t operands) {             \
    return call<posenc::bindings::operands::operation, &posenc::bindings::operation>(operands); \
  }
POSENC_OPERANDS(POSENC_OPERATION_EXPORT)
#undef POSENC_OPERATION_EXPORT

EMSCRIPTEN_BINDINGS(posenc) {
  namespace bindings = posenc::bindings;
  emscripten::function(
      "describe", +[] { return std::string(bindings::kDescription); });
  emscripten::constant("maxSeqLen", posenc::kMaxSeqLen);
  emscripten::constant("maxDim", posenc::kMaxDim);
  emscripten::constant("maxElements", static_cast<double>(posenc::kMaxElements));
  emscripten::constant("maxPosition", static_cast<double>(posenc::kMaxPosition));
  emscripten::constant("simdBuild", POSENC_SIMD != 0);
  emscripten::function("ropePlanFree", &bindings::ropePlanFree);
}

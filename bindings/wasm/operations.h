// One function per operation of the JS API: it reads its operands (operands.h), checks the spec with
// the core's rules, then every array's length against the shape, allocates the outputs the JS
// layer asked for, and computes: one crossing of the JS/WASM seam per call. Each returns a
// Status code (as int); on an error nothing was written and nothing stays allocated.
//
// Plain C++ (no Emscripten): bindings.cpp only exposes these to JS.
#pragma once

#include <cstdint>

#include "operands.h"

namespace posenc::bindings {

#define POSENC_OPERATION_DECLARATION(operation, slots) int operation(operands::operation& operands);
POSENC_OPERANDS(POSENC_OPERATION_DECLARATION)
#undef POSENC_OPERATION_DECLARATION

// Releases a plan made by ropePlanCreate (its address, as the operands' `plan` slot held it).
void ropePlanFree(std::uintptr_t plan);

}  // namespace posenc::bindings

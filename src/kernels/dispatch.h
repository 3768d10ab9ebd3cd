// Every kernel the core calls, by the name it calls it: kernels::rotate_half(...),
// kernels::phase_rows<Accumulate>(...), ... Each is a Kernel<K> object (simd.h): the xsimd
// version for this build's architecture, or the scalar loop in the scalar wasm build.
#pragma once

#include "alibi_row.h"
#include "dot.h"
#include "narrow.h"
#include "phase_rows.h"
#include "phase_step.h"
#include "rotate.h"
#include "score_row.h"
#include "softmax_row.h"

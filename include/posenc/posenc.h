// posenc: sinusoidal positional encodings and rotary embeddings (RoPE), in plain C++17.
#pragma once

#include "alibi.h"
#include "attention_scores.h"
#include "batch_positions.h"
#include "frequencies.h"
#include "layout_conversion.h"
#include "mrope_positions.h"
#include "position_numbers.h"
#include "positions.h"
#include "relative_position_buckets.h"
#include "rope.h"
#include "rope_plan.h"
#include "rope_scaling.h"
#include "similarity.h"
#include "sinusoidal.h"
#include "size_limits.h"
#include "status.h"

// posenc: sinusoidal positional encodings and rotary embeddings (RoPE), in plain C++17.
#pragma once

#include "frequencies.h"
#include "size_limits.h"
#include "position_numbers.h"
#include "positions.h"
#include "rope.h"
#include "similarity.h"
#include "sinusoidal.h"
#include "status.h"

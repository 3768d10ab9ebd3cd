// The defaults of the options the specs share, each written once: the specs' member
// initializers use these constants, and describe() hands the same values to the JS layer
// ("default <slot> <value>"), which fills an option left out from them and never restates them.
#pragma once

#include <cstdint>

namespace posenc {

// X(constant, type, the frame slot it fills (the JS option's name), value).
// (A table: one default a line, kept as written.)
// clang-format off
#define POSENC_DEFAULTS(X) \
  X(kDefaultBase, double, base, 10000.0)               /* the papers' and every model family's base */ \
  X(kDefaultMaxBias, double, maxBias, 8.0)             /* ALiBi's m = 2^(-8/n) */ \
  X(kDefaultNumBuckets, std::uint32_t, numBuckets, 32) /* T5's relative_attention_num_buckets */ \
  X(kDefaultMaxDistance, std::uint32_t, maxDistance, 128) /* T5's relative_attention_max_distance */ \
  X(kDefaultXposScaleBase, double, xposScaleBase, 512.0) /* torchscale's xpos_scale_base */ \
  X(kDefaultXposGamma, double, xposGamma, 0.4)         /* torchscale's 0.4 in (arange(0, d, 2) + 0.4 d) / (1.4 d) */
// clang-format on

#define POSENC_DEFAULT_CONSTANT(constant, type, slot, value) inline constexpr type constant = value;
POSENC_DEFAULTS(POSENC_DEFAULT_CONSTANT)
#undef POSENC_DEFAULT_CONSTANT

}  // namespace posenc

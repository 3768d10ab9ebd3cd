#include "mrope_sections.h"

namespace posenc {

bool mrope_sections_fit(const MropeSpec& mrope, std::uint32_t pairs) {
  const std::uint64_t t = mrope.section[0], h = mrope.section[1], w = mrope.section[2];
  if (t + h + w != pairs) return false;
  if (!mrope.interleaved) return true;
  // The last h pair is 3h - 2, the last w pair 3w - 1.
  return (h == 0 || 3 * h - 2 < pairs) && (w == 0 || 3 * w - 1 < pairs);
}

void mrope_pair_axes(const MropeSpec& mrope, std::uint32_t pairs, std::uint8_t* axis_of) {
  const std::uint64_t t = mrope.section[0], h = mrope.section[1], w = mrope.section[2];
  for (std::uint64_t k = 0; k < pairs; ++k) {
    std::uint8_t axis = 0;
    if (mrope.interleaved) {
      if (k % 3 == 1 && k < 3 * h) axis = 1;
      if (k % 3 == 2 && k < 3 * w) axis = 2;
    } else {
      axis = k < t ? 0 : k < t + h ? 1 : 2;
    }
    axis_of[k] = axis;
  }
}

}  // namespace posenc

// The AVX2 kernel table. Only this file is compiled with -mavx2; dispatch.cpp calls it only
// on CPUs that report AVX2.
#include "make_table.h"

namespace posenc::kernels {

const KernelTable& avx2_kernel_table() {
  static const KernelTable table = simd_kernel_table<xsimd::avx2>();
  return table;
}

}  // namespace posenc::kernels

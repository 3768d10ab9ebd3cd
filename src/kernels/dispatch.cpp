#include "dispatch.h"

#include "make_table.h"

namespace posenc::kernels {

#if POSENC_AVX2_TABLE
const KernelTable& avx2_kernel_table();  // table_avx2.cpp
#endif

namespace {

// The build's baseline: SSE2 on x86-64, SIMD128 on the SIMD wasm build, loops otherwise.
const KernelTable& baseline_table() {
#if POSENC_SIMD
  static const KernelTable table = simd_kernel_table<xsimd::default_arch>();
#else
  static const KernelTable table = scalar_kernel_table();
#endif
  return table;
}

#if POSENC_AVX2_TABLE
bool cpu_has_avx2() { return xsimd::available_architectures().avx2; }
#endif

}  // namespace

const KernelTable& active_kernels() {
#if POSENC_AVX2_TABLE
  static const KernelTable& table = cpu_has_avx2() ? avx2_kernel_table() : baseline_table();
#else
  static const KernelTable& table = baseline_table();
#endif
  return table;
}

std::size_t available_kernel_tables(const KernelTable** tables, std::size_t capacity) {
  static const KernelTable scalar = scalar_kernel_table();
  std::size_t n = 0;
  const auto add = [&](const KernelTable& t) {
    if (n < capacity) tables[n] = &t;
    ++n;
  };
  add(scalar);
#if POSENC_SIMD
  add(baseline_table());
#endif
#if POSENC_AVX2_TABLE
  if (cpu_has_avx2()) add(avx2_kernel_table());
#endif
  return n;
}

}  // namespace posenc::kernels

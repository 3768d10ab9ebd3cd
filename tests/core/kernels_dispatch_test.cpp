// Run-time kernel dispatch (kernels/dispatch.h): every kernel table this CPU can run (scalar,
// the SSE2/SIMD128 baseline, AVX2 where present) gives the scalar table's results, bit for bit
// where the per-kernel tests require it, for lengths around each vector width.
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/generators/catch_generators_range.hpp>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/dispatch.h"
#include "test_support.h"

namespace {

using posenc::kernels::KernelTable;
using namespace test_support;

std::vector<const KernelTable*> tables() {
  const KernelTable* found[8];
  const std::size_t n = posenc::kernels::available_kernel_tables(found, 8);
  return {found, found + n};
}

}  // namespace

TEST_CASE("the active kernel table is one this CPU can run", "[kernels][dispatch]") {
  const auto all = tables();
  REQUIRE(!all.empty());
  REQUIRE(std::string(all.front()->name) == "scalar");
  const KernelTable& active = posenc::kernels::active_kernels();
  bool listed = false;
  for (const KernelTable* t : all) listed = listed || t == &active;
  INFO("active table: " << active.name);
  CHECK(listed);
}

TEST_CASE("every kernel table agrees with the scalar table", "[kernels][dispatch]") {
  const auto all = tables();
  const KernelTable& scalar = *all.front();
  const std::size_t n = GENERATE(range<std::size_t>(0, 40), 67, 128, 1001);
  for (const KernelTable* table : all) {
    INFO("table " << table->name << ", n = " << n);
    const auto c = random_floats(n, 1), s = random_floats(n, 2), a = random_floats(n, 3),
               b = random_floats(n, 4);
    std::vector<float> da(n), db(n), ea(n), eb(n);
    table->rotate_half(c.data(), s.data(), a.data(), b.data(), da.data(), db.data(), n);
    scalar.rotate_half(c.data(), s.data(), a.data(), b.data(), ea.data(), eb.data(), n);
    CHECK(first_difference(da, ea) == n);
    CHECK(first_difference(db, eb) == n);

    const std::size_t even = n - n % 2;
    table->rotate_interleaved(c.data(), s.data(), a.data(), da.data(), even);
    scalar.rotate_interleaved(c.data(), s.data(), a.data(), ea.data(), even);
    CHECK(first_difference(da.data(), ea.data(), even) == even);

    const auto angles = random_doubles(n, 5, -1e6, 1e6);
    std::vector<double> sin1(n), cos1(n), sin2(n), cos2(n);
    table->sincos(angles.data(), sin1.data(), cos1.data(), n);
    scalar.sincos(angles.data(), sin2.data(), cos2.data(), n);
    for (std::size_t i = 0; i < n; ++i) {
      CHECK(std::fabs(sin1[i] - sin2[i]) <= 4.5e-16);
      CHECK(std::fabs(cos1[i] - cos2[i]) <= 4.5e-16);
    }

    std::vector<float> f1(n), f2(n);
    table->narrow(angles.data(), f1.data(), n);
    scalar.narrow(angles.data(), f2.data(), n);
    CHECK(first_difference(f1, f2) == n);

    // One recurrence step and a few table rows from the same float64 state.
    const auto wc = random_doubles(n, 6), ws = random_doubles(n, 7);
    auto c1 = random_doubles(n, 8), s1 = random_doubles(n, 9);
    auto c2 = c1, s2 = s1;
    table->rotate_step(c1.data(), s1.data(), wc.data(), ws.data(), f1.data(), da.data(), n);
    scalar.rotate_step(c2.data(), s2.data(), wc.data(), ws.data(), f2.data(), ea.data(), n);
    CHECK(first_difference(c1, c2) == n);
    CHECK(first_difference(f1, f2) == n);

    const std::size_t rows = 5, stride = 2 * n + 3;
    std::vector<float> t1(rows * stride, 0.5f), t2(rows * stride, 0.5f);
    table->phase_rows_add(c1.data(), s1.data(), wc.data(), ws.data(), n, rows,
                          {t1.data(), t1.data() + 1, stride, true});
    scalar.phase_rows_add(c2.data(), s2.data(), wc.data(), ws.data(), n, rows,
                          {t2.data(), t2.data() + 1, stride, true});
    CHECK(first_difference(t1, t2) == t1.size());

    // Dot products: summation order differs between tables, so a float32 rounding bound.
    if (n > 0) {
      std::vector<float> row1(3), row2(3);
      std::vector<float> keys(3 * n);
      for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = b[i % n] * (1.0f + 0.1f * (i / n));
      table->dot_row(a.data(), keys.data(), n, 3, row1.data());
      scalar.dot_row(a.data(), keys.data(), n, 3, row2.data());
      for (std::size_t j = 0; j < 3; ++j) {
        double magnitude = 0;
        for (std::size_t i = 0; i < n; ++i) magnitude += std::fabs(double(a[i]) * keys[j * n + i]);
        CHECK(std::fabs(row1[j] - row2[j]) <= 2 * n * 0x1p-24 * magnitude + 1e-30);
      }
    }
  }
}

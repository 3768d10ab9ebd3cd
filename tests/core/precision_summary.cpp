// Prints the measured precision figures (recorded by the precision tests through
// test_support::record_precision) once the run ends, next to the documented bounds.
#include <catch2/reporters/catch_reporter_event_listener.hpp>
#include <catch2/reporters/catch_reporter_registrars.hpp>

#include <cstdio>

#include "test_support.h"

namespace {

class PrecisionSummary : public Catch::EventListenerBase {
 public:
  using Catch::EventListenerBase::EventListenerBase;

  void testRunEnded(const Catch::TestRunStats&) override {
    const auto& records = test_support::precision_records();
    if (records.empty()) return;
    std::printf("\nMeasured precision (max over all compared values):\n");
    for (const auto& [name, record] : records)
      std::printf("  %-58s %.3Le %s  (%zu values)\n", name.c_str(), record.max_error, record.unit.c_str(),
                  record.values);
    std::fflush(stdout);
  }
};

}  // namespace

CATCH_REGISTER_LISTENER(PrecisionSummary)

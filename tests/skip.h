// A test that needs ../shared, a tool or a privilege the machine lacks says so and stops. Where
// everything is supposed to be present (CI sets SLURMTOPO_NO_SKIPS=1, as for the integration
// scripts) the same condition is a failure, so a missing install step cannot pass quietly.
#pragma once

#include <cstdlib>
#include <string>
#include <string_view>

#include <doctest/doctest.h>

namespace slurmtopo::testing {

inline bool skips_are_failures() {
  const char* v = std::getenv("SLURMTOPO_NO_SKIPS");
  return v != nullptr && std::string_view(v) == "1";
}

// Call, then return from the test case (or `continue` over the input).
inline void skip(const std::string& why) {
  if (skips_are_failures()) {
    FAIL_CHECK("required under SLURMTOPO_NO_SKIPS=1: " << why);
  } else {
    MESSAGE("skipped: " << why);
  }
}

}  // namespace slurmtopo::testing

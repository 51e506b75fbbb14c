// A test's data file, read whole. A missing file fails the test where it is read (REQUIRE), not
// with an exception thrown from a helper.
#pragma once

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

namespace slurmtopo::testing {

inline std::string read_data(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in, path << " cannot be read");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace slurmtopo::testing

// A pattern libstdc++ would overflow on is an error that names the number; real patterns compile.
#include "base/regex.h"

#include <doctest/doctest.h>

#include <string>

using namespace slurmtopo;

namespace {
std::string error_of(const std::string& pattern) {
  try {
    compile_regex(pattern);
  } catch (const std::regex_error& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("compile_regex: host patterns an admin writes compile and match as std::regex does") {
  const std::regex re = compile_regex(R"(^(\S+)\s+mlx5_\d{1,2}\b)");
  std::smatch m;
  const std::string d = "gpu017 mlx5_3";
  REQUIRE(std::regex_search(d, m, re));
  CHECK(m.str(1) == "gpu017");
  CHECK(compile_regex(R"(^(node)\1$)").mark_count() == 1);
  CHECK(error_of(R"(^node\d{12345}$)").empty());  // 5 digits: std::regex decides
  CHECK(error_of(R"(^node100000(\d+)$)").empty());  // long literal digits are not a count
  CHECK(error_of(R"(^\\123456(\w+))").empty());     // an escaped backslash, then literal digits
}

TEST_CASE("compile_regex: a back reference or repeat count past 5 digits is an error naming it") {
  // What libFuzzer found: libstdc++ 12 multiplies this into a signed overflow.
  const std::string found = "^\\" + std::string(56, '7') + "S+";
  const std::string e = error_of(found);
  CHECK(e.find("back reference `777777777777...`") != std::string::npos);
  CHECK(e.find("at character 3 has 56 digits; at most 5") != std::string::npos);
  CHECK(error_of(R"(a\123456)").find("back reference `123456`") != std::string::npos);
  CHECK(error_of(R"(a{1234567})").find("repeat count `1234567` at character 3") != std::string::npos);
  CHECK(error_of(R"(a{1,99999999999999999999})").find("repeat count") != std::string::npos);
}

TEST_CASE("compile_regex: a pattern too long for libstdc++'s recursive compiler is an error, not a crash") {
  CHECK(error_of(std::string(1024, 'a')).empty());
  const std::string nested = std::string(30000, '(') + "a" + std::string(30000, ')');
  CHECK(error_of(nested) == "a pattern of 60001 characters; at most 1024");
}

TEST_CASE("compile_regex: what std::regex refuses is still refused") {
  CHECK_THROWS_AS(compile_regex("(unclosed"), std::regex_error);
  CHECK_THROWS_AS(compile_regex(R"(a\9)"), std::regex_error);  // no group 9
}

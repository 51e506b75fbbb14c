#include "base/shell_quote.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <string>

using namespace slurmtopo;

TEST_CASE("shell_quote: plain words bare, the rest single-quoted") {
  CHECK(shell_quote("abc") == "abc");
  CHECK(shell_quote("gpu[1-4]") == "'gpu[1-4]'");  // a glob otherwise
  CHECK(shell_quote("--time=00:10:00") == "--time=00:10:00");
  CHECK(shell_quote("a b") == "'a b'");
  CHECK(shell_quote("it's") == "'it'\\''s'");
  CHECK(shell_quote("") == "''");
  CHECK(shell_quote("$HOME") == "'$HOME'");
}

TEST_CASE("shell_quote: sh reads every quoted word back as it was") {
  for (const std::string word : {"it's here", "$HOME `x` \"y\"", "a\\b", "gpu[1-4]", "*", "", "tab\there"}) {
    CAPTURE(word);
    FILE* p = popen(("printf %s " + shell_quote(word)).c_str(), "r");
    REQUIRE(p);
    std::string got;
    char buf[256];
    for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) got.append(buf, n);
    CHECK(pclose(p) == 0);
    CHECK(got == word);
  }
}

TEST_CASE("shell_join: one shell line, each word quoted as shell_quote does") {
  CHECK(shell_join({"srun", "-w", "gpu[1-4]", "it's"}) == "srun -w 'gpu[1-4]' 'it'\\''s'");
  CHECK(shell_join({}).empty());
  CHECK(shell_join({""}) == "''");
}

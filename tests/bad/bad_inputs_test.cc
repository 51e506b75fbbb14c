// Every malformed input in tests/bad/, run through the command an admin would use it with:
// exit 2, the exact error (file, line and what was expected), and nothing written.
// tests/bad/cases.tsv lists them: file, command, error line — "{}" is the case file, "{out}"
// an empty directory the command is told to write into.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/cli/cli_test_support.h"

namespace fs = std::filesystem;
using slurmtopo::testing::run;
using slurmtopo::testing::Scratch;

namespace {

const fs::path kBad = fs::path(SLURMTOPO_SOURCE_DIR) / "tests/bad";

struct Case {
  std::string file, command, error;
  int line = 0;
};

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + to.size()))
    s.replace(pos, from.size(), to);
  return s;
}

std::vector<Case> load_cases() {
  std::ifstream in(kBad / "cases.tsv");
  REQUIRE_MESSAGE(in, "tests/bad/cases.tsv is missing");
  std::vector<Case> cases;
  std::string text;
  for (int n = 1; std::getline(in, text); ++n) {
    if (text.empty() || text[0] == '#') continue;
    std::istringstream fields(text);
    Case c;
    c.line = n;
    std::getline(fields, c.file, '\t');
    std::getline(fields, c.command, '\t');
    std::getline(fields, c.error);
    INFO("cases.tsv:" << n);
    REQUIRE_MESSAGE(!c.error.empty(), "expected three tab-separated fields: file, command, error");
    cases.push_back(c);
  }
  return cases;
}

// The command with its placeholders filled and the repository's sample and test data paths
// (samples/, tests/data/) made absolute, so the run does not depend on the test's working
// directory.
std::string command_line(const Case& c, const Scratch& out) {
  std::string cmd = replace_all(c.command, "{out}", out.dir.string());
  cmd = replace_all(cmd, "samples/", std::string(SLURMTOPO_SOURCE_DIR) + "/samples/");
  cmd = replace_all(cmd, "tests/data/", std::string(SLURMTOPO_SOURCE_DIR) + "/tests/data/");
  return replace_all(cmd, "{}", (kBad / c.file).string());
}

}  // namespace

TEST_CASE("tests/bad: every malformed input is exit 2 with its exact error, and nothing is written") {
  const std::vector<Case> cases = load_cases();
  CHECK(cases.size() >= 60);
  size_t files = 0;
  for (const auto& e : fs::recursive_directory_iterator(kBad))
    if (e.is_regular_file() && e.path().parent_path() != kBad) ++files;
  CHECK_MESSAGE(files == cases.size(), "every file under tests/bad/*/ has one line in cases.tsv");
  // The README says how many there are: the count it gives is this one.
  {
    std::ifstream in(fs::path(SLURMTOPO_SOURCE_DIR) / "README.md");
    const std::string readme{std::istreambuf_iterator<char>(in), {}};
    const std::string said = "`tests/bad/` holds " + std::to_string(files) + " such files";
    CHECK_MESSAGE(readme.find(said) != std::string::npos, "README.md should say: " << said);
  }

  for (const Case& c : cases) {
    INFO("cases.tsv:" << c.line << ": " << c.file);
    REQUIRE(fs::exists(kBad / c.file));
    Scratch out;
    const std::string cmd = command_line(c, out);
    INFO("slurmtopo " << cmd);
    const auto r = run(cmd);
    CHECK(r.code == 2);
    // The error is a whole line of the output: the last one (`slurmtopo: ...`), or for a check
    // that lists every problem (`emit gres --check`), one of its `error: ...` lines.
    const std::string expected =
        replace_all(replace_all(c.error, "{}", (kBad / c.file).string()), "{out}", out.dir.string());
    std::vector<std::string> lines;
    std::istringstream text(r.output);
    for (std::string l; std::getline(text, l);) lines.push_back(l);
    REQUIRE(!lines.empty());
    if (expected.rfind("slurmtopo: ", 0) == 0) CHECK(lines.back() == expected);
    else CHECK(std::find(lines.begin(), lines.end(), expected) != lines.end());
    CHECK(fs::is_empty(out.dir));
  }
}

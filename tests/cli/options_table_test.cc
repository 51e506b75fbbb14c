// docs/options.md is every option of every command, generated from the parser
// (`slurmtopo help options --markdown`), and one option name means one thing everywhere: its
// meaning (the help up to the first ": ") is the same in every command that has it.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "tests/cli/cli_test_support.h"

using slurmtopo::testing::run;

namespace {

struct Row {
  std::string command, names, help;
};

std::string generated() {
  const auto r = run("help options --markdown");
  REQUIRE(r.code == 0);
  return r.output;
}

std::vector<Row> rows(const std::string& markdown) {
  std::vector<Row> out;
  const std::regex row(R"(^\| `([^`]*)` \| `([^`]*)` \| (.*) \| ([^|]*) \|$)");
  std::istringstream in(markdown);
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_match(line, m, row)) out.push_back({m[1], m[2], std::regex_replace(m[3].str(), std::regex(R"(\\\|)"), "|")});
  }
  return out;
}

std::string meaning(const std::string& help) { return help.substr(0, help.find(": ")); }

}  // namespace

TEST_CASE("docs/options.md is what `slurmtopo help options --markdown` prints (regenerate it when this fails)") {
  std::ifstream in(std::string(SLURMTOPO_SOURCE_DIR) + "/docs/options.md");
  const std::string doc{std::istreambuf_iterator<char>(in), {}};
  CHECK_MESSAGE(doc == generated(), "docs/options.md is stale: build/slurmtopo help options --markdown > docs/options.md");
}

TEST_CASE("options table: every command and its options, with defaults") {
  const auto all = rows(generated());
  std::set<std::string> commands;
  for (const Row& r : all) commands.insert(r.command);
  for (const std::string c : {"slurmtopo", "slurmtopo inspect", "slurmtopo emit topology", "slurmtopo emit gres",
                              "slurmtopo discover fabric", "slurmtopo collect", "slurmtopo place", "slurmtopo whatif",
                              "slurmtopo whatif merge", "slurmtopo apply", "slurmtopo report", "slurmtopo completion"})
    CHECK_MESSAGE(commands.count(c), c);
  CHECK_FALSE(commands.count("slurmtopo help options"));  // hidden
  bool place_count = false;
  for (const Row& r : all)
    if (r.command == "slurmtopo place" && r.names == "-N, --count") place_count = r.help.starts_with("nodes per job (salloc -N): what this job asks for");
  CHECK(place_count);
  CHECK(generated().find("| `slurmtopo generate fattree` | `--speed` | link speed: ") != std::string::npos);
  CHECK(generated().find("| `NDR` |") != std::string::npos);  // --speed's default
}

TEST_CASE("options table: one name, one meaning — the same option name means the same thing in every command") {
  // name -> meaning -> the commands that give it that meaning
  std::map<std::string, std::map<std::string, std::set<std::string>>> meanings;
  for (const Row& r : rows(generated())) {
    std::istringstream names(r.names);
    for (std::string n; std::getline(names, n, ',');) {
      n.erase(0, n.find_first_not_of(' '));
      if (n.starts_with("-")) meanings[n][meaning(r.help)].insert(r.command);
    }
  }
  CHECK(meanings.size() > 80);
  for (const auto& [name, by_meaning] : meanings) {
    if (by_meaning.size() == 1) continue;
    std::string said;
    for (const auto& [m, commands] : by_meaning) {
      said += "\n  '" + m + "' in";
      for (const auto& c : commands) said += " `" + c + "`";
    }
    FAIL_CHECK(name << " has " << by_meaning.size() << " meanings:" << said);
  }
}

TEST_CASE("options table: --topology is the file Slurm uses, and whatif's edit has its own name") {
  std::map<std::string, std::string> topology;
  for (const Row& r : rows(generated()))
    if (r.names == "--topology" || r.names == "--replace-topology") topology[r.command + " " + r.names] = r.help;
  CHECK(topology.count("slurmtopo place --topology"));
  CHECK(topology.count("slurmtopo report --topology"));
  CHECK_FALSE(topology.count("slurmtopo whatif --topology"));
  REQUIRE(topology.count("slurmtopo whatif --replace-topology"));
  CHECK(topology["slurmtopo whatif --replace-topology"].starts_with("edit: "));
}

// `slurmtopo completion bash` lists every command's own options (it is read from the parser),
// completes in a real bash, and every flag an error message suggests is one the CLI has.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>

#include "tests/cli/cli_test_support.h"

using slurmtopo::testing::run;
using slurmtopo::testing::Scratch;

namespace {

// "emit topology" -> its options, from the completion script's table.
std::map<std::string, std::set<std::string>> completion_options() {
  const auto r = run("completion bash");
  REQUIRE(r.code == 0);
  std::map<std::string, std::set<std::string>> out;
  const std::regex row(R"(    '([^']*)'\) subs='[^']*' words='([^']*)')");
  for (auto it = std::sregex_iterator(r.output.begin(), r.output.end(), row); it != std::sregex_iterator(); ++it) {
    std::set<std::string>& words = out[(*it)[1]];
    const std::string list = (*it)[2];
    static const std::regex word(R"(\S+)");
    for (auto w = std::sregex_iterator(list.begin(), list.end(), word); w != std::sregex_iterator(); ++w)
      words.insert(w->str());
  }
  return out;
}

}  // namespace

TEST_CASE("completion bash: every command, with the options its --help shows") {
  const auto table = completion_options();
  for (const std::string cmd : {"", "inspect", "emit topology", "emit gres", "generate fattree", "apply", "simulate"}) {
    INFO(cmd);
    REQUIRE(table.count(cmd));
    const std::string help = run(cmd + " --help").output;
    for (const auto& option : table.at(cmd))
      if (option.starts_with("--")) CHECK(help.find(option) != std::string::npos);
  }
  CHECK(table.at("apply").count("--dry-run"));
  CHECK(table.at("emit gres").count("--allow-missing"));
}

TEST_CASE("completion bash: sourced in bash, `slurmtopo em<TAB>` and `emit topology --sl<TAB>` complete") {
  Scratch s;
  REQUIRE(run("completion bash > " + s.path("slurmtopo")).code == 0);
  const std::string script = s.write("t.sh",
                                     "source " + s.path("slurmtopo") + "\n"
                                     "complete -p slurmtopo\n"
                                     "COMP_WORDS=(slurmtopo em); COMP_CWORD=1; _slurmtopo; echo \"1:${COMPREPLY[*]}\"\n"
                                     "COMP_WORDS=(slurmtopo emit topology --slurm-c); COMP_CWORD=3; _slurmtopo; echo \"2:${COMPREPLY[*]}\"\n");
  FILE* p = popen(("bash " + script + " 2>&1").c_str(), "r");
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  CHECK(pclose(p) == 0);
  CHECK(out.find("complete -o filenames -F _slurmtopo slurmtopo") != std::string::npos);
  CHECK(out.find("1:emit\n") != std::string::npos);
  CHECK(out.find("2:--slurm-conf\n") != std::string::npos);
}

TEST_CASE("every slurmtopo flag a message in the sources suggests is an option of some command") {
  // Messages that send the user to a flag ("accept with --allow-missing", "use --allow-partial",
  // "pass --nodes"): the flag must exist, or the advice answers "unknown option". Flags of
  // other tools (sbatch --array, scontrol --oneliner) are not suggestions and are not checked.
  std::set<std::string> all;
  for (const auto& [cmd, options] : completion_options()) all.insert(options.begin(), options.end());
  const std::regex suggestion(R"(\b(with|use|pass|add|try|give|rerun with|run with|or) (--[a-z][a-z0-9-]*[a-z0-9]))");
  const std::set<std::string> other_tools{"--no-io"};  // lstopo's ("exported with --no-io")
  std::vector<std::string> missing;
  int suggestions = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(SLURMTOPO_SOURCE_DIR)) {
    const std::string path = entry.path().string();
    if (entry.path().extension() != ".cc") continue;
    if (path.find("/tests/") != std::string::npos || path.find("/build") != std::string::npos ||
        path.find("/bench/") != std::string::npos)
      continue;
    std::ifstream in(path);
    std::string line;
    int no = 0;
    while (std::getline(in, line)) {
      ++no;
      const size_t quote = line.find('"');
      if (quote == std::string::npos) continue;  // only inside string literals
      const std::string text = line.substr(quote);
      for (auto it = std::sregex_iterator(text.begin(), text.end(), suggestion); it != std::sregex_iterator(); ++it) {
        ++suggestions;
        const std::string f = (*it)[2];
        if (!all.count(f) && !other_tools.count(f))
          missing.push_back(path.substr(std::string(SLURMTOPO_SOURCE_DIR).size()) + ":" + std::to_string(no) + ": " + f);
      }
    }
  }
  CHECK(suggestions >= 5);  // the scan finds the messages (accept with --allow-missing, use --allow-partial, ...)
  CHECK_MESSAGE(missing.empty(), "flags suggested in messages that no command has: " << [&] {
    std::string s;
    for (const auto& m : missing) s += "\n  " + m;
    return s;
  }());
}

TEST_CASE("one name for accepting missing nodes: --allow-missing in every command that has it, never --force") {
  const auto r = run("emit gres --nodes-dir " + std::string(SLURMTOPO_SOURCE_DIR) + "/samples/nodes --nodes 'nohost[1-2]'");
  CHECK(r.code == 2);
  CHECK(r.output.find("accept with --allow-missing") != std::string::npos);
  const auto table = completion_options();
  for (const std::string cmd : {"emit gres", "emit nodes", "emit topology", "discover classes"}) {
    INFO(cmd);
    CHECK(table.at(cmd).count("--allow-missing"));
  }
  for (const auto& entry : table) {
    const std::string& cmd = entry.first;  // not a structured binding: INFO captures it (clang 14)
    const auto& options = entry.second;
    INFO(cmd);
    CHECK_FALSE(options.count("--force"));
    CHECK_FALSE(options.count("--out"));  // an output is -o/--output
  }
  // The old spelling says the new one.
  const auto old = run("emit topology --fabric " + std::string(SLURMTOPO_SOURCE_DIR) + "/samples/fattree-2level.topo --force");
  CHECK(old.code == 2);
  CHECK(old.output.find("option '--force' of `slurmtopo emit topology` is now --allow-missing") != std::string::npos);
}

// `slurmtopo completion zsh`: the same commands and options as bash's, generated from the
// parser, and a script zsh parses and completes with (zsh from .ci/run's packages).
#include <doctest/doctest.h>

#include <cstdio>
#include <sstream>

#include "tests/cli/cli_test_support.h"
#include "tests/skip.h"

using slurmtopo::testing::run;
using slurmtopo::testing::Scratch;

namespace {

// The "PATH) subs=... OPTS=... values=..." rows of a completion script, options renamed alike.
std::string table_of(std::string script, const std::string& options_variable) {
  std::string out;
  std::istringstream in(script);
  for (std::string line; std::getline(in, line);)
    if (line.starts_with("    '")) {
      const auto at = line.find(" " + options_variable + "='");
      if (at != std::string::npos) line.replace(at + 1, options_variable.size(), "OPTS");
      out += line + "\n";
    }
  return out;
}

std::string shell_output(const std::string& command) {
  FILE* p = popen((command + " 2>&1").c_str(), "r");
  std::string out;
  char buf[4096];
  for (size_t n; (n = fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, n);
  const int status = pclose(p);
  return out + (status == 0 ? "" : "[exit " + std::to_string(status) + "]");
}

}  // namespace

TEST_CASE("completion zsh: a #compdef file with the commands and options bash's script has") {
  const auto zsh = run("completion zsh");
  REQUIRE(zsh.code == 0);
  CHECK(zsh.output.starts_with("#compdef slurmtopo\n"));
  const auto bash = run("completion bash");
  const std::string rows = table_of(zsh.output, "opts");
  CHECK(rows == table_of(bash.output, "words"));
  CHECK(rows.find("'emit topology') subs='' OPTS='--help") != std::string::npos);
  CHECK(rows.find("--allow-missing") != std::string::npos);
  CHECK(run("completion ZSH").output == zsh.output);  // any case
}

TEST_CASE("completion zsh: zsh parses it and completes commands, options and files with it") {
  if (shell_output("command -v zsh").find("zsh") == std::string::npos) {
    slurmtopo::testing::skip("zsh is not installed (Debian package zsh, in .ci/run's list)");
    return;
  }
  Scratch s;
  REQUIRE(run("completion zsh > " + s.path("_slurmtopo")).code == 0);
  CHECK(shell_output("zsh -n " + s.path("_slurmtopo")).empty());
  // Outside a completion widget $words and $CURRENT are plain variables, and compadd/_files
  // can be stubs that print what they were given.
  s.write("t.zsh",
          "compadd() { print -r -- \"compadd $*\"; }\n"
          "_files() { print -r -- _files; }\n"
          "compdef() { print -r -- \"compdef $*\"; }\n"
          "source " + s.path("_slurmtopo") + "\n"
          "words=(slurmtopo em); CURRENT=2; _slurmtopo\n"
          "words=(slurmtopo emit topology --slurm-c); CURRENT=4; _slurmtopo\n"
          "words=(slurmtopo emit topology --fabric ''); CURRENT=5; _slurmtopo\n");
  const std::string out = shell_output("zsh -f " + s.path("t.zsh"));
  CHECK(out.find("compdef _slurmtopo slurmtopo\n") != std::string::npos);  // sourced: registers itself
  CHECK(out.find("compadd -- inspect emit generate") != std::string::npos);
  CHECK(out.find("compadd -- --help -h --fabric") != std::string::npos);
  CHECK(out.find("--slurm-conf") != std::string::npos);
  CHECK(out.find("_files\n") != std::string::npos);  // a file after --fabric
  CHECK(out.find("[exit") == std::string::npos);
}

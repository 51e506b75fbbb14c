#include "cli/exit_status.h"

#include "base/base.h"
#include "cli/command_tree.h"

namespace slurmtopo::cli {

std::string exit_status_text(const std::string& done, const std::string& bad_input, const std::vector<ExitStatus>& more) {
  std::vector<ExitStatus> all{{exit_code::kOk, done},
                              {exit_code::kInternalError, "internal error: a bug in slurmtopo (please report it), never bad input"},
                              {exit_code::kBadInput, bad_input}};
  all.insert(all.end(), more.begin(), more.end());
  std::string s = "Exit status:\n";
  for (const auto& e : all) s += "  " + std::to_string(e.code) + "  " + e.meaning + "\n";
  return s;
}

std::string plain_exit_status() {
  return exit_status_text("done", "bad input (the file and line named on stderr): nothing written");
}

std::string examples_text(const std::vector<std::pair<std::string, std::string>>& command_and_what) {
  std::string s = "Examples:\n";
  for (const auto& [command, what] : command_and_what) s += "  " + command + "\n      " + what + "\n";
  return s;
}

void add_missing_exit_status(CLI::App& app) {
  for (CLI::App* c : all_commands(app)) {
    if (!c->get_footer().empty()) continue;
    if (c == &app)
      c->footer(exit_status_text("done", "bad input (the file and line named on stderr): nothing written, nothing changed",
                                 {{exit_code::kAttention, "done as far as it could, look before relying on it: report WARN, "
                                                          "a partial sweep, a job that cannot start now, an apply rolled back"},
                                  {exit_code::kFails, "the cluster fails a check: report FAIL, apply over --max-anomalies"}}) +
                "Each command's --help lists the codes it uses.\n");
    else
      c->footer(plain_exit_status());
  }
}

}  // namespace slurmtopo::cli

// The "Exit status:" part of a command's --help footer (and so of its man page's EXIT STATUS
// section, which scripts/man_pages.sh makes of it), from base/exit_codes.h: every command lists
// 0, 1 and 2 and what they mean for it, and the codes only it uses.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace slurmtopo::cli {

struct ExitStatus {
  int code;
  std::string meaning;
};

// "Exit status:\n  0  DONE\n  1  internal error ...\n  2  BAD_INPUT\n  3 ...". `more` are the
// command's other codes (3, 4).
std::string exit_status_text(const std::string& done, const std::string& bad_input,
                             const std::vector<ExitStatus>& more = {});

// The text of a command that writes or prints something and has no other code.
std::string plain_exit_status();

// Every visible command without a footer gets plain_exit_status(); slurmtopo itself, the table
// of every code.
void add_missing_exit_status(CLI::App& app);

// "Examples:\n  CMD\n      WHAT IT DOES\n..." for the help footer (a man page's EXAMPLES).
std::string examples_text(const std::vector<std::pair<std::string, std::string>>& command_and_what);

}  // namespace slurmtopo::cli

// What the parser knows about itself, for a person and for the shell: `slurmtopo help CMD...`,
// `slurmtopo completion bash|zsh`, and the "did you mean ...?" line for a mistyped word.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace slurmtopo::cli {

// `help [CMD...]`, `completion bash|zsh` and the hidden `help options --markdown`, registered on the top-level app.
void add_help_commands(CLI::App& app);

// After a failed parse: "unknown command 'inspekt'; did you mean inspect?" for the first word
// the parser did not take, or "" when it took them all (or none is near a valid one).
std::string did_you_mean(CLI::App& app);

}  // namespace slurmtopo::cli

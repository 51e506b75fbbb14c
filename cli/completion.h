// Shell completion scripts, generated from the parser's own commands and options so they
// cannot drift from it: `slurmtopo completion bash|zsh`.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace slurmtopo::cli {

// For /usr/share/bash-completion/completions/slurmtopo (or `source <(slurmtopo completion bash)`).
std::string bash_completion(CLI::App& app);

// For /usr/share/zsh/vendor-completions/_slurmtopo (an autoloaded #compdef file), or
// `source <(slurmtopo completion zsh)` after compinit.
std::string zsh_completion(CLI::App& app);

}  // namespace slurmtopo::cli

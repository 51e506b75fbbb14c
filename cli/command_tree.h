// The parser's tree of commands as help, completion and docs/options.md walk it.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace slurmtopo::cli {

// The commands directly below `app` a user sees (hidden ones, in group "", left out).
std::vector<CLI::App*> visible_subcommands(CLI::App& app);

// "emit topology" for that command; "" for slurmtopo itself.
std::string command_path(const CLI::App* app);

// `app` and every visible command below it, depth first.
std::vector<CLI::App*> all_commands(CLI::App& app);

}  // namespace slurmtopo::cli

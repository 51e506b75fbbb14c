// `slurmtopo collect`, registered by add_discover_command() (commands.h keeps one entry per
// command family).
#pragma once

#include <CLI/CLI.hpp>

namespace slurmtopo::cli {

void add_collect_command(CLI::App& app);

}  // namespace slurmtopo::cli

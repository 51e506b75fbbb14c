// The subcommands. Each registers its options and a callback that calls the library and
// prints; errors travel as InputError and main() turns them into exit code 2.
#pragma once

#include <CLI/CLI.hpp>

#include "cli/options.h"

namespace slurmtopo::cli {

void add_inspect_command(CLI::App& app);
void add_emit_command(CLI::App& app);
void add_emit_gres_commands(CLI::App& emit);  // `emit gres`, `emit nodes` (cli/emit_gres_command.cc)
void add_generate_command(CLI::App& app);
void add_simulate_command(CLI::App& app);  // `simulate` (cli/simulate_command.cc)
void add_discover_command(CLI::App& app);  // also registers `collect`
void add_discover_fabric_command(CLI::App& discover);  // `discover fabric` (cli/discover_fabric_command.cc)
void add_discover_counters_command(CLI::App& discover);  // `discover counters` (the same file)
void add_place_command(CLI::App& app);  // `place` (cli/place_command.cc)
void add_whatif_command(CLI::App& app);  // `whatif`, `whatif merge` (cli/whatif_command.cc)
void add_apply_command(CLI::App& app);   // `apply` (cli/apply_command.cc)
void add_report_command(CLI::App& app);  // `report` (cli/report_command.cc)
void add_probe_command(CLI::App& app);   // `probe` (cli/probe_command.cc)

// Exit code a callback asks main() to return (CLI11 callbacks cannot return one).
struct Exit { int code; };

}  // namespace slurmtopo::cli

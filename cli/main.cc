// slurmtopo: parse arguments, call the library, print. Decides nothing.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string_view>
#include <utility>

#include "base/base.h"
#include "cli/commands.h"
#include "cli/exit_status.h"
#include "cli/help_command.h"
#include "discover/discover.h"

int main(int argc, char** argv) {
  slurmtopo::keep_freed_memory_for_reuse();
  CLI::App app{"slurmtopo: InfiniBand fabric and GPU nodes to Slurm configuration"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "slurmtopo " + slurmtopo::slurmtopo_version());
  // The command named first is built alone: every command's options cost 3 M instructions
  // (about 1 ms) of each run.
  // Anything else (--help, --version, help, completion, a mistyped word) builds them all, since
  // what it prints lists them.
  using Add = void (*)(CLI::App&);
  static constexpr std::pair<std::string_view, Add> kCommands[] = {
      {"inspect", slurmtopo::cli::add_inspect_command},   {"emit", slurmtopo::cli::add_emit_command},
      {"generate", slurmtopo::cli::add_generate_command}, {"simulate", slurmtopo::cli::add_simulate_command},
      {"discover", slurmtopo::cli::add_discover_command}, {"place", slurmtopo::cli::add_place_command},
      {"whatif", slurmtopo::cli::add_whatif_command},     {"apply", slurmtopo::cli::add_apply_command},
      {"report", slurmtopo::cli::add_report_command},     {"probe", slurmtopo::cli::add_probe_command},
  };
  const std::string_view first = argc > 1 ? argv[1] : "";
  const auto named = std::find_if(std::begin(kCommands), std::end(kCommands), [&](const auto& c) { return c.first == first; });
  if (named != std::end(kCommands)) {
    named->second(app);
  } else {
    for (const auto& [name, add] : kCommands) add(app);
    slurmtopo::cli::add_help_commands(app);
  }
  slurmtopo::cli::add_missing_exit_status(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    // A mistyped word first: CLI11 alone would say "A subcommand is required".
    if (const std::string hint = slurmtopo::cli::did_you_mean(app); !hint.empty()) {
      std::cerr << "slurmtopo: " << hint << "\n";
      return slurmtopo::exit_code::kBadInput;
    }
    app.exit(e);
    return slurmtopo::exit_code::kBadInput;
  } catch (const slurmtopo::AbandonedSweep& e) {
    // A thread is still blocked in a MAD; exit-time cleanup would crash under it.
    std::cerr << "slurmtopo: " << e.what() << "\n" << std::flush;
    std::fflush(stdout);
    std::_Exit(slurmtopo::exit_code::kBadInput);
  } catch (const slurmtopo::InputError& e) {
    std::cerr << "slurmtopo: " << e.what() << "\n";
    return slurmtopo::exit_code::kBadInput;
  } catch (const slurmtopo::cli::Exit& e) {
    return e.code;
  } catch (const std::exception& e) {
    std::cerr << "slurmtopo: " << e.what() << "\n";
    return slurmtopo::exit_code::kInternalError;
  }
  return slurmtopo::exit_code::kOk;
}

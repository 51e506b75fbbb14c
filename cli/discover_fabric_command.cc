// `slurmtopo discover fabric`: sweep the InfiniBand subnet live (as ibnetdiscover does), optionally
// read every switch's forwarding table, print what `inspect` prints, save a snapshot.
#include <unistd.h>

#include <iostream>
#include <memory>
#include <optional>

#include "base/base.h"
#include "base/base.h"
#include "cli/commands.h"
#include "cli/exit_status.h"
#include "discover/discover.h"
#include "graph/graph.h"
#include "report/report.h"

namespace slurmtopo::cli {
namespace {

// Exit code of a sweep that missed part of the fabric (without --allow-partial): not bad input
// (2), but not a result to build on either.
constexpr int kPartialExit = exit_code::kAttention;

struct Options {
  FabricSweepRequest request;
  bool allow_partial = false;
  std::string save;
};

void run(const Options& o) {
  auto progress = std::make_shared<LiveProgress>();
  FabricSweep sweep;
  {
    std::optional<SweepProgressLine> line;  // a terminal only: no \r in a log
    if (::isatty(STDERR_FILENO)) line.emplace(progress);
    sweep = sweep_fabric(o.request, progress, [&] {
      if (line) line->show();
    });
  }
  for (const auto& w : sweep.warnings) std::cerr << "warning: " << w << "\n";
  std::cout << sweep.output << std::flush;
  if (!sweep.partial.empty() && !o.allow_partial) {
    std::cerr << sweep.partial;
    throw Exit{kPartialExit};
  }
  if (!o.save.empty()) atomic_write(o.save, snapshot_to_json(Snapshot{sweep.cluster.fabrics}));
}

}  // namespace

void add_discover_fabric_command(CLI::App& discover) {
  auto o = std::make_shared<Options>();
  CLI::App* cmd = discover.add_subcommand(
      "fabric", "Sweep the InfiniBand fabric live (libibnetdisc), print what inspect prints, save a snapshot");
  cmd->footer(exit_status_text("swept (and saved with --save)",
                               "bad input, a port without a LID, or a fabric that stopped answering: nothing saved",
                               {{kPartialExit, "the sweep missed part of the fabric (listed on stderr): nothing saved "
                                               "without --allow-partial"}}) +
              "\n" +
              examples_text({{"slurmtopo discover fabric --save cluster.json", "sweep from the first HCA, as ibnetdiscover does"},
                             {"slurmtopo discover fabric --routes --save cluster.json",
                              "also read every switch's forwarding table (for simulate --routing lft)"}}));
  cmd->add_option("--ca", o->request.live.ca, "HCA to sweep from (default: the first one)");
  cmd->add_option("--port", o->request.live.port, "its port (default: the first active one)")->check(whole_number(0, 254));
  cmd->add_option("--timeout-ms", o->request.live.timeout_ms, "per-MAD timeout (default: libibnetdisc's)")
      ->check(whole_number(1, 60000));
  cmd->add_option("--retries", o->request.live.retries, "MAD retries (default: libibnetdisc's)")->check(whole_number(1, 100));
  cmd->add_option("--smp-window", o->request.live.smp_window,
                  "most SMPs on the wire at once (default 8, as ibdiagnet; ibnetdiscover sends 2)")
      ->check(whole_number(1, 64));
  cmd->add_option("--max-hops", o->request.live.max_hops, "stop the walk this many hops out (the rest is reported missing)")
      ->check(whole_number(1, 63));
  CLI::Option* routes =
      cmd->add_option("--routes", o->request.routes_file,
                      "also read every switch's forwarding table by SMP; with FILE, from dump_fts/ibroute output instead")
          ->expected(0, 1);
  cmd->add_flag("--allow-partial", o->allow_partial, "a sweep that missed nodes or ports still saves (exit 0)");
  cmd->add_option("--name", o->request.name, "label of this fabric in output (default: CA and port)");
  add_fabric_options(*cmd, o->request.inputs, FabricOption::MapsOnly);
  add_json_flag(*cmd, o->request.json);
  add_save_option(*cmd, o->save, "with the forwarding tables");
  cmd->callback([o, routes] {
    o->request.live.routes = routes->count() > 0;
    run(*o);
  });
}

}  // namespace slurmtopo::cli

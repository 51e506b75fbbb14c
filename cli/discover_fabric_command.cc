// `slurmtopo discover fabric`: sweep the InfiniBand subnet live (as ibnetdiscover does), optionally
// read every switch's forwarding table, print what `inspect` prints, save a snapshot.
#include <unistd.h>

#include <ctime>
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

struct SweepOptions {
  FabricSweepRequest request;
  bool allow_partial = false;
  std::string save;
  std::string textfile;  // DIR for node_exporter's textfile collector
};

void run_sweep(const SweepOptions& o) {
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
  if (!sweep.reset.empty()) std::cerr << sweep.reset << "\n";
  std::cout << sweep.output << std::flush;
  if (!sweep.partial.empty() && !o.allow_partial) {
    std::cerr << sweep.partial;
    throw Exit{kPartialExit};
  }
  if (!o.save.empty()) atomic_write(o.save, snapshot_to_json(Snapshot{sweep.cluster.fabrics}));
  if (!o.textfile.empty()) write_counters_textfile(o.textfile, sweep.cluster, static_cast<int64_t>(::time(nullptr)));
}

// The local port the MADs leave from, and how long each waits: the same for a sweep and a read.
void add_local_port_options(CLI::App& cmd, LiveOptions& live) {
  cmd.add_option("--ca", live.ca, "HCA the MADs leave from (default: the first one)");
  cmd.add_option("--port", live.port, "its port (default: the first active one)")->check(whole_number(0, 254));
  cmd.add_option("--timeout-ms", live.timeout_ms, "per-MAD timeout (default 1000, as libibnetdisc)")
      ->check(whole_number(1, 60000));
  cmd.add_option("--retries", live.retries, "MAD retries (default 3, as libibnetdisc)")->check(whole_number(1, 100));
}

constexpr const char* kAllowPartial = "a sweep or read that missed nodes or ports still saves (exit 0)";

// --counters' companions, for `discover fabric --counters` and `discover counters`.
void add_counter_read_options(CLI::App& cmd, LiveOptions& live, std::string& textfile, CLI::Option* counters) {
  auto needs = [counters](CLI::Option* o) { return counters ? o->needs(counters) : o; };
  needs(cmd.add_option("--textfile", textfile,
                       "DIR of node_exporter's textfile collector: write DIR/slurmtopo_counters.prom there (every cable "
                       "end's non-zero counters, labelled with switch, port, host and HCA)")
            ->check(CLI::ExistingDirectory));
  needs(cmd.add_option("--interval", live.interval_s,
                       "read the counters twice this many seconds apart, for rates (default: one read)")
            ->check(CLI::Range(0.1, 3600.0)));
  needs(cmd.add_flag("--reset-counters", live.reset_counters,
                     "after reading them, reset every read port's error counters and PortXmitWait (as ibqueryerrors -k)"));
  needs(cmd.add_option("--pma-window", live.pma_window, "most PMA queries on the wire at once (default 64)")
            ->check(whole_number(1, 512)));
}

}  // namespace

void add_discover_counters_command(CLI::App& discover) {
  auto o = std::make_shared<SweepOptions>();
  CLI::App* cmd = discover.add_subcommand(
      "counters", "Read every cabled port's counters live for a fabric swept earlier (no sweep), judge every cable");
  cmd->footer(exit_status_text("read (and saved with --save)",
                               "bad input, a port without a LID, a fabric file of another subnet, or a fabric that "
                               "stopped answering: nothing saved",
                               {{kPartialExit, "ports that did not answer (listed on stderr): nothing saved without "
                                               "--allow-partial"}}) +
              "\n" +
              examples_text({{"slurmtopo discover counters --fabric cluster.json --interval 10",
                              "every cabled port of a saved sweep, read twice 10 s apart: cables with errors, rates"},
                             {"ibnetdiscover --cache f.cache; slurmtopo discover counters --fabric f.cache --save now.json",
                              "from libibnetdisc's cache, as ibqueryerrors --load-cache"}}));
  cmd->add_option("--fabric", o->request.fabric_file,
                  "the InfiniBand fabric: a snapshot, libibnetdisc cache or ibnetdiscover dump swept earlier on this "
                  "subnet (its LIDs must still be the subnet's)")
      ->required()
      ->check(CLI::ExistingFile);
  add_local_port_options(*cmd, o->request.live);
  add_counter_read_options(*cmd, o->request.live, o->textfile, nullptr);
  cmd->add_flag("--allow-partial", o->allow_partial, kAllowPartial);
  add_fabric_options(*cmd, o->request.inputs, FabricOption::MapsOnly);
  add_json_flag(*cmd, o->request.json);
  add_save_option(*cmd, o->save, "with the counters");
  cmd->callback([o] { run_sweep(*o); });
}

void add_discover_fabric_command(CLI::App& discover) {
  auto o = std::make_shared<SweepOptions>();
  CLI::App* cmd = discover.add_subcommand(
      "fabric", "Sweep the InfiniBand fabric live (libibnetdisc), print what inspect prints, save a snapshot");
  cmd->footer(exit_status_text("swept (and saved with --save)",
                               "bad input, a port without a LID, or a fabric that stopped answering: nothing saved",
                               {{kPartialExit, "the sweep missed part of the fabric (listed on stderr): nothing saved "
                                               "without --allow-partial"}}) +
              "\n" +
              examples_text({{"slurmtopo discover fabric --save cluster.json", "sweep from the first HCA, as ibnetdiscover does"},
                             {"slurmtopo discover fabric --routes --save cluster.json",
                              "also read every switch's forwarding table (for simulate --routing lft)"},
                             {"slurmtopo discover fabric --counters --interval 10 --save cluster.json",
                              "also read every cabled port's counters twice, 10 s apart: cables with errors, with rates"}}));
  add_local_port_options(*cmd, o->request.live);
  cmd->add_option("--smp-window", o->request.live.smp_window,
                  "most SMPs on the wire at once (default 8, as ibdiagnet; ibnetdiscover sends 2)")
      ->check(whole_number(1, 64));
  cmd->add_option("--max-hops", o->request.live.max_hops, "stop the walk this many hops out (the rest is reported missing)")
      ->check(whole_number(1, 63));
  CLI::Option* routes =
      cmd->add_option("--routes", o->request.routes_file,
                      "also read every switch's forwarding table by SMP; with FILE, from dump_fts/ibroute output instead")
          ->expected(0, 1);
  CLI::Option* counters = cmd->add_flag(
      "--counters", o->request.live.counters,
      "port counters to judge every cable end by: read live from every cabled port, both ends (PMA queries, many "
      "on the wire at once)");
  add_counter_read_options(*cmd, o->request.live, o->textfile, counters);
  cmd->add_flag("--allow-partial", o->allow_partial, kAllowPartial);
  cmd->add_option("--name", o->request.name, "label of this fabric in output (default: CA and port)");
  add_fabric_options(*cmd, o->request.inputs, FabricOption::MapsOnly);
  add_plan_option(*cmd, o->request.inputs);
  add_json_flag(*cmd, o->request.json);
  add_save_option(*cmd, o->save, "with the forwarding tables");
  cmd->callback([o, routes] {
    o->request.live.routes = routes->count() > 0;
    run_sweep(*o);
  });
}

}  // namespace slurmtopo::cli

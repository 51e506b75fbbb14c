// `slurmtopo discover fabric`: sweep the InfiniBand subnet live (as ibnetdiscover does), optionally
// read every switch's forwarding table, print what `inspect` prints, save a snapshot.
#include <unistd.h>

#include <iostream>
#include <memory>
#include <optional>

#include "base/base.h"
#include "cli/commands.h"
#include "discover/discover.h"
#include "graph/graph.h"
#include "report/report.h"
#include "simulate/network/network.h"

namespace slurmtopo::cli {
namespace {

// Exit code of a sweep that missed part of the fabric (without --allow-partial): not bad input
// (2), but not a result to build on either.
constexpr int kPartialExit = 3;

struct Options {
  LiveOptions live;
  ClusterInputs inputs;  // --node-name-map / --config; no --fabric
  std::string routes_file;
  bool routes = false;
  bool allow_partial = false;
  bool json = false;
  std::string save;
  std::string name;
};

void run(const Options& o) {
  auto progress = std::make_shared<LiveProgress>();
  LiveOptions live = o.live;
  live.routes = o.routes && o.routes_file.empty();
  // A bad dump is known before a long sweep.
  std::optional<ForwardingTables> dumped;
  if (!o.routes_file.empty()) dumped = read_forwarding_tables_file(o.routes_file);
  Fabric fabric;
  {
    std::optional<SweepProgressLine> line;
    if (::isatty(STDERR_FILENO)) line.emplace(progress);
    fabric = discover_live_fabric(live, progress, [&] {
      if (line) line->show();
    });
  }
  if (!o.name.empty()) fabric.name = o.name;
  if (dumped) {
    size_t left_out = 0;
    fabric.routes = tables_for_fabric(std::move(*dumped), o.routes_file, fabric, left_out);
    if (left_out)
      std::cerr << "warning: " << o.routes_file << ": " << left_out
                << " tables are for switches the sweep did not find; left out\n";
  }

  Cluster cluster = build_cluster({fabric}, load_cluster_options(o.inputs));
  std::cout << (o.json ? inspect_json(cluster) : inspect_text(cluster)) << std::flush;
  if (!fabric.partial.empty() && !o.allow_partial) {
    std::cerr << partial_sweep_text(fabric);
    throw Exit{kPartialExit};
  }
  if (!o.save.empty()) atomic_write(o.save, snapshot_to_json(Snapshot{cluster.fabrics}));
}

}  // namespace

void add_discover_fabric_command(CLI::App& discover) {
  auto o = std::make_shared<Options>();
  CLI::App* cmd = discover.add_subcommand(
      "fabric", "Sweep the InfiniBand fabric live (libibnetdisc), print what inspect prints, save a snapshot");
  cmd->add_option("--ca", o->live.ca, "HCA to sweep from (default: the first one)");
  cmd->add_option("--port", o->live.port, "its port (default: the first active one)")->check(CLI::Range(0, 254));
  cmd->add_option("--timeout-ms", o->live.timeout_ms, "per-MAD timeout (default: libibnetdisc's)")
      ->check(CLI::Range(1u, 60000u));
  cmd->add_option("--retries", o->live.retries, "MAD retries (default: libibnetdisc's)")->check(CLI::Range(1u, 100u));
  cmd->add_option("--max-hops", o->live.max_hops, "stop the walk this many hops out (the rest is reported missing)")
      ->check(CLI::Range(1u, 63u));
  CLI::Option* routes =
      cmd->add_option("--routes", o->routes_file,
                      "also read every switch's forwarding table by SMP; with FILE, from dump_fts/ibroute output instead")
          ->expected(0, 1);
  cmd->add_flag("--allow-partial", o->allow_partial, "a sweep that missed nodes or ports still saves (exit 0)");
  cmd->add_option("--name", o->name, "label of this fabric in output (default: CA and port)");
  add_fabric_options(*cmd, o->inputs, FabricOption::MapsOnly);
  cmd->add_flag("--json", o->json, "machine-readable output");
  cmd->add_option("--save", o->save, "write a snapshot (JSON, with the tables) that --fabric reads back");
  cmd->callback([o, routes] {
    o->routes = routes->count() > 0;
    run(*o);
  });
}

}  // namespace slurmtopo::cli

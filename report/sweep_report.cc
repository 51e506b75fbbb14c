#include "report/sweep_report.h"

#include <cstdio>
#include <iostream>
#include <optional>

#include "base/input_error.h"
#include "base/text.h"
#include "discover/fabric_file.h"
#include "report/inspect.h"
#include "simulate/network/forwarding_tables.h"

namespace slurmtopo {

SweepProgressLine::SweepProgressLine(std::shared_ptr<LiveProgress> progress)
    : progress_(std::move(progress)), start_(Clock::now()) {}

void SweepProgressLine::show() {
  const double s = std::chrono::duration<double>(Clock::now() - start_).count();
  const LiveProgress& p = *progress_;
  char line[160];
  if (p.lft_switches > 0)
    std::snprintf(line, sizeof line, "\rdiscover: %ld switches, %ld CAs; forwarding tables %ld/%ld; %.1f s ",
                  p.switches.load(), p.cas.load(), p.lft_done.load(), p.lft_switches.load(), s);
  else
    std::snprintf(line, sizeof line, "\rdiscover: %ld switches, %ld CAs; %.1f s ", p.switches.load(), p.cas.load(), s);
  std::cerr << line << std::flush;
}

SweepProgressLine::~SweepProgressLine() {
  show();
  std::cerr << "\n";
}

std::string partial_sweep_text(const Fabric& fabric) {
  std::string out = "slurmtopo: " + fabric.source + ": partial sweep, " + std::to_string(fabric.partial.size()) +
                    " problem" + (fabric.partial.size() == 1 ? "" : "s") + ":\n";
  for (const auto& p : fabric.partial) out += "  " + p + "\n";
  return out + "nothing saved; run again, or accept what was found with --allow-partial\n";
}

FabricSweep sweep_fabric(const FabricSweepRequest& r, const std::shared_ptr<LiveProgress>& progress,
                         const std::function<void()>& tick) {
  LiveOptions live = r.live;
  live.routes = live.routes && r.routes_file.empty();
  std::optional<ForwardingTables> dumped;
  if (!r.routes_file.empty()) dumped = read_forwarding_tables_file(r.routes_file);
  int reset = 0;
  Fabric fabric;
  if (r.fabric_file.empty()) {
    fabric = discover_live_fabric(live, progress, tick, &reset);
  } else {
    std::vector<Fabric> read = load_fabric_file(r.fabric_file);
    if (read.size() != 1)
      throw InputError(r.fabric_file, 0,
                       "expected one subnet's fabric (the counters are read from one port), found " +
                           std::to_string(read.size()));
    live.counters = true;
    fabric = read_live_counters(std::move(read.front()), live, tick, &reset);
  }
  if (!r.name.empty()) fabric.name = r.name;
  FabricSweep out;
  if (dumped) {
    size_t left_out = 0;
    fabric.routes = tables_for_fabric(std::move(*dumped), r.routes_file, fabric, left_out);
    if (left_out)
      out.warnings.push_back(r.routes_file + ": " + counted(left_out, "table is", "tables are") +
                             " for switches the sweep did not find; left out");
  }
  if (live.counters && live.reset_counters)
    out.reset = "reset the error counters and PortXmitWait of " + counted(reset, "port", "ports") + " of " +
                std::to_string(fabric.counters.ports.size()) + " read, after reading them (data counters kept)";
  if (!fabric.partial.empty()) out.partial = partial_sweep_text(fabric);
  std::vector<Fabric> fabrics;  // moved, not copied: a braced list would copy a 65,536-host sweep
  fabrics.push_back(std::move(fabric));
  out.cluster = build_cluster(std::move(fabrics), load_cluster_options(r.inputs));
  out.output = r.json ? inspect_json(out.cluster) : inspect_text(out.cluster);
  return out;
}

}  // namespace slurmtopo

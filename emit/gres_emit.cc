#include "emit/gres_emit.h"

#include <set>

#include "base/files.h"
#include "base/input_error.h"
#include "emit/write_guard.h"
#include "graph/node_join.h"
#include "slurm/gres_conf.h"

namespace slurmtopo {

namespace {

// The nodes a gres.conf or node-line file already describes.
std::set<std::string> described_nodes(const std::string& text, GresOutput what, const std::string& file) {
  std::set<std::string> out;
  if (what == GresOutput::Gres) {
    for (const auto& l : parse_gres_conf(text, file).lines) out.insert(l.nodes.begin(), l.nodes.end());
  } else {
    for (const auto& l : parse_node_conf(text, file).lines) out.insert(l.nodes.begin(), l.nodes.end());
  }
  return out;
}

}  // namespace

EmitGresResult emit_gres(const EmitGresRequest& r) {
  EmitGresResult out;
  out.what = r.what;
  out.version = r.release.release;
  NodeSources sources = r.sources;
  sources.allow_missing = r.force;
  const NodeSet set = load_node_set(sources, r.nodes);
  out.nodes = set.nodes.size();
  out.classes = set.classes.size();
  out.warnings = set.warnings;
  std::optional<Cluster> cluster;
  if (!r.fabric.fabric_files.empty()) cluster = load_cluster(r.fabric);
  for (const auto& a : join_nodes(set, cluster ? &*cluster : nullptr).anomalies)
    out.warnings.push_back(std::string(to_string(a.kind)) + " " + a.subject + ": " + a.detail);

  GresRequest request;
  request.version = out.version;
  request.release_line = release_line(r.release);
  request.dev_dir = r.dev_dir;
  request.command = r.command;
  request.partitions = parse_partition_topology(r.partition_topology, out.version);
  out.plan = plan_gres(set, request);

  if (!r.check.empty()) {
    std::string text;
    if (!read_file_if_exists(r.check, text)) throw InputError(r.check, 0, "cannot read the gres.conf to check");
    out.target = r.check;
    out.checked = check_existing_gres(text, r.check, out.plan, out.version);
    return out;
  }
  out.to_stdout = is_stdout(r.output);
  out.target = !out.to_stdout ? r.output : r.what == GresOutput::Gres ? "gres.conf" : "slurm.conf";
  if (!out.plan.check.ok()) {
    out.refusal = "slurmd would not accept it";
    return out;
  }
  if (out.to_stdout) return out;
  std::string current;
  if (read_file_if_exists(r.output, current) && !r.force) {
    const std::set<std::string> before = described_nodes(current, r.what, r.output);
    const std::set<std::string> after = described_nodes(out.text(), r.what, out.target);
    std::vector<std::string> dropped;
    for (const auto& n : before)
      if (!after.count(n)) dropped.push_back(n);
    out.refusal = shrink_refusal(before.size(), dropped, "the node files");
    if (out.refusal) return out;
  }
  out.written = atomic_write(r.output, out.text());
  return out;
}

}  // namespace slurmtopo

#include "simulate/measured/probe_plan.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>

#include "base/atomic_write.h"
#include "base/input_error.h"
#include "base/nearest_word.h"
#include "base/shell_quote.h"
#include "base/version.h"
#include "discover/job_paths.h"
#include "simulate/measured/probe_manifest.h"
#include "graph/switch_names.h"
#include "slurm/hostlist.h"

namespace slurmtopo {
namespace {

constexpr const char* kProbeJobName = "slurmtopo-probe";

// nccl-tests' own sweep from 16 MiB (latency no longer dominates) to 8 GiB (the bus bandwidth
// has settled), doubling; one GPU per rank, as under MPI.
const std::vector<std::string> kAllReduceArgs = {"-b", "16M", "-e", "8G", "-f", "2", "-g", "1"};
// INIT: version and devices; ENV: NCCL_IB_HCA and friends as read; NET: the transport and HCAs;
// GRAPH: the channels (what measured_run.h needs, without the COLL noise).
const std::vector<std::string> kNcclEnv = {"NCCL_DEBUG=INFO", "NCCL_DEBUG_SUBSYS=INIT,ENV,NET,GRAPH"};

// The hosts of --nodes as Cluster indices, in Slurm's node order (the cluster's).
std::vector<int> probe_hosts(const Cluster& c, const std::string& nodes) {
  if (nodes.empty()) throw InputError("--nodes", 0, "expected a hostlist of the nodes to probe, e.g. gpu[001-128]");
  const auto names = expand_hostlist_at(nodes, "--nodes", 0, "'" + nodes + "' is not a hostlist");
  if (names.empty()) throw InputError("--nodes", 0, "the hostlist '" + nodes + "' names no node");
  std::vector<std::string> known;
  for (const auto& h : c.hosts) known.push_back(h.name);
  std::vector<int> out;
  for (const auto& name : names) {
    const int h = c.host_index(name);
    if (h < 0) {
      const std::string near = nearest_word(name, known);
      throw InputError("--nodes", 0, "expected hosts of the fabric; `" + name + "` is not in it" +
                                         (near.empty() ? "" : " (did you mean " + near + "?)"));
    }
    if (c.hosts[h].group < 0)
      throw InputError("--nodes", 0, "expected hosts of a leaf group; `" + name +
                                         "` is in none (a storage or unplaced host: `inspect` says which)");
    out.push_back(h);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// A placement before it is numbered: kind, groups, hosts.
struct ProbeCandidate {
  ProbeKind kind;
  std::vector<int> groups;
  std::vector<int> hosts;  // sorted Cluster indices
};

std::vector<ProbeCandidate> probe_candidates(const std::vector<std::vector<int>>& by_group,
                                             const std::vector<int>& present, const std::vector<int>& all) {
  std::vector<ProbeCandidate> out;
  auto merged = [&](std::vector<int> groups) {
    std::vector<int> hosts;
    for (int g : groups) hosts.insert(hosts.end(), by_group[g].begin(), by_group[g].end());
    std::sort(hosts.begin(), hosts.end());
    return ProbeCandidate{ProbeKind::Pair, std::move(groups), std::move(hosts)};
  };
  for (int g : present) out.push_back({ProbeKind::Group, {g}, by_group[g]});
  for (size_t i = 0; i + 1 < present.size(); i += 2) out.push_back(merged({present[i], present[i + 1]}));
  if (present.size() > 2) out.push_back(merged({present.front(), present.back()}));
  ProbeCandidate rails{ProbeKind::Rails, present, {}};
  for (int g : present) rails.hosts.push_back(by_group[g].front());
  std::sort(rails.hosts.begin(), rails.hosts.end());
  out.push_back(std::move(rails));
  out.push_back({ProbeKind::All, present, all});
  return out;
}

std::vector<std::string> probe_host_names(const Cluster& c, const std::vector<int>& hosts) {
  std::vector<std::string> out;
  for (int h : hosts) out.push_back(c.hosts[h].name);
  return out;
}

// "01" … "09", or three digits from 100 steps on: names sort in the order they run.
std::string probe_step_number(size_t i, size_t count) {
  const size_t width = std::max<size_t>(2, std::to_string(count).size());
  std::string n = std::to_string(i + 1);
  return std::string(width - n.size(), '0') + n;
}

std::string probe_step_name(const Cluster& c, const ProbeCandidate& p, const std::string& number) {
  std::string name = number + "-" + to_string(p.kind);
  if (p.kind == ProbeKind::Group || p.kind == ProbeKind::Pair)
    for (int g : p.groups) name += "-" + slurm_safe_name(c.groups[g].name);
  return name;
}

std::string probe_why(const ProbePlacement& p) {
  const std::string n = std::to_string(p.hosts.size()) + (p.hosts.size() == 1 ? " host" : " hosts");
  switch (p.kind) {
    case ProbeKind::Group:
      return "leaf group " + p.groups.front() + " alone (" + n + (p.hosts.size() == 1 ? ": NVLink and NCCL within the node" : "") + ")";
    case ProbeKind::Pair: return "groups " + p.groups[0] + " and " + p.groups[1] + " across the spines (" + n + ")";
    case ProbeKind::Rails: return "one host of each group: every rail through its spines (" + n + ")";
    case ProbeKind::All: return "every host of --nodes (" + n + ")";
  }
  return "";
}

// Blank-separated words of a command prefix ("apptainer exec --nv x.sif"), as /bin/sh splits
// collect's $3: no quoting inside it.
std::vector<std::string> probe_prefix_words(const std::string& prefix) {
  std::istringstream in(prefix);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::vector<std::string> probe_step_argv(const ProbeRequest& r, const ProbePlacement& p) {
  const int tasks = r.gpus_per_node > 0 ? r.gpus_per_node : 1;
  const std::string nodes = std::to_string(p.hosts.size());
  std::vector<std::string> a = {"srun", "--nodes=" + nodes, "--ntasks=" + std::to_string(p.hosts.size() * tasks),
                                "--ntasks-per-node=" + std::to_string(tasks)};
  if (r.gpus_per_node > 0) a.push_back("--gpus-per-node=" + std::to_string(r.gpus_per_node));
  if (!r.mpi.empty()) a.push_back("--mpi=" + r.mpi);
  a.insert(a.end(), {"-w", p.hostlist});
  if (!r.container_image.empty()) a.push_back("--container-image=" + r.container_image);
  a.push_back("--output=" + p.output);
  for (const auto& w : probe_prefix_words(r.container_exec)) a.push_back(w);
  a.push_back("env");
  a.insert(a.end(), kNcclEnv.begin(), kNcclEnv.end());
  a.push_back(r.all_reduce_perf);
  a.insert(a.end(), kAllReduceArgs.begin(), kAllReduceArgs.end());
  return a;
}

std::string probe_report_command(const ProbeRequest& r, const std::string& out_dir) {
  std::vector<std::string> a = {"slurmtopo", "report"};
  for (const auto& f : r.fabric_files) a.insert(a.end(), {"--fabric", absolute_path(f)});
  if (!r.name_map.empty()) a.insert(a.end(), {"--node-name-map", absolute_path(r.name_map)});
  if (!r.site_config.empty()) a.insert(a.end(), {"--config", absolute_path(r.site_config)});
  a.insert(a.end(), {"--measured", out_dir, "-o", out_dir + "/report.html"});
  return shell_join(a);
}

std::string probe_script(const ProbeRequest& r, const ProbePlan& plan) {
  const int tasks = r.gpus_per_node > 0 ? r.gpus_per_node : 1;
  std::string s = "#!/bin/sh\n";
  s += "# slurmtopo " + slurmtopo_version() + " probe: nccl-tests' all_reduce_perf on " +
       std::to_string(plan.placements.size()) + " placements that cover\n";
  s += "# the fabric's leaf groups, one step after another; each writes " + plan.out_dir + "/<step>.out\n";
  s += "# (its table and NCCL's INFO log). Submit it with sbatch; then read the results with\n";
  s += "#   " + probe_report_command(r, plan.out_dir) + "\n";
  s += "# (with --profile NAME or --nodes-dir DIR: the hardware each run is predicted on).\n";
  for (const auto& note : plan.notes) s += "# Note: " + note + "\n";
  s += "#SBATCH --job-name=" + std::string(kProbeJobName) + "\n";
  s += "#SBATCH --nodelist=" + compress_hostlist(plan.hosts) + "\n";
  s += "#SBATCH --nodes=" + std::to_string(plan.hosts.size()) + "\n";
  s += "#SBATCH --ntasks-per-node=" + std::to_string(tasks) + "\n";
  if (r.gpus_per_node > 0) s += "#SBATCH --gpus-per-node=" + std::to_string(r.gpus_per_node) + "\n";
  s += "#SBATCH --exclusive\n";
  if (!r.partition.empty()) s += "#SBATCH --partition=" + r.partition + "\n";
  if (!r.account.empty()) s += "#SBATCH --account=" + r.account + "\n";
  if (!r.time_limit.empty()) s += "#SBATCH --time=" + r.time_limit + "\n";
  s += "#SBATCH --output=" + std::string(kProbeJobName) + "-%j.log\n";
  s += "mkdir -p " + shell_quote(plan.out_dir) + "\n";
  for (const auto& p : plan.placements) {
    s += "# " + p.name + ": " + probe_why(p) + "\n";
    s += shell_join(probe_step_argv(r, p)) + " || true\n";
  }
  s += "printf '%s\\n' " + shell_quote("slurmtopo probe: done, each step's output is in " + plan.out_dir + "; next:") + " " +
       shell_quote("  " + probe_report_command(r, plan.out_dir)) + " " +
       shell_quote("  (with --profile NAME or --nodes-dir DIR: the hardware each run is predicted on)") + "\n";
  return s;
}

}  // namespace

const char* to_string(ProbeKind kind) {
  switch (kind) {
    case ProbeKind::Group: return "group";
    case ProbeKind::Pair: return "pair";
    case ProbeKind::Rails: return "rails";
    case ProbeKind::All: return "all";
  }
  return "?";
}

ProbePlan plan_probe(const Cluster& c, const ProbeRequest& r) {
  ProbePlan plan;
  const std::vector<int> hosts = probe_hosts(c, r.nodes);
  if (r.gpus_per_node < 0)
    throw InputError("--gpus-per-node", 0, "expected 0 (no GPU: one task per node) or more, got " +
                                               std::to_string(r.gpus_per_node));
  check_one_container(r.container_image, r.container_exec);
  if (r.all_reduce_perf.empty()) throw InputError("--all-reduce-perf", 0, "expected the all_reduce_perf to run");
  plan.out_dir = step_output_dir(r.out_dir, "the steps write their output into");
  plan.script_path = plan.out_dir + "/probe.sbatch";
  plan.hosts = probe_host_names(c, hosts);

  std::vector<std::vector<int>> by_group(c.groups.size());
  for (int h : hosts) by_group[c.hosts[h].group].push_back(h);
  std::vector<int> present;
  std::set<int> components;
  for (size_t g = 0; g < c.groups.size(); ++g)
    if (!by_group[g].empty()) present.push_back(static_cast<int>(g)), components.insert(c.groups[g].component);
  if (components.size() > 1)
    plan.notes.push_back("the groups are in " + std::to_string(components.size()) +
                         " unconnected parts of the fabric: a step spanning two uses no InfiniBand between them");

  std::vector<ProbeCandidate> kept;
  for (auto& p : probe_candidates(by_group, present, hosts)) {
    const bool same = std::any_of(kept.begin(), kept.end(), [&](const ProbeCandidate& k) { return k.hosts == p.hosts; });
    if (p.kind != ProbeKind::Group && p.hosts.size() < 2) {
      plan.notes.push_back(std::string("no ") + to_string(p.kind) + " step: it would have " +
                           std::to_string(p.hosts.size()) + " host");
    } else if (same) {
      plan.notes.push_back(std::string("no ") + to_string(p.kind) + " step: its hosts are an earlier step's");
    } else {
      kept.push_back(std::move(p));
    }
  }
  for (size_t i = 0; i < kept.size(); ++i) {
    ProbePlacement p;
    p.kind = kept[i].kind;
    p.name = probe_step_name(c, kept[i], probe_step_number(i, kept.size()));
    for (int g : kept[i].groups) p.groups.push_back(c.groups[g].name);
    p.hosts = probe_host_names(c, kept[i].hosts);
    p.hostlist = compress_hostlist(p.hosts);
    p.output = plan.out_dir + "/" + p.name + ".out";
    plan.placements.push_back(std::move(p));
  }
  plan.script = probe_script(r, plan);
  return plan;
}

void write_probe_script(const ProbePlan& plan) {
  std::error_code ec;
  std::filesystem::create_directories(plan.out_dir, ec);
  if (ec) throw InputError(plan.out_dir, 0, "cannot create the output directory: " + ec.message());
  // The manifest first: a script on disk always has the placements the report reads back.
  atomic_write((std::filesystem::path(plan.out_dir) / kProbeManifestName).string(), probe_manifest_json(plan));
  atomic_write(plan.script_path, plan.script);
}

std::string probe_written_text(const ProbePlan& plan) {
  std::string s = "slurmtopo probe: wrote " + plan.script_path + ": " + std::to_string(plan.placements.size()) +
                  " all_reduce_perf steps on " + std::to_string(plan.hosts.size()) + " hosts\n";
  for (const auto& p : plan.placements) s += "  " + p.name + "  " + p.hostlist + "\n";
  for (const auto& note : plan.notes) s += "note: " + note + "\n";
  s += "its placements: " + plan.out_dir + "/" + kProbeManifestName + " (report --measured reads them back)\n";
  s += "submit it with: sbatch " + shell_quote(plan.script_path) + "\n";
  return s;
}

}  // namespace slurmtopo

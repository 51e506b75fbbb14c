#include "emit/apply_plan.h"

#include <algorithm>
#include <chrono>
#include <fcntl.h>
#include <filesystem>
#include <set>
#include <sys/file.h>
#include <thread>
#include <unistd.h>

#include "base/atomic_write.h"
#include "base/exit_codes.h"
#include "base/files.h"
#include "base/input_error.h"
#include "base/text.h"
#include "emit/gres_emit.h"
#include "emit/node_file.h"
#include "emit/topology_diff.h"
#include "emit/topology_plan.h"
#include "emit/write_guard.h"
#include "slurm/gres_conf.h"
#include "slurm/hostlist.h"
#include "slurm/slurm_conf.h"

namespace slurmtopo {

namespace fs = std::filesystem;

const char* to_string(ApplyOutcome o) {
  switch (o) {
    case ApplyOutcome::Unchanged: return "unchanged";
    case ApplyOutcome::DryRun: return "dry-run";
    case ApplyOutcome::Applied: return "applied";
    case ApplyOutcome::Anomalies: return "anomalies";
    case ApplyOutcome::Refused: return "refused";
    case ApplyOutcome::RolledBack: return "rolled-back";
  }
  return "?";
}

long ApplyResult::total_anomalies() const {
  long n = 0;
  for (const auto& [kind, count] : anomalies) n += count;
  return n;
}

int ApplyResult::exit_code() const {
  switch (outcome) {
    case ApplyOutcome::Anomalies: return exit_code::kFails;
    case ApplyOutcome::Refused: return exit_code::kBadInput;
    case ApplyOutcome::RolledBack: return exit_code::kAttention;
    default: return exit_code::kOk;
  }
}

namespace {

// flock(2) on a file beside the ones applied: a second apply waits for the first.
class ApplyLock {
 public:
  explicit ApplyLock(const std::string& path) {
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) throw InputError(path, 0, "cannot create the apply lock file");
    while (::flock(fd_, LOCK_EX) != 0)
      if (errno != EINTR) throw InputError(path, 0, "cannot lock the apply lock file");
  }
  ~ApplyLock() { ::close(fd_); }
  ApplyLock(const ApplyLock&) = delete;
  ApplyLock& operator=(const ApplyLock&) = delete;

 private:
  int fd_ = -1;
};

struct Planned {
  AppliedFile file;
  std::string text;
  bool existed = false;
  std::string previous;
};

std::string first_issue(const std::vector<TopologyIssue>& issues) {
  if (issues.empty()) return "";
  const auto& i = issues.front();
  return (i.line ? "line " + std::to_string(i.line) + ": " : std::string()) + i.message;
}

ParsedTopology parse_current(const std::string& path, const std::string& text) {
  // A file in place that slurmctld cannot read is still replaced: compare against nothing.
  ParsedTopology parsed = parse_topology_conf(text, path);
  if (!parsed.errors.empty()) parsed.switches.clear();
  return parsed;
}

bool wait_until_up(SlurmControl& slurm, int seconds) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  for (;;) {
    if (slurm.ping()) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

// "" when slurmctld answers and shows every switch of `expected` and the attributes of every
// node of `nodes`; else what is wrong. slurmctld may take a moment to show the new node records.
// `topology`: the topology.conf written, if one was (nullptr: none); `members` says whether its
// switches were checked member by member (a control that cannot print the topology: names only).
std::string verify(SlurmControl& slurm, const std::vector<std::string>& expected, const ParsedTopology* topology,
                   const std::vector<NodeLine>& nodes, const TargetRelease& release, int seconds, bool& members) {
  members = false;
  if (!wait_until_up(slurm, seconds)) return "slurmctld does not answer `scontrol ping` after the reconfigure";
  std::optional<std::string> shown;
  if (topology && (shown = slurm.show_topology())) {
    members = true;
    // Every switch with exactly the nodes and children written: a reconfigure that left the
    // old topology in place (25.11 before 25.11.3 with power saving on) shows the old members
    // under the same switch names, which a check of the names alone lets through.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
    for (;;) {
      const std::string mismatch =
          shown ? topology_mismatch(*shown, *topology) : std::string("`scontrol show topology` did not answer");
      if (mismatch.empty()) break;
      if (std::chrono::steady_clock::now() >= deadline) {
        std::string why = "slurmctld does not hold the topology.conf written: " + mismatch;
        if (release.release == SlurmRelease{25, 11})
          why += " (25.11 before 25.11.3 keeps its topology on a reconfigure when power saving is on: restart "
                 "slurmctld to read the new file)";
        return why;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      shown = slurm.show_topology();
    }
  } else if (!expected.empty()) {
    const auto shown = slurm.switch_names();
    if (!shown) return "`scontrol show topology` did not answer";
    const std::set<std::string> have(shown->begin(), shown->end());
    std::vector<std::string> missing;
    for (const auto& s : expected)
      if (!have.count(s)) missing.push_back(s);
    if (!missing.empty())
      return "`scontrol show topology` lacks " + counted(missing.size(), "new switch", "new switches") + ": " +
             missing.front() + (missing.size() > 1 ? ", ..." : "");
  }
  if (nodes.empty()) return "";
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  for (;;) {
    const auto shown = slurm.show_nodes();
    const std::string mismatch = shown ? node_lines_mismatch(nodes, *shown) : "`scontrol show nodes` did not answer";
    if (mismatch.empty() || std::chrono::steady_clock::now() >= deadline) return mismatch;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

// The lines of `next` that `previous` lacks ("+ ...") and the other way round ("- ..."), in
// file order: enough to see what a gres.conf change is.
std::vector<std::string> line_changes(const std::string& previous, const std::string& next) {
  auto split = [](const std::string& t) {
    std::vector<std::string> lines;
    size_t at = 0;
    while (at < t.size()) {
      size_t nl = t.find('\n', at);
      if (nl == std::string::npos) nl = t.size();
      if (nl > at && t[at] != '#') lines.push_back(t.substr(at, nl - at));
      at = nl + 1;
    }
    return lines;
  };
  const std::vector<std::string> a = split(previous), b = split(next);
  const std::set<std::string> in_a(a.begin(), a.end()), in_b(b.begin(), b.end());
  std::vector<std::string> out;
  for (const auto& l : a)
    if (!in_b.count(l)) out.push_back("- " + l);
  for (const auto& l : b)
    if (!in_a.count(l)) out.push_back("+ " + l);
  return out;
}

ApplyResult apply_locked(const ApplyRequest& r, SlurmControl& slurm);

}  // namespace

ApplyResult apply(const ApplyRequest& r, SlurmControl& slurm) {
  try {
    return apply_locked(r, slurm);
  } catch (const InputError& e) {
    // Bad input (a fabric, slurm.conf or node file that cannot be read): nothing was changed.
    ApplyResult out;
    out.outcome = ApplyOutcome::Refused;
    out.reason = e.what();
    return out;
  }
}

namespace {

// Why the running slurmctld would not take the planned files, or nullopt. Also lists, in
// out.out_of_topology, the nodes it knows that no switch of the new topology names.
std::optional<std::string> running_cluster_refusal(const ApplyRequest& r, const std::vector<std::string>& running,
                                                   const std::set<std::string>& in_topology,
                                                   const std::vector<NodeLine>& node_lines,
                                                   const std::vector<std::string>& planned_nodes, SlurmControl& slurm,
                                                   ApplyResult& out) {
  const std::set<std::string> known(running.begin(), running.end());
  std::vector<std::string> unknown;
  for (const auto& n : in_topology)
    if (!known.count(n)) unknown.push_back(n);
  if (r.topology)
    for (const auto& n : running)
      if (!in_topology.count(n)) out.out_of_topology.push_back(n);
  if (!unknown.empty())
    return "the topology.conf names " + counted(unknown.size(), "node", "nodes") +
           " the running slurmctld does not know (" + compress_hostlist(unknown) +
           "): reconfigure slurmctld with the new slurm.conf first";
  if (!r.nodes) return std::nullopt;
  const bool gpus = std::any_of(node_lines.begin(), node_lines.end(), [](const NodeLine& l) { return !l.gres.empty(); });
  const auto gres_types = parse_node_conf(read_file(r.slurm_conf), r.slurm_conf).gres_types;
  if (auto refusal = node_change_refusal(running, planned_nodes, gres_types, gpus)) return refusal;
  const auto shown = slurm.show_nodes();
  return shown ? cpu_change_refusal(node_lines, *shown)
               : std::optional<std::string>("slurmctld does not answer `scontrol show nodes`: nothing changed");
}

ApplyResult apply_locked(const ApplyRequest& r, SlurmControl& slurm) {
  ApplyResult out;
  const fs::path conf(r.slurm_conf);
  const fs::path dir = conf.has_parent_path() ? conf.parent_path() : fs::path(".");
  ApplyLock lock((dir / ".slurmtopo-apply.lock").string());
  const std::string pending_path = (dir / ".slurmtopo-apply.pending").string();
  std::string pending;
  const bool unfinished = read_file_if_exists(pending_path, pending);

  const SlurmConf slurm_conf = load_slurm_conf(r.slurm_conf);
  std::vector<Planned> planned;
  std::vector<std::string> new_switches;
  ParsedTopology next_topology;  // the topology.conf planned, as slurmctld will read it
  std::set<std::string> in_topology;

  if (r.topology) {
    const Cluster cluster = load_cluster(r.inputs);
    for (const Anomaly& a : cluster.anomalies) {
      ++out.anomalies[to_string(a.kind)];
      out.degraded_links += a.kind == Anomaly::Kind::DegradedLink;
      out.missing_links += a.kind == Anomaly::Kind::MissingUplinks;
    }
    TopologyRequest tr;
    tr.command = r.command;
    tr.slurm_nodes = slurm_conf.nodes();
    const TopologyPlan plan = plan_topology(cluster, tr);
    if (!plan.check.ok()) {
      out.outcome = ApplyOutcome::Refused;
      out.reason = "slurmctld would not accept the topology.conf: " + first_issue(plan.check.errors);
      return out;
    }
    Planned p;
    p.file.what = "topology.conf";
    p.file.path = (dir / "topology.conf").string();
    p.text = plan.text;
    p.existed = read_file_if_exists(p.file.path, p.previous);
    next_topology = parse_topology_conf(plan.text, p.file.path);
    const ParsedTopology& next = next_topology;
    for (const auto& s : next.switches) {
      new_switches.push_back(s.name);
      in_topology.insert(s.nodes.begin(), s.nodes.end());
    }
    const TopologyDiff d = diff_topology(parse_current(p.file.path, p.previous), next);
    p.file.changed = !p.existed || p.previous != p.text;
    p.file.diff = d.lines;
    if (p.file.changed && p.existed && !r.dry_run) {
      if (auto refusal = shrink_refusal(d.old_nodes, d.dropped, "the fabric")) {
        out.outcome = ApplyOutcome::Refused;
        out.reason = p.file.path + ": " + *refusal;
        return out;
      }
    }
    if (!plan.in_slurm_not_fabric.empty())
      out.warnings.push_back(counted(plan.in_slurm_not_fabric.size(), "Slurm node", "Slurm nodes") +
                             " not in the fabric: " + compress_hostlist(plan.in_slurm_not_fabric));
    planned.push_back(std::move(p));
  }

  // gres.conf and the node lines come from one plan, checked together as slurmd would.
  std::optional<EmitGresResult> described;
  if (r.gres || r.nodes) {
    EmitGresRequest g;
    g.sources = r.node_sources;
    g.fabric = r.inputs;
    g.release = r.release;
    g.dev_dir = r.dev_dir;
    g.output = "-";
    g.command = r.command;
    described = emit_gres(g);
    if (described->refusal) {
      out.outcome = ApplyOutcome::Refused;
      out.reason = std::string(r.gres ? "gres.conf" : "the node lines") + ": " + *described->refusal;
      return out;
    }
    for (const auto& w : described->warnings) out.warnings.push_back(w);
  }
  if (r.gres) {
    Planned p;
    p.file.what = "gres.conf";
    p.file.path = (dir / "gres.conf").string();
    p.text = described->plan.gres_text;
    p.existed = read_file_if_exists(p.file.path, p.previous);
    p.file.changed = !p.existed || p.previous != p.text;
    if (p.file.changed) p.file.diff = line_changes(p.previous, p.text);
    planned.push_back(std::move(p));
  }
  std::vector<NodeLine> node_lines;  // what slurmctld must show once it read the new file
  std::vector<std::string> planned_nodes;
  if (r.nodes) {
    Planned p;
    p.file.what = "node lines";
    p.file.path = owned_node_file(slurm_conf, r.slurm_conf);
    p.existed = read_file_if_exists(p.file.path, p.previous);
    node_lines = with_kept_attributes(described->plan.node_lines, kept_node_attributes(p.previous, p.file.path));
    NodeLinesHeader header{r.command, release_line(r.release)};
    header.gres_types = false;
    p.text = render_node_lines(node_lines, header);
    p.file.changed = !p.existed || p.previous != p.text;
    if (p.file.changed) p.file.diff = line_changes(p.previous, p.text);
    for (const auto& l : node_lines)
      for (const auto& n : expand_hostlist(l.hostlist)) planned_nodes.push_back(n);
    planned.push_back(std::move(p));
  }

  for (const auto& p : planned) out.files.push_back(p.file);

  // The running cluster: every node a new file names must be one slurmctld knows. A dry run
  // writes nothing, so it goes on without a controller (a new cluster, a laptop) and says
  // which checks it could not make.
  const auto running = slurm.node_names();
  if (!running && !r.dry_run) {
    out.outcome = ApplyOutcome::Refused;
    out.reason = "slurmctld does not answer `scontrol show nodes`: nothing changed";
    return out;
  }
  if (!running) {
    out.warnings.push_back(
        "slurmctld does not answer `scontrol show nodes`: this dry run skipped the checks against the running "
        "controller (every node named is one it knows" +
        std::string(r.nodes ? "; no node added, removed or given fewer CPUs" : "") +
        "); a real apply makes them, and refuses if slurmctld is down");
    out.steps.push_back("skipped the checks against the running slurmctld: it does not answer");
  } else if (std::optional<std::string> refusal = running_cluster_refusal(r, *running, in_topology, node_lines,
                                                                          planned_nodes, slurm, out)) {
    out.outcome = ApplyOutcome::Refused;
    out.reason = *refusal;
    return out;
  }
  if (r.max_anomalies >= 0 && out.total_anomalies() > r.max_anomalies) {
    out.outcome = ApplyOutcome::Anomalies;
    out.reason = counted(out.total_anomalies(), "anomaly", "anomalies") + " in the fabric, more than --max-anomalies " +
                 std::to_string(r.max_anomalies) + ": nothing changed";
    return out;
  }

  bool any_change = unfinished;
  for (const auto& p : planned) any_change |= p.file.changed;
  if (!any_change) {
    out.outcome = ApplyOutcome::Unchanged;
    return out;
  }
  if (r.dry_run) {
    out.outcome = ApplyOutcome::DryRun;
    return out;
  }

  // From here on a kill leaves either the old or the new file (rename), and the marker says
  // the next apply must reconfigure and verify even if the files then look unchanged.
  if (unfinished) out.steps.push_back("an earlier apply stopped before verifying; finishing it");
  std::string marker;
  for (const auto& p : planned) marker += p.file.path + "\n";
  atomic_write(pending_path, marker);
  std::vector<const Planned*> written;
  for (const auto& p : planned) {
    if (!p.file.changed) continue;
    atomic_write(p.file.path, p.text);
    written.push_back(&p);
    out.steps.push_back("wrote " + p.file.path + (p.existed ? " (previous kept as " + p.file.path + ".bak)" : ""));
  }

  std::string failure = slurm.reconfigure();
  bool members_checked = false;
  if (failure.empty()) {
    out.reconfigured = true;
    out.steps.push_back("scontrol reconfigure");
    bool nodes_changed = false;
    for (const Planned* p : written) nodes_changed |= p->file.what == "node lines";
    bool topology_written = false;
    for (const Planned* p : written) topology_written |= p->file.what == "topology.conf";
    failure = verify(slurm, new_switches, topology_written ? &next_topology : nullptr,
                     nodes_changed ? node_lines : std::vector<NodeLine>{}, r.release, r.verify_seconds, members_checked);
  } else {
    failure = "scontrol reconfigure: " + failure;
  }
  if (failure.empty()) {
    out.steps.push_back("verified: slurmctld answers and shows " + counted(new_switches.size(), "switch", "switches") +
                        (members_checked ? " with the nodes and children written" : "") +
                        (node_lines.empty() ? "" : " and the nodes' attributes"));
    fs::remove(pending_path);
    out.outcome = ApplyOutcome::Applied;
    return out;
  }

  // Roll back: the previous files, then slurmctld reads them again.
  out.outcome = ApplyOutcome::RolledBack;
  out.reason = failure;
  for (const Planned* p : written) {
    if (p->existed) atomic_write(p->file.path, p->previous);
    else fs::remove(p->file.path);
    out.steps.push_back("restored " + p->file.path);
  }
  const std::string back = slurm.reconfigure();
  const bool up = wait_until_up(slurm, r.verify_seconds);
  if (back.empty() && up) {
    out.steps.push_back("scontrol reconfigure with the previous files: slurmctld answers");
  } else if (up) {
    out.steps.push_back("scontrol reconfigure with the previous files: " + back + " (slurmctld answers)");
  } else {
    out.steps.push_back("slurmctld does not answer even with the previous files: restart it (systemctl restart slurmctld)");
  }
  fs::remove(pending_path);
  return out;
}

}  // namespace

}  // namespace slurmtopo

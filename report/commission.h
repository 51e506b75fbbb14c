// `slurmtopo report`: the commissioning report — one model gathered from what the other
// commands compute (inspect's cluster and anomalies, the node join and classes, emit's plans
// and checks, simulate's predict()), with a verdict per check. Nothing here infers anything
// new about the fabric: every fact comes from graph/, emit/ or simulate/; this file only
// decides what each finding means for a handover (pass, warn, fail).
//   commission_plan.cc      gathers the model from the inputs
//   commission_checks.cc    the checks and their verdicts; the exit code
//   commission_drawing.cc   the fabric aggregated per group and level, anomalies placed on it
//   commission_links.cc     link health: per leaf capacity down and up, uplinks against peers;
//                           the cable ends the port counters name
//   commission_nodes.cc     per node class: the GPU↔NIC matrix, nearest NICs, NCCL_IB_HCA
//   commission_performance.cc  busbw curves from predict(); packed against spread from the what-if policies
//   commission_measured.cc  --measured runs against their predictions (simulate/measured/)
//   commission_baseline.cc  what changed since an earlier report's JSON
//   commission_json.cc, commission_markdown.cc, commission_html*.cc   the renderings
//   commission_write.cc     every rendering written atomically, the verdict lines
// The JSON schema: docs/report-json.md.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "base/exit_codes.h"
#include "base/version.h"  // the JSON report names its writer
#include "discover/node_set.h"
#include "graph/cluster_inputs.h"
#include "slurm/release.h"
#include "graph/finding_kind.h"
#include "simulate/measured/measured_findings.h"

namespace slurmtopo {

struct CommissionRequest {
  ClusterInputs inputs;       // --fabric, --node-name-map, --config
  NodeSources nodes;          // --nodes-dir / --node-class; both empty: no nodes section
  std::string node_hosts;     // --nodes: hosts that must all be described
  std::string slurm_conf;     // --slurm-conf: Slurm's nodes
  std::string topology;       // --topology: the topology.conf in service
  std::string profile;        // --profile: hardware for the predictions (else from the nodes)
  std::string baseline;       // --baseline: an earlier report's JSON
  TargetRelease release;      // cli: target_release(--slurm-version): what the Slurm files are for and checked by
  // Besides the tree topology.conf (always: it is the fabric's grouping, and the drawing's),
  // the topology file in the form the cluster runs, as `emit topology` takes them:
  std::string format = "conf";          // --format conf|yaml (topology.yaml: 25.05+)
  std::string plugin = "tree";          // --plugin tree|block (topology/block: 23.11+)
  std::string nvlink_domains;           // --nvlink-domains FILE|DIR: the blocks, else leaf groups
  std::string command;        // how the report was made (shown, and in the emitted headers)
  std::string cluster_name;   // --cluster-name; "" = slurm.conf's ClusterName, if any
  std::string measured;       // --measured DIR|FILE: nccl-tests runs and NCCL logs to compare
};

enum class Verdict { Pass, Warn, Fail };
const char* to_string(Verdict v);

// One finding, from the fabric (graph/anomalies), the nodes (graph/node_join) or the inputs
// taken together; its check and severity are its kind's declaration (graph/finding_kind.h).
struct Finding {
  std::string source;   // "fabric", "nodes" or "inputs"
  std::string kind;     // the anomaly kind as inspect prints it ("degraded-link")
  std::string subject;  // switch, cable, host or hostlist
  std::string detail;
  std::string check;    // the check it decides ("fabric.cabling")
  Severity severity = Severity::Warn;
  int count = 1;        // the things it is about (HCAs, hosts, cables)
  std::string key() const { return kind + "\t" + subject; }  // identity across reports
};
Finding make_finding(std::string source, const FindingKind& kind, std::string subject, std::string detail,
                     int count = 1);

struct Check {
  std::string id;       // stable: "fabric.cabling", "slurm.topology", ...
  std::string what;     // what was checked, one line
  std::string found;    // what was found, one line
  Verdict verdict = Verdict::Pass;
  int count = 0;        // findings behind the verdict
};

struct CountRow { std::string name; int count = 0; };

struct FabricSummary {
  std::string name, source;
  std::string captured;  // Fabric::captured: when, as the input records it; "" = not recorded
  int switches = 0, cas = 0, cables = 0, components = 0;
  bool partial = false;
};

struct Inventory {
  std::vector<FabricSummary> fabrics;
  std::vector<CountRow> switches_by_level;  // "leaf", "L2", ..., "off-path"
  std::vector<CountRow> switches_by_model;  // switch_model(): ASIC and part number
  int hcas = 0, unresolved_hcas = 0, hosts = 0, groups = 0, aggregation_nodes = 0, chassis = 0;
  std::vector<CountRow> rails;              // rail → leaves its HCAs land on
  std::vector<CountRow> node_classes;       // hostlist → hosts (nodes given)
};

// The drawing, aggregated: one box per Slurm switch (a group at level 1, a unit above), or per
// run of them when a level has more than kDrawingBoxes; edges count the cables between boxes.
struct DrawingBox {
  std::string label;      // "su1", "su1 … su32"
  std::string detail;     // hosts, leaves, members — the hover text
  int level = 1;
  int members = 0;        // Slurm switches it stands for
  int hosts = 0;
  std::vector<int> findings;  // indices into CommissionReport::findings placed here
};
struct DrawingEdge { int lower = 0, upper = 0; int cables = 0; int flagged = 0; };  // flagged: cable findings on it
struct Drawing {
  std::vector<std::vector<DrawingBox>> levels;  // [0] = leaves, upward
  std::vector<DrawingEdge> edges;               // box indices: (level, index) flattened per level
  std::vector<int> box_base;                    // first flattened index of each level
  std::vector<int> unplaced;                    // findings no box could hold
};
inline constexpr int kDrawingBoxes = 48;

struct LeafHealth {
  std::string leaf;
  std::string group;
  int host_ports = 0, uplinks = 0, peer_uplinks = 0;  // peer_uplinks: most common in its component
  double down_gbps = 0, up_gbps = 0;                  // sum of the cables' data rates, Gb/s
};

// One node class as the nodes section shows it (from its first host).
struct ClassNodes {
  std::string hostlist;
  std::string host;                                  // the representative
  std::string summary;                               // "8 GPUs h100, 10 RDMA NICs, 2 x 56 cores ..."
  std::vector<std::string> gpus, nics;               // column/row names: GPU0.., mlx5_0..
  std::vector<std::vector<std::string>> matrix;      // nvidia-smi topo -m: GPUs then NICs, X on the diagonal
  struct Gpu { int index = 0; std::string nic, path, link_layer, rail, leaves; int cores = 0; };
  std::vector<Gpu> per_gpu;
  std::string nccl_ib_hca;                           // "=mlx5_0,..." in GPU order
  std::string node_line;                             // the NodeName= line
};

struct Curve {
  std::string name;        // "one node (dgx001)", "one group (su1, 16 nodes)", "whole fabric (64 nodes)"
  int nodes = 0;
  double limit_gbs = 0;    // the physical limit of busbw for this placement
  std::string limit_what;  // "NVLink line rate", "NIC line rate per GPU"
  std::vector<double> bytes, busbw_gbs;
};

// What a job spread over leaves loses against one packed on a leaf, from the what-if policies
// (simulate/whatif/whatif_policies.h: the run `slurmtopo whatif -N SIZES --busy HOSTS` makes),
// each placement costed like the what-if's (simulate/collective/placement_costs.h).
struct PolicyPlacementRow {
  std::string policy;                 // "slurm", "no-topology", "best", "random"
  bool started = false;
  std::string reason;                 // why it cannot start
  std::string hostlist;
  int leaves = 0, groups = 0;         // of the emitted topology
  std::optional<double> busbw_gbs;    // nullopt: the placement cannot be simulated
  std::optional<double> loss;         // 1 − busbw / best's busbw (negative: a gain)
};
struct PolicyJob {
  int nodes = 0;
  std::vector<PolicyPlacementRow> policies;  // kPolicies' order
  // Indices into policies, -1 when none: "best" (the fewest leaves, the packed job), and the
  // costed policy spanning the most leaves (the spread one; first such in kPolicies' order).
  int packed = -1, spread = -1;
};
struct SpreadPacked {
  double bytes = 0;
  uint64_t seed = 1;                  // the random policy's
  std::string placed_with;            // what Slurm places with: "emitted topology.conf"
  std::string busy;                   // hosts held busy (named by a finding), hostlist
  std::vector<PolicyJob> jobs;        // one per job size: one group's hosts, then twice that
};

// What the performance section itself finds: the profile against the fabric (graph/finding_kind.h).
inline constexpr FindingKind kPerformanceFindingKinds[] = {
    {"profile-not-this-fabric", "performance.profile", Severity::Warn,
     "the hardware profile's NICs per node differ from the compute HCAs the fabric shows per host: predictions and "
     "limits use the fabric's count",
     "hosts"},
};

struct Performance {
  std::string profile, routing;
  std::vector<Curve> curves;
  std::optional<SpreadPacked> spread_packed;
  std::vector<std::string> warnings;
  int fabric_nics = 0;               // compute HCAs per host, most common over the predicted hosts
  std::string profile_mismatch;      // why the profile is not this fabric's hardware; "" when it is
  int mismatched_hosts = 0;          // hosts whose HCA count differs from the profile's NICs
};

// Measured against predicted (--measured; simulate/measured/measured_compare.h): every run read,
// each against the prediction on its hosts, with its evidence. Its findings are in
// CommissionReport::findings under performance.measured.
struct MeasuredSection {
  std::string source;                // the --measured path
  std::string profile, routing;
  std::vector<RunComparison> runs;   // file order
  std::vector<ProbeStep> probe_steps;  // a probe's directory (DIR/probe.json): each placement
  std::vector<std::string> warnings;
};

struct SlurmFile {
  std::string name;                  // "topology.conf", "topology.conf (topology/block)",
                                     // "topology.yaml", "gres.conf", "slurm.conf NodeName lines"
  std::string text;
  std::vector<std::string> errors, warnings;  // its validation, "line N: message"
  std::string check;                 // the check id its validation decides ("slurm.topology");
                                     // "" for a file no daemon checks alone (the NodeName lines)
  std::string checked_by;            // "slurmctld" or "slurmd"
};

// The cabling-plan section (--plan; graph/plan_check.h): per plan, its counts, a row per unit
// and per switch it names, and its findings.
struct PlanSwitchRow {
  std::string name;
  std::string unit;  // the leaf's group; "level N" above the leaves; "not in the fabric"
  int planned = 0, present = 0, findings = 0;
};
struct PlanUnitRow {
  std::string unit;
  int switches = 0, planned = 0, present = 0, findings = 0;
};
struct PlanSection {
  PlanSummary summary;
  std::vector<PlanUnitRow> units;        // units by name, then the levels above them, then the rest
  std::vector<PlanSwitchRow> switches;   // by unit, then name
  std::vector<int> findings;             // indices into CommissionReport::findings
};

struct BaselineDiff {
  std::string source;                          // the baseline file
  std::vector<int> new_findings;               // indices into findings
  std::vector<Finding> fixed;
  std::vector<int> still_open;
  std::vector<std::string> hosts_added, hosts_gone, cables_added, cables_gone;
};

struct CommissionReport {
  std::string command;
  std::string cluster;                         // the cluster's name; "" when no input names it
  std::string cluster_from;                    // "--cluster-name", "ClusterName in <slurm.conf>"
  std::vector<Check> checks;
  // Finding checks that apply although nothing may be found ("inputs.match" with node files,
  // "slurm.nodes" with slurm.conf): shown as a pass. The fabric checks always apply.
  std::set<std::string> applicable;
  Verdict verdict = Verdict::Pass;
  Inventory inventory;
  std::vector<Finding> findings;               // fabric ones (inspect's order), then nodes'
  Drawing drawing;
  std::vector<LeafHealth> leaves;
  // Port counters (--counters; graph/link_health.h): each input and how its ports met the
  // fabric, and each cable end with a counter above its threshold, as the cluster has them.
  // Both empty without --counters.
  std::vector<CounterSource> counter_sources;
  std::vector<CableEndHealth> cable_health;
  std::vector<PlanSection> plans;              // --plan inputs, in order; empty without --plan
  std::vector<ClassNodes> classes;
  std::vector<std::string> node_warnings;
  std::optional<Performance> performance;
  std::optional<MeasuredSection> measured;
  std::vector<SlurmFile> slurm;
  std::vector<std::string> topology_diff;      // against --topology
  std::string topology_in_service;             // its path, "" without --topology
  std::string topology_compared_with;          // the slurm[] file of the same plugin it is diffed with
  std::optional<BaselineDiff> baseline;
  std::vector<std::string> hosts;              // fabric hosts, Slurm node order (for the next baseline)
  std::vector<std::string> cables;             // "a/port - b/port", sorted

  // PASS 0, WARN 3, FAIL 4 (base/exit_codes.h): a script tells a warning from a failure.
  int exit_code() const {
    return verdict == Verdict::Pass ? exit_code::kOk : verdict == Verdict::Warn ? exit_code::kAttention : exit_code::kFails;
  }
};

// Throws InputError (exit 2, nothing written) for any unreadable or bad input.
CommissionReport plan_commission(const CommissionRequest& request);

// The verdicts: fills report.checks and report.verdict from the rest of the report.
void decide_checks(CommissionReport& report);

// Who made the report, of what, from inputs captured when: (label, value) rows every rendering
// shows alike: "cluster", one "fabric NAME" per fabric (its source and capture time, as the
// input records it), "slurmtopo" (the version). Nothing here reads a clock: same inputs, same rows.
std::vector<std::pair<std::string, std::string>> provenance(const CommissionReport& report);

// Renderings. Same report → same bytes.
std::string commission_json(const CommissionReport& report);
std::string commission_markdown(const CommissionReport& report);
std::string commission_html(const CommissionReport& report);

struct CommissionOutputs {
  std::string html, json, markdown;  // paths; "" = not written ("-" = stdout)
  std::string textfile;              // DIR: DIR/slurmtopo_report.prom (report_textfile.h)
  int64_t now = 0;                   // its timestamp (Unix time)
};
// InputError when none is asked for. Writes each requested rendering atomically (temp + rename, the previous file kept as .bak)
// and prints the verdict lines to `out`. Returns the exit code.
int write_commission(const CommissionReport& report, const CommissionOutputs& outputs, std::ostream& out);

// Reads an earlier report's JSON: its findings, hosts and cables. InputError on a file that is
// not one (wrong schema version, missing keys), naming the file and line.
struct BaselineFacts {
  std::vector<Finding> findings;
  std::vector<std::string> hosts, cables;
};
BaselineFacts read_baseline(const std::string& path);
BaselineDiff diff_baseline(const BaselineFacts& old, const CommissionReport& now, const std::string& source);

inline constexpr int kReportSchemaVersion = 3;

}  // namespace slurmtopo

// Internal to report/: the steps plan_commission() gathers the report from, one file each.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "discover/node_set.h"
#include "emit/gres_plan.h"
#include "graph/cluster.h"
#include "graph/finding_names.h"
#include "graph/node_join.h"
#include "graph/slurm_tree.h"
#include "report/commission.h"

namespace slurmtopo {

// commission_drawing.cc: boxes per Slurm switch (runs of them past kDrawingBoxes), cables
// counted between boxes, each finding placed on the boxes whose switches or hosts it names.
Drawing plan_drawing(const Cluster& cluster, const SlurmTree& tree, const std::vector<Finding>& findings);

// commission_links.cc: per leaf, down and up capacity and uplinks against its peers.
std::vector<LeafHealth> plan_leaf_health(const Cluster& cluster);
// Every cable as "a/port - b/port" (switch names, "host rail" for HCAs), sorted.
std::vector<std::string> cable_names(const Cluster& cluster);
// One row per CableEndHealth, as the page and the Markdown show them: the cable (this end first;
// "fabric: " before it with several fabrics), each counter above its threshold with its value
// ("SymbolErrorCounter 500 (+3.2/s)", "LinkDownedCounter at least 255" for one stuck at its
// maximum), where it was read ("file:line"; the source alone where it has no lines), and the
// worst severity of the findings those counters make (graph/link_health.h counter_finding).
struct CableHealthRow {
  std::string cable, counters, where;
  Severity severity = Severity::Info;
};
std::vector<CableHealthRow> cable_health_rows(const CommissionReport& report);

// commission_cabling_plan.cc: per --plan, its counts per unit and per switch, and which of
// `findings` are its own (fabric.plan findings, in the order the plans gave them).
std::vector<PlanSection> plan_cabling_sections(const Cluster& cluster, const std::vector<Finding>& findings);

// commission_nodes.cc: per node class, the nodes section's tables.
std::vector<ClassNodes> plan_class_nodes(const NodeSet& nodes, const NodeJoin& join, const GresPlan& gres);

// commission_performance.cc: busbw against size for one node, one group, the whole fabric,
// and spread against packed (the what-if policies); nullopt without a profile (neither
// --profile nor nodes). Hosts named by a finding are left out (a miscabled host cannot run
// the collective at all). With NVLink domains (`domains`, may be null) on a multi-node NVLink
// profile, also one domain and two: what a job gains inside a rack. Takes the cluster, which
// the what-if case keeps.
std::optional<Performance> plan_performance(Cluster cluster, const std::string& profile,
                                            const NodeSet* nodes, const NodeJoin* join,
                                            const std::vector<Finding>& findings, const NvlinkDomains* domains = nullptr);

// commission_measured.cc: every --measured run against its prediction, with the report's own
// profile (or the nodes'), the node findings of `join` and the cluster's cable findings as
// causes, and the NVLink domains (may be null) as NCCL's nodes on an NVL72 profile. Throws
// InputError for a bad file (the readers').
MeasuredSection plan_measured(const Cluster& cluster, const std::string& path, const std::string& profile,
                              const NodeSet* nodes, const NodeJoin* join, const NvlinkDomains* domains = nullptr);

// The page's parts (commission_html*.cc), each writing one <section>.
std::string html_escape(std::string_view text);
// A figure in an SVG drawing or chart: a coordinate, or a label's value (printf's `fmt`).
std::string svg_num(double v, const char* fmt = "%.1f");
// A table with a caption and a header row; cells are escaped. `cls` is the class of each row
// ("" for none), parallel to rows when not empty.
void html_table(std::ostream& out, const std::string& caption, const std::vector<std::string>& header,
                const std::vector<std::vector<std::string>>& rows, const std::vector<std::string>& cls = {});
std::string verdict_badge(Verdict v);
void html_verdict(const CommissionReport& r, std::ostream& out);
void html_inventory(const CommissionReport& r, std::ostream& out);
void html_drawing(const CommissionReport& r, std::ostream& out);
void html_links(const CommissionReport& r, std::ostream& out);
void html_cabling_plan(const CommissionReport& r, std::ostream& out);
void html_nodes(const CommissionReport& r, std::ostream& out);
void html_performance(const CommissionReport& r, std::ostream& out);
void html_measured(const CommissionReport& r, std::ostream& out);
void html_slurm(const CommissionReport& r, std::ostream& out);
void html_baseline(const CommissionReport& r, std::ostream& out);

}  // namespace slurmtopo

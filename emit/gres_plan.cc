#include "emit/gres_plan.h"

#include <unordered_map>

#include "emit/gres_compare.h"

namespace slurmtopo {

GresPlan plan_gres(const NodeSet& nodes, const GresRequest& request) {
  GresPlan plan;
  std::unordered_map<std::string, const NodeInventory*> by_name;  // classes list names
  for (const NodeInventory& n : nodes.nodes) by_name.emplace(n.hostname, &n);
  for (const NodeClass& c : nodes.classes) {
    const NodeInventory& model = nodes.nodes[c.representative];
    std::vector<const NodeInventory*> hosts{&model};  // the model first: node_line_for_class's rule
    for (const auto& name : c.hosts)
      if (auto it = by_name.find(name); it != by_name.end() && it->second != &model) hosts.push_back(it->second);
    plan.node_lines.push_back(node_line_for_class(hosts, c.hostlist));
    if (model.gpus.empty()) continue;
    plan.classes.push_back(gres_for_class(model, c.hostlist, request.version, request.dev_dir));
    for (const auto& note : plan.classes.back().notes) plan.notes.push_back(c.hostlist + ": " + note);
  }
  const std::string release =
      request.release_line.empty() ? "Slurm " + to_string(request.version) : request.release_line;
  plan.gres_text = render_gres_conf(plan.classes, {request.command, release});
  plan.nodes_text = render_node_lines(plan.node_lines, {request.command, release}, request.partitions);
  plan.check = check_gres(parse_gres_conf(plan.gres_text, "gres.conf"),
                          parse_node_conf(plan.nodes_text, "slurm.conf"), request.version);
  return plan;
}

GresCheck check_existing_gres(const std::string& gres_text, const std::string& gres_file, const GresPlan& plan,
                              SlurmRelease version) {
  const ParsedGres gres = parse_gres_conf(gres_text, gres_file);
  GresCheck check = check_gres(gres, parse_node_conf(plan.nodes_text, "slurm.conf (from the nodes)"), version);
  const std::vector<GresIssue> differ = compare_gres_with_nodes(gres, plan.classes, check.warnings);
  check.errors.insert(check.errors.end(), differ.begin(), differ.end());
  return check;
}

}  // namespace slurmtopo

#include "discover/plan_fabric.h"

#include <algorithm>
#include <map>

#include "base/input_error.h"
#include "discover/synthetic_fabric.h"

namespace slurmtopo {

namespace {

constexpr uint32_t kMellanoxVendor = 0x2c9;
constexpr uint64_t kSwitchGuidBase = 0xb83fd20300e00000;
constexpr uint64_t kHcaGuidBase = 0xb83fd20300f00000;

}  // namespace

Fabric fabric_from_plan(const CablePlan& plan, LinkSpeed speed) {
  struct Node {
    bool is_switch = false;
    std::string description;
    int max_port = 1;
    LinkSpeed fastest = LinkSpeed::Unknown;
    int line = 0;
  };
  std::vector<Node> nodes;
  std::map<std::string, int> index;  // switch name, or host + '\n' + HCA
  std::map<std::string, std::pair<bool, int>> roles;  // device → (a switch, the line that said so)
  auto node_of = [&](const PlanEnd& e, int line, int& port) -> int {
    std::string key = e.device, description = e.device;
    port = 0;
    if (e.switch_end) {
      port = std::stoi(e.port);
    } else {
      const auto [hca, p] = split_hca_port(e.port);
      port = p;
      key += "\n" + hca;
      if (!hca.empty()) description += " " + hca;
    }
    // One name, a switch here and a host there: the plan contradicts itself.
    auto [role, first] = roles.emplace(e.device, std::pair{e.switch_end, line});
    if (role->second.first != e.switch_end)
      throw InputError(plan.source, line, "expected " + e.device + " to be a switch or a host, not both (the other on line " +
                                              std::to_string(role->second.second) + ")");
    auto [it, fresh] = index.emplace(key, static_cast<int>(nodes.size()));
    if (fresh) nodes.push_back({e.switch_end, description, 1, LinkSpeed::Unknown, line});
    Node& n = nodes[it->second];
    n.max_port = std::max(n.max_port, port);
    return it->second;
  };

  Fabric f;
  f.name = "plan";
  f.source = "plan:" + plan.source;
  struct Cable {
    int a, a_port, b, b_port;
    int width;
    LinkSpeed speed;
  };
  std::vector<Cable> cables;
  for (const PlannedCable& c : plan.cables) {
    Cable cable{};
    cable.a = node_of(c.a, c.line, cable.a_port);
    cable.b = node_of(c.b, c.line, cable.b_port);
    cable.width = c.width ? c.width : 4;
    cable.speed = c.speed != LinkSpeed::Unknown ? c.speed : speed;
    for (int n : {cable.a, cable.b})
      if (lane_gbps(cable.speed) > lane_gbps(nodes[n].fastest)) nodes[n].fastest = cable.speed;
    cables.push_back(cable);
  }

  // Switches first, so LIDs come out switches first as OpenSM gives them.
  std::vector<uint64_t> guid(nodes.size());
  std::vector<uint16_t> lid(nodes.size());
  int switches = 0, hcas = 0;
  uint16_t next_lid = 1;
  for (bool want_switch : {true, false})
    for (size_t i = 0; i < nodes.size(); ++i) {
      const Node& n = nodes[i];
      if (n.is_switch != want_switch) continue;
      // The generators' models where the speed has one; elsewhere no device id (the model then
      // judges those cables against each other, as for unknown devices) and 36 ports.
      const SyntheticModel ids = synthetic_model(n.fastest).value_or(SyntheticModel{0, 0, 36});
      FabricNode node;
      node.kind = n.is_switch ? NodeKind::Switch : NodeKind::Ca;
      node.guid = node.sysimgguid = n.is_switch ? kSwitchGuidBase + 16 * uint64_t(switches++) : kHcaGuidBase + 16 * uint64_t(hcas++);
      node.description = n.description;
      node.num_ports = n.is_switch ? std::max(ids.switch_ports, n.max_port) : n.max_port;
      node.vendor_id = kMellanoxVendor;
      node.device_id = n.is_switch ? ids.switch_device : ids.hca_device;
      node.lid = next_lid <= 0xbfff ? next_lid++ : 0;
      guid[i] = node.guid;
      lid[i] = node.lid;
      f.nodes.push_back(std::move(node));
    }
  for (const Cable& c : cables) {
    Link l;
    auto end = [&](int n, int port) {
      // A ConnectX port carries the node GUID + port - 1; switch ports have none of their own.
      return LinkEnd{guid[n], port, nodes[n].is_switch ? 0 : guid[n] + uint64_t(port - 1), lid[n]};
    };
    l.a = end(c.a, c.a_port);
    l.b = end(c.b, c.b_port);
    l.width = c.width;
    l.speed = c.speed;
    f.links.push_back(l);
  }
  normalize(f);
  return f;
}

}  // namespace slurmtopo

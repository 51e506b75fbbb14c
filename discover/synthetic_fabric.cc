// The generators of synthetic fabrics. One file, past 400 lines, because the fat tree, the
// rail-optimized units and split_rail_planes all build on the Builder here (GUIDs, LIDs,
// ports, SHARP nodes) and on the names it gives: split_rail_planes finds a rail by the names
// generate_rail_optimized wrote, so the two must change together.
#include "discover/synthetic_fabric.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/input_error.h"

namespace slurmtopo {
namespace {

// One InfiniBand generation: the switch and HCA a cluster of that speed is built from.
struct Generation {
  LinkSpeed speed;
  const char* switch_part;
  int switch_ports;  // external ports at 4x; the SHARP port is one more
  bool splits;       // each 4x port splits into two 2x ports (HDR100, NDR200): twice the radix
  uint32_t switch_device;
  uint32_t hca_device;
  const char* hca_factory_description;  // what an HCA says before the host names it
};

constexpr Generation kGenerations[] = {
    {LinkSpeed::EDR, "MSB7800", 36, false, 0xcf08, 0x1017, "MT4119 ConnectX5   Mellanox Technologies"},
    {LinkSpeed::HDR, "MQM8700", 40, true, 0xd2f0, 0x101b, "MT4123 ConnectX6   Mellanox Technologies"},
    {LinkSpeed::NDR, "MQM9700", 64, true, 0xd2f2, 0x1021, "MT4129 ConnectX7   Mellanox Technologies"},
};

constexpr uint32_t kMellanoxVendor = 0x2c9;
constexpr uint32_t kAggregationNodeDevice = 0xcf09;
constexpr const char* kAggregationNodeDescription = "Mellanox Technologies Aggregation Node";
constexpr uint64_t kSwitchGuidBase = 0xb83fd20300a00000;
constexpr uint64_t kHcaGuidBase = 0xb83fd20300c00000;
constexpr int kMaxHcasPerHost = 16;  // the HCA GUID stride per host

// `option` is the `slurmtopo generate` option that sets the field at fault, so the admin's
// error names what to change.
void require(bool ok, const char* option, const std::string& why) {
  if (!ok) throw InputError(option, 0, why);
}

const Generation& generation_for(LinkSpeed speed) {
  for (const auto& g : kGenerations)
    if (g.speed == speed) return g;
  throw InputError("--speed", 0, std::string("no switch model for speed ") + to_string(speed) + " (use EDR, HDR or NDR)");
}

void require_width(int width) {
  require(width == 1 || width == 2 || width == 4 || width == 8 || width == 12, "--width", "expected 1, 2, 4, 8 or 12 lanes");
}

// A switch's external ports at a cable width: split 2x ports double the radix, which is how
// the largest single fabrics (and the 100,000-host generated one) are built.
int switch_ports_at(const Generation& g, int width) {
  return g.splits && width <= 2 ? 2 * g.switch_ports : g.switch_ports;
}

int ceil_div(int a, int b) { return (a + b - 1) / b; }

int digits(int n) { return static_cast<int>(std::to_string(n).size()); }

// "leaf" 7 of 40 → "leaf007": padded to the count's digits so names sort like numbers.
std::string numbered(const std::string& stem, int n, int count, int min_width) {
  std::string number = std::to_string(n);
  const int width = std::max(min_width, digits(count));
  return stem + std::string(std::max(0, width - static_cast<int>(number.size())), '0') + number;
}

// Accumulates switches, HCAs and cables by index; finish() turns them into a swept-looking
// Fabric. Kinds are numbered in separate passes so LIDs come out switches first.
class Builder {
 public:
  Builder(const Generation& gen, int width, LinkSpeed speed, int subnet)
      : gen_(gen), width_(width), speed_(speed), subnet_base_(uint64_t(subnet) << 24) {}

  int add_switch(const std::string& name) {
    FabricNode n;
    n.kind = NodeKind::Switch;
    n.guid = n.sysimgguid = kSwitchGuidBase + subnet_base_ + 16 * switch_count_++;
    n.description = "MF0;" + name + ":" + gen_.switch_part + "/U1";
    n.num_ports = switch_ports_at(gen_, width_) + 1;
    n.vendor_id = kMellanoxVendor;
    n.device_id = gen_.switch_device;
    return add(std::move(n));
  }

  int add_hca(const std::string& host, int host_index, int hca) {
    FabricNode n;
    n.kind = NodeKind::Ca;
    n.guid = n.sysimgguid = kHcaGuidBase + subnet_base_ + uint64_t{kMaxHcasPerHost} * host_index + hca;
    n.description = host + " mlx5_" + std::to_string(hca);
    n.num_ports = 1;
    n.vendor_id = kMellanoxVendor;
    n.device_id = gen_.hca_device;
    return add(std::move(n));
  }

  // Switch ports 1..N-1: port N is the internal SHARP port, which only finish() cables.
  void cable(int a, int a_port, int b, int b_port) {
    check_port(a, a_port);
    check_port(b, b_port);
    cables_.push_back({a, a_port, b, b_port});
  }

  Fabric finish(bool sharp, std::string name) {
    if (sharp) add_aggregation_nodes();
    assign_lids();
    Fabric f;
    f.source = "synthetic:" + name;
    f.name = std::move(name);
    f.links.reserve(cables_.size());
    for (const auto& c : cables_) {
      Link l;
      l.a = end(c.a, c.a_port);
      l.b = end(c.b, c.b_port);
      l.width = width_;
      l.speed = speed_;
      f.links.push_back(l);
    }
    f.nodes = std::move(nodes_);
    normalize(f);
    return f;
  }

 private:
  struct Cable {
    int a, a_port, b, b_port;
  };

  int add(FabricNode n) {
    nodes_.push_back(std::move(n));
    return static_cast<int>(nodes_.size()) - 1;
  }

  void check_port(int node, int port) const {
    const FabricNode& n = nodes_[node];
    const int last = n.kind == NodeKind::Switch ? n.num_ports - 1 : n.num_ports;
    if (port < 1 || port > last)
      throw std::logic_error("synthetic fabric: port " + std::to_string(port) +
                             " out of range on " + n.description);
  }

  void add_aggregation_nodes() {
    const size_t count = nodes_.size();
    for (size_t i = 0; i < count; ++i) {
      if (nodes_[i].kind != NodeKind::Switch) continue;
      FabricNode an;
      an.kind = NodeKind::Ca;
      an.guid = an.sysimgguid = nodes_[i].guid + 8;
      an.description = kAggregationNodeDescription;
      an.num_ports = 1;
      an.vendor_id = kMellanoxVendor;
      an.device_id = kAggregationNodeDevice;
      const int sw_ports = nodes_[i].num_ports;
      const int id = add(std::move(an));
      cables_.push_back({static_cast<int>(i), sw_ports, id, 1});
    }
  }

  // Switches, then HCAs, then aggregation nodes (added last), each in the order added.
  void assign_lids() {
    int next = 1;
    auto give = [&](FabricNode& n) { n.lid = next <= kMaxUnicastLid ? next++ : 0; };
    for (auto& n : nodes_)
      if (n.kind == NodeKind::Switch) give(n);
    for (auto& n : nodes_)
      if (n.kind != NodeKind::Switch) give(n);
  }

  LinkEnd end(int node, int port) const {
    const FabricNode& n = nodes_[node];
    // A ConnectX port 1 carries the node GUID; switch ports have no GUID of their own.
    return {n.guid, port, n.kind == NodeKind::Ca ? n.guid : 0, n.lid};
  }

  const Generation& gen_;
  int width_;
  LinkSpeed speed_;
  uint64_t subnet_base_;  // subnet << 24: GUIDs of another subnet, under the same vendor OUI
  int switch_count_ = 0;
  std::vector<FabricNode> nodes_;
  std::vector<Cable> cables_;
};

// Uplink j of every lower switch (ports first_up_port…) goes to upper j % uppers; each upper
// gives lower l the port block starting at first_down_port + l*block.
void wire_tier(Builder& b, const std::vector<int>& lowers, int first_up_port, int uplinks,
               const std::vector<int>& uppers, int first_down_port = 1) {
  const int n = static_cast<int>(uppers.size());
  const int block = ceil_div(uplinks, n);
  for (size_t l = 0; l < lowers.size(); ++l)
    for (int j = 0; j < uplinks; ++j)
      b.cable(lowers[l], first_up_port + j, uppers[j % n],
              first_down_port + static_cast<int>(l) * block + j / n);
}

// The fewest upper switches of `radix` ports that take `uplinks` cables from each lower one.
// `option` names what set `lowers` (--hosts, --scalable-units).
int fewest_uppers(int lowers, int uplinks, int radix, const char* option) {
  for (int n = 1; n <= uplinks; ++n)
    if (ceil_div(uplinks, n) * lowers <= radix) return n;
  throw InputError(option, 0, std::to_string(lowers) + " switches cannot share upper switches of radix " +
                                  std::to_string(radix));
}

std::string host_name(const std::string& prefix, int index, int hosts) {
  return numbered(prefix, index + 1, hosts, 3);
}

}  // namespace

std::vector<std::string> synthetic_speeds() {
  std::vector<std::string> out;
  for (const auto& g : kGenerations) out.push_back(to_string(g.speed));
  return out;
}

Fabric generate_fattree(const FatTreeSpec& spec) {
  const Generation& gen = generation_for(spec.speed);
  require(spec.levels == 2 || spec.levels == 3, "--levels", "expected 2 or 3 levels");
  require_width(spec.width);
  const int ports = switch_ports_at(gen, spec.width);
  require(spec.radix >= 2 && spec.radix <= ports, "--radix",
          "expected a radix of 2.." + std::to_string(ports) + " for " + gen.switch_part + " at " +
              std::to_string(spec.width) + "x" + (gen.splits && spec.width > 2 ? " (2x split ports: twice that)" : ""));
  require(spec.oversubscription > 0, "--oversubscription", "expected a positive down:up ratio");
  require(spec.cables_per_pair >= 1, "--cables-per-pair", "expected at least 1 cable per switch pair");
  require(spec.rails >= 1 && spec.rails <= kMaxHcasPerHost, "--rails", "expected 1..16 rails");
  require(spec.hosts >= 0, "--hosts", "expected 0 or more hosts");

  const int k = spec.radix;
  const double r = spec.oversubscription;
  const int down = static_cast<int>(std::lround(k * r / (r + 1)));
  const int up = k - down;
  require(down >= spec.rails && up >= 1, "--oversubscription", "oversubscription leaves no host or no uplink port");
  const int hosts_per_leaf = down / spec.rails;
  const int c = spec.cables_per_pair;
  // A 2-level tree is one "pod" whose uppers are the spines.
  const int pod_ports = spec.levels == 2 ? k : k / 2;
  const int leaves_per_pod = pod_ports / c;
  require(leaves_per_pod >= 1, "--cables-per-pair", "cables_per_pair exceeds what an upper switch can take");
  const int uppers_per_pod = ceil_div(up, c);
  const int max_pods = spec.levels == 2 ? 1 : k;
  const long long full = 1LL * max_pods * leaves_per_pod * hosts_per_leaf;
  const int hosts = spec.hosts ? spec.hosts : static_cast<int>(full);
  require(hosts <= full, "--hosts", std::to_string(hosts) + " hosts exceed the " + std::to_string(full) +
                             " of this " + std::to_string(spec.levels) + "-level tree");
  const int leaves = ceil_div(hosts, hosts_per_leaf);
  const int pods = ceil_div(leaves, leaves_per_pod);

  require(spec.subnet >= 0 && spec.subnet <= 255, "--subnet", "expected a subnet number 0..255");
  Builder b(gen, spec.width, spec.speed, spec.subnet);
  const std::string& sp = spec.switch_prefix;
  std::vector<int> leaf;
  for (int l = 0; l < leaves; ++l)
    leaf.push_back(b.add_switch(sp + numbered("leaf", l + 1, leaves, 3)));

  if (spec.levels == 2) {
    std::vector<int> spine;
    for (int s = 0; s < uppers_per_pod; ++s)
      spine.push_back(b.add_switch(sp + numbered("spine", s + 1, uppers_per_pod, 2)));
    wire_tier(b, leaf, down + 1, up, spine);
  } else {
    std::vector<std::vector<int>> agg(pods);  // agg[pod][j]
    for (int p = 0; p < pods; ++p) {
      const std::string pod = sp + numbered("pod", p + 1, pods, 2) + "-";
      for (int j = 0; j < uppers_per_pod; ++j)
        agg[p].push_back(b.add_switch(pod + numbered("agg", j + 1, uppers_per_pod, 2)));
      const auto first = leaf.begin() + p * leaves_per_pod;
      const std::vector<int> pod_leaves(
          first, first + std::min(leaves_per_pod, leaves - p * leaves_per_pod));
      wire_tier(b, pod_leaves, down + 1, up, agg[p]);
    }
    const int group = fewest_uppers(pods, k / 2, k, "--hosts");
    const int cores = uppers_per_pod * group;
    for (int j = 0; j < uppers_per_pod; ++j) {
      std::vector<int> core, aggs_j;
      for (int i = 0; i < group; ++i)
        core.push_back(b.add_switch(sp + numbered("core", j * group + i + 1, cores, 3)));
      for (int p = 0; p < pods; ++p) aggs_j.push_back(agg[p][j]);
      wire_tier(b, aggs_j, k / 2 + 1, k / 2, core);
    }
  }

  for (int h = 0; h < hosts; ++h) {
    const std::string name = host_name(spec.host_prefix, h, hosts);
    for (int rail = 0; rail < spec.rails; ++rail)
      b.cable(leaf[h / hosts_per_leaf], (h % hosts_per_leaf) * spec.rails + rail + 1,
              b.add_hca(name, h, rail), 1);
  }
  return b.finish(spec.sharp, "fattree-" + std::to_string(spec.levels) + "level-k" +
                                  std::to_string(k) + "-" + std::to_string(hosts) + "hosts");
}

Fabric generate_rail_optimized(const RailOptimizedSpec& spec) {
  const Generation& gen = generation_for(spec.speed);
  const int k = spec.radix;
  require_width(spec.width);
  const int ports = switch_ports_at(gen, spec.width);
  require(k >= 2 && k <= ports, "--radix",
          "expected a radix of 2.." + std::to_string(ports) + " for " + gen.switch_part + " at " +
              std::to_string(spec.width) + "x" + (gen.splits && spec.width > 2 ? " (2x split ports: twice that)" : ""));
  require(spec.scalable_units >= 1, "--scalable-units", "expected at least 1 scalable unit");
  require(spec.hosts_per_su >= 1 && 2 * spec.hosts_per_su <= k, "--hosts-per-su",
          "expected 1..radix/2 hosts per SU (a leaf needs as many uplinks as hosts)");
  require(spec.rails >= 1 && spec.rails + spec.storage_switch <= kMaxHcasPerHost, "--rails",
          "expected 1..16 rails (plus the storage HCA)");
  require(spec.spines_per_rail >= 0, "--spines-per-rail", "expected 0 or more spines per rail");

  const int sus = spec.scalable_units;
  const int per_su = spec.hosts_per_su;
  const int hosts = sus * per_su;
  const int up = per_su;
  const int spines = spec.spines_per_rail ? spec.spines_per_rail : fewest_uppers(sus, up, k, "--scalable-units");
  require(ceil_div(up, spines) * sus <= k, "--spines-per-rail", std::to_string(spines) +
                                               " spines per rail have too few ports for " +
                                               std::to_string(sus) + " SUs");

  require(spec.subnet >= 0 && spec.subnet <= 255, "--subnet", "expected a subnet number 0..255");
  Builder b(gen, spec.width, spec.speed, spec.subnet);
  std::vector<std::vector<int>> rail_leaves(spec.rails);  // [rail][su]
  for (int s = 0; s < sus; ++s)
    for (int r = 0; r < spec.rails; ++r)
      rail_leaves[r].push_back(
          b.add_switch("su" + std::to_string(s + 1) + "-rail" + std::to_string(r)));
  for (int r = 0; r < spec.rails; ++r) {
    std::vector<int> plane;
    for (int i = 0; i < spines; ++i)
      plane.push_back(
          b.add_switch("rail" + std::to_string(r) + "-" + numbered("spine", i + 1, spines, 2)));
    wire_tier(b, rail_leaves[r], per_su + 1, up, plane);
  }

  std::vector<int> stor_leaf;
  const int stor_per_leaf = k / 2;
  if (spec.storage_switch) {
    const int leaves = ceil_div(hosts, stor_per_leaf);
    const int stor_spines = fewest_uppers(leaves, stor_per_leaf, k, "--storage");
    for (int l = 0; l < leaves; ++l)
      stor_leaf.push_back(b.add_switch(numbered("stor-leaf", l + 1, leaves, 2)));
    std::vector<int> stor_spine;
    for (int i = 0; i < stor_spines; ++i)
      stor_spine.push_back(b.add_switch(numbered("stor-spine", i + 1, stor_spines, 2)));
    wire_tier(b, stor_leaf, stor_per_leaf + 1, stor_per_leaf, stor_spine);
  }

  for (int h = 0; h < hosts; ++h) {
    const std::string name = host_name(spec.host_prefix, h, hosts);
    for (int r = 0; r < spec.rails; ++r)
      b.cable(rail_leaves[r][h / per_su], h % per_su + 1, b.add_hca(name, h, r), 1);
    if (spec.storage_switch)
      b.cable(stor_leaf[h / stor_per_leaf], h % stor_per_leaf + 1, b.add_hca(name, h, spec.rails),
              1);
  }
  return b.finish(spec.sharp, "rail-optimized-" + std::to_string(sus) + "su-" +
                                  std::to_string(per_su) + "x" + std::to_string(spec.rails));
}

std::vector<Fabric> split_rail_planes(const Fabric& fabric, const RailOptimizedSpec& spec, int planes) {
  require(planes >= 1 && spec.rails % planes == 0, "--planes",
          std::to_string(spec.rails) + " rails do not divide into " + std::to_string(planes) + " planes");
  require(!spec.storage_switch || planes == 1, "--planes", "a storage tier belongs to no rail plane (leave out --storage)");
  // Rail r's switches are su<s>-rail<r> and rail<r>-spineNN, its HCAs "<host> mlx5_<r>"; a SHARP
  // node belongs to its switch's plane.
  auto rail_of_name = [](const std::string& d, const std::string& key) -> int {
    const size_t at = d.find(key);
    if (at == std::string::npos) return -1;
    size_t end = at + key.size();
    while (end < d.size() && std::isdigit(static_cast<unsigned char>(d[end]))) ++end;
    return end > at + key.size() ? std::stoi(d.substr(at + key.size(), end - at - key.size())) : -1;
  };
  const int per_plane = spec.rails / planes;
  std::vector<int> plane_of(fabric.nodes.size(), -1);
  for (size_t i = 0; i < fabric.nodes.size(); ++i) {
    const FabricNode& n = fabric.nodes[i];
    int rail = n.kind == NodeKind::Switch ? rail_of_name(n.description, "rail") : rail_of_name(n.description, " mlx5_");
    if (rail >= 0) plane_of[i] = rail / per_plane;
  }
  auto index_of = [&](uint64_t guid) { return static_cast<size_t>(fabric.find(guid) - fabric.nodes.data()); };
  for (const auto& l : fabric.links)  // aggregation nodes follow their switch
    for (auto [x, y] : {std::pair{l.a.guid, l.b.guid}, std::pair{l.b.guid, l.a.guid}})
      if (plane_of[index_of(x)] < 0) plane_of[index_of(x)] = plane_of[index_of(y)];
  std::vector<Fabric> out(planes);
  for (int p = 0; p < planes; ++p) {
    out[p].name = fabric.name + "-plane" + std::to_string(p + 1);
    out[p].source = fabric.source + "-plane" + std::to_string(p + 1);
  }
  for (size_t i = 0; i < fabric.nodes.size(); ++i)
    if (plane_of[i] >= 0) out[plane_of[i]].nodes.push_back(fabric.nodes[i]);
  for (const auto& l : fabric.links)
    if (int p = plane_of[index_of(l.a.guid)]; p >= 0) out[p].links.push_back(l);
  for (auto& f : out) normalize(f);
  return out;
}

std::optional<SyntheticModel> synthetic_model(LinkSpeed speed) {
  for (const auto& g : kGenerations)
    if (g.speed == speed) return SyntheticModel{g.switch_device, g.hca_device, g.switch_ports};
  return std::nullopt;
}

const char* synthetic_factory_description(uint32_t hca_device) {
  for (const auto& g : kGenerations)
    if (g.hca_device == hca_device) return g.hca_factory_description;
  return kGenerations[std::size(kGenerations) - 1].hca_factory_description;
}

bool is_synthetic_host_hca(const FabricNode& n) {
  return n.kind == NodeKind::Ca && n.description != kAggregationNodeDescription;
}

}  // namespace slurmtopo

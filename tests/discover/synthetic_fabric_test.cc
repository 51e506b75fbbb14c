#include "discover/synthetic_fabric.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "base/input_error.h"
#include "discover/ibnetdiscover_text.h"
#include "discover/ibnetdiscover_writer.h"

using namespace slurmtopo;

namespace {

constexpr const char* kAggregationNode = "Mellanox Technologies Aggregation Node";

bool is_aggregation_node(const FabricNode& n) { return n.description == kAggregationNode; }

int switches(const Fabric& f) {
  return static_cast<int>(std::count_if(f.nodes.begin(), f.nodes.end(), [](const FabricNode& n) {
    return n.kind == NodeKind::Switch;
  }));
}

int hcas(const Fabric& f) {
  return static_cast<int>(std::count_if(f.nodes.begin(), f.nodes.end(), [](const FabricNode& n) {
    return n.kind == NodeKind::Ca && !is_aggregation_node(n);
  }));
}

// A switch by its name, an HCA by its full description.
const FabricNode& node(const Fabric& f, const std::string& name) {
  for (const auto& n : f.nodes)
    if (n.description == name || n.description.rfind("MF0;" + name + ":", 0) == 0) return n;
  FAIL("no node " << name);
  throw std::logic_error("unreachable");
}

bool has_node(const Fabric& f, const std::string& name) {
  return std::any_of(f.nodes.begin(), f.nodes.end(), [&](const FabricNode& n) {
    return n.description == name || n.description.rfind("MF0;" + name + ":", 0) == 0;
  });
}

// (peer GUID, local port) of every cable at a node.
std::vector<std::pair<uint64_t, int>> cables_at(const Fabric& f, uint64_t guid) {
  std::vector<std::pair<uint64_t, int>> out;
  for (const auto& l : f.links) {
    if (l.a.guid == guid) out.emplace_back(l.b.guid, l.a.port);
    if (l.b.guid == guid) out.emplace_back(l.a.guid, l.b.port);
  }
  return out;
}

int cables_between(const Fabric& f, const std::string& a, const std::string& b) {
  const uint64_t peer = node(f, b).guid;
  const auto at = cables_at(f, node(f, a).guid);
  return static_cast<int>(
      std::count_if(at.begin(), at.end(), [&](auto& c) { return c.first == peer; }));
}

// Where an HCA is cabled: (switch name, switch port).
std::pair<std::string, int> attachment(const Fabric& f, const std::string& hca) {
  const uint64_t guid = node(f, hca).guid;
  std::vector<std::pair<std::string, int>> out;
  for (const auto& l : f.links)
    if (const LinkEnd* sw = l.a.guid == guid ? &l.b : l.b.guid == guid ? &l.a : nullptr) {
      const std::string& d = f.find(sw->guid)->description;
      out.emplace_back(d.substr(4, d.find(':') - 4), sw->port);
    }
  REQUIRE(out.size() == 1);
  return out[0];
}

// "leaf", 7, 3 → "leaf007".
std::string padded(const std::string& stem, int n, int width) {
  const std::string number = std::to_string(n);
  return stem + std::string(std::max<int>(0, width - number.size()), '0') + number;
}

// Every HCA "<prefix><host> mlx5_<i>" is where expect(host, i) says: (switch name, port).
template <class Expect>
void check_every_hca(const Fabric& f, const std::string& prefix, Expect expect) {
  for (const auto& n : f.nodes) {
    if (n.kind != NodeKind::Ca || is_aggregation_node(n)) continue;
    const size_t space = n.description.find(' ');
    const int host = std::stoi(n.description.substr(prefix.size(), space - prefix.size()));
    const int hca = std::stoi(n.description.substr(space + std::string(" mlx5_").size()));
    CHECK_MESSAGE(attachment(f, n.description) == expect(host, hca), n.description);
  }
}

// Up and down cable counts of a leaf: down = to HCAs (not the SHARP node), up = to switches.
std::pair<int, int> leaf_down_up(const Fabric& f, const std::string& leaf) {
  int down = 0, up = 0;
  for (auto [peer, port] : cables_at(f, node(f, leaf).guid)) {
    const FabricNode* n = f.find(peer);
    if (n->kind == NodeKind::Switch)
      ++up;
    else if (!is_aggregation_node(*n))
      ++down;
  }
  return {down, up};
}

// Every cable end is on a real port of its node, and no port carries two cables.
void check_ports(const Fabric& f) {
  std::set<std::pair<uint64_t, int>> used;
  for (const auto& l : f.links)
    for (const LinkEnd& e : {l.a, l.b}) {
      const FabricNode* n = f.find(e.guid);
      REQUIRE(n != nullptr);
      CHECK(e.port >= 1);
      CHECK(e.port <= n->num_ports);
      CHECK_MESSAGE(used.insert({e.guid, e.port}).second, n->description << " port " << e.port);
    }
}

std::string dump(const Fabric& f) {
  std::ostringstream out;
  write_ibnetdiscover_text(f, out);
  return out.str();
}

}  // namespace

TEST_CASE("2-level full tree: k*k/2 hosts on k leaves under k/2 spines") {
  // k=8: a leaf has 4 host ports and 4 uplinks (one per spine, so 4 spines); a spine's 8 ports
  // take one cable from each of 8 leaves; 8 leaves * 4 hosts = 32 = k*k/2.
  // Cables: one per host plus 8 leaves * 4 uplinks.
  FatTreeSpec spec;
  spec.radix = 8;
  const Fabric f = generate_fattree(spec);
  CHECK(hcas(f) == 32);
  CHECK(switches(f) == 8 + 4);
  CHECK(f.links.size() == 32 + 8 * 4);
  CHECK(has_node(f, "leaf008"));
  CHECK(has_node(f, "spine04"));
  CHECK(cables_between(f, "leaf008", "spine04") == 1);
  check_ports(f);

  // k=64: 64 leaves * 32 hosts = 2048 hosts, 32 spines (the ibsim reference's 96-switch fabric).
  const Fabric big = generate_fattree(FatTreeSpec{});
  CHECK(hcas(big) == 2048);
  CHECK(switches(big) == 64 + 32);
  CHECK(big.links.size() == 2048 + 64 * 32);
  check_ports(big);
}

TEST_CASE("partially populated 2-level tree builds only the leaves it needs") {
  // 512 hosts / 32 per leaf = 16 leaves; every leaf still reaches all 32 spines.
  FatTreeSpec spec;
  spec.hosts = 512;
  const Fabric f = generate_fattree(spec);
  CHECK(switches(f) == 16 + 32);
  CHECK(f.links.size() == 512 + 16 * 32);

  // 100 hosts: 4 leaves, the last with 100 - 3*32 = 4 hosts; names pad to 3 digits.
  spec.hosts = 100;
  const Fabric g = generate_fattree(spec);
  CHECK(switches(g) == 4 + 32);
  CHECK(leaf_down_up(g, "leaf004") == std::pair{4, 32});
  CHECK(attachment(g, "gpu100 mlx5_0") == std::pair<std::string, int>{"leaf004", 4});
  // Host h (from 1) is on leaf (h-1)/32 + 1, port (h-1)%32 + 1.
  check_every_hca(g, "gpu", [](int h, int) {
    return std::pair{padded("leaf", (h - 1) / 32 + 1, 3), (h - 1) % 32 + 1};
  });
  check_ports(g);
}

TEST_CASE("3-level k-ary tree") {
  // k=8: 8 pods of 4 leaves and 4 aggregation switches, (k/2)^2 = 16 cores; 8^3/4 = 128 hosts.
  // Cables: 128 hosts + 32 leaves * 4 up + 32 aggregation switches * 4 up.
  FatTreeSpec spec;
  spec.levels = 3;
  spec.radix = 8;
  const Fabric f = generate_fattree(spec);
  CHECK(hcas(f) == 128);
  CHECK(switches(f) == 32 + 32 + 16);
  CHECK(f.links.size() == 128 + 32 * 4 + 32 * 4);
  check_ports(f);
  // Aggregation switch j of every pod reaches cores 4j+1 .. 4j+4, one cable each; so a core
  // has exactly one cable to each of the 8 pods.
  CHECK(cables_between(f, "pod01-agg02", "core005") == 1);
  CHECK(cables_between(f, "pod08-agg02", "core008") == 1);
  CHECK(cables_between(f, "pod01-agg02", "core004") == 0);
  CHECK(cables_at(f, node(f, "core016").guid).size() == 8);
  // Leaves are numbered across pods: leaf005 is the first leaf of pod 2.
  CHECK(cables_between(f, "leaf005", "pod02-agg01") == 1);
  CHECK(cables_between(f, "leaf005", "pod01-agg01") == 0);

  // k=32 full: 5*32*32/4 = 1280 switches, 32^3/4 = 8192 hosts (the ibsim reference's size).
  spec.radix = 32;
  const Fabric big = generate_fattree(spec);
  CHECK(switches(big) == 1280);
  CHECK(hcas(big) == 8192);
}

TEST_CASE("split 2x ports double an HDR or NDR switch's radix — EDR does not split") {
  // MQM9700: 64 NDR ports, or 128 NDR200 (2x) ports with split cables.
  FatTreeSpec spec;
  spec.levels = 2;
  spec.radix = 128;
  spec.width = 2;
  spec.hosts = 200;
  const Fabric f = generate_fattree(spec);
  CHECK(hcas(f) == 200);
  for (const auto& n : f.nodes)
    if (n.kind == NodeKind::Switch) CHECK(n.num_ports == 128 + 1);  // + the SHARP port
  check_ports(f);
  for (const auto& l : f.links) CHECK(l.width == 2);
  spec.width = 4;
  CHECK_THROWS_WITH_AS(generate_fattree(spec), "--radix: expected a radix of 2..64 for MQM9700 at 4x (2x split ports: twice that)",
                       InputError);
  spec.width = 2;
  spec.speed = LinkSpeed::EDR;
  spec.radix = 72;
  CHECK_THROWS_WITH_AS(generate_fattree(spec), "--radix: expected a radix of 2..36 for MSB7800 at 2x", InputError);
}

TEST_CASE("partial 3-level tree keeps pods whole above the leaves and shrinks the core") {
  // k=8, 40 hosts: 10 leaves of 4 hosts in pods of 4 leaves → 3 pods (4, 4, 2 leaves), each
  // with 4 aggregation switches. A core group must take 4 uplinks from each of 3 pods on 8
  // ports: 1 core would need 12 ports, 2 cores need 2*3 = 6 each → 2 cores per group, 8 cores.
  FatTreeSpec spec;
  spec.levels = 3;
  spec.radix = 8;
  spec.hosts = 40;
  const Fabric f = generate_fattree(spec);
  CHECK(hcas(f) == 40);
  CHECK(switches(f) == 10 + 12 + 8);
  CHECK(f.links.size() == 40 + 10 * 4 + 12 * 4);
  CHECK(cables_between(f, "pod03-agg04", "core008") == 2);
  check_every_hca(f, "gpu", [](int h, int) {
    return std::pair{padded("leaf", (h - 1) / 4 + 1, 3), (h - 1) % 4 + 1};
  });
  check_ports(f);
}

TEST_CASE("oversubscribed leaves have fewer uplinks") {
  // k=12 at 2:1: down = round(12*2/3) = 8, up = 4 → 4 spines, 12 leaves, 96 hosts.
  FatTreeSpec spec;
  spec.radix = 12;
  spec.oversubscription = 2.0;
  const Fabric f = generate_fattree(spec);
  CHECK(hcas(f) == 12 * 8);
  CHECK(switches(f) == 12 + 4);
  for (int l = 1; l <= 12; ++l) CHECK(leaf_down_up(f, padded("leaf", l, 3)) == std::pair{8, 4});
  check_ports(f);

  // k=64 at 3:1: 48 down, 16 up → 16 spines, 64 leaves * 48 hosts.
  spec.radix = 64;
  spec.oversubscription = 3.0;
  const Fabric g = generate_fattree(spec);
  CHECK(hcas(g) == 64 * 48);
  CHECK(switches(g) == 64 + 16);
  for (int l = 1; l <= 64; ++l) CHECK(leaf_down_up(g, padded("leaf", l, 3)) == std::pair{48, 16});
}

TEST_CASE("parallel cables between a leaf and each spine") {
  // k=8, 2 cables per pair: 4 uplinks reach 4/2 = 2 spines; a spine's 8 ports serve 8/2 = 4
  // leaves; 4 leaves * 4 hosts = 16 hosts.
  FatTreeSpec spec;
  spec.radix = 8;
  spec.cables_per_pair = 2;
  const Fabric f = generate_fattree(spec);
  CHECK(hcas(f) == 16);
  CHECK(switches(f) == 4 + 2);
  CHECK(cables_between(f, "leaf003", "spine02") == 2);
  check_ports(f);
}

TEST_CASE("several rails of a host share the host's leaf") {
  // k=8, 2 rails: a leaf's 4 host ports serve 2 hosts; 8 leaves * 2 = 16 hosts, 32 HCAs.
  FatTreeSpec spec;
  spec.radix = 8;
  spec.rails = 2;
  const Fabric f = generate_fattree(spec);
  CHECK(hcas(f) == 32);
  CHECK(attachment(f, "gpu003 mlx5_0") == std::pair<std::string, int>{"leaf002", 1});
  CHECK(attachment(f, "gpu003 mlx5_1") == std::pair<std::string, int>{"leaf002", 2});
  CHECK(attachment(f, "gpu016 mlx5_1") == std::pair<std::string, int>{"leaf008", 4});
  // Host h's HCA i: leaf (h-1)/2 + 1, port ((h-1)%2)*2 + i + 1.
  check_every_hca(f, "gpu", [](int h, int i) {
    return std::pair{padded("leaf", (h - 1) / 2 + 1, 3), (h - 1) % 2 * 2 + i + 1};
  });
}

TEST_CASE("rail-optimized SuperPOD") {
  // 4 SUs * 8 rails = 32 leaves; a rail plane joins 4 leaves * 32 uplinks = 128 cables on
  // 64-port spines → 2 spines per rail, 16 in all (the DGX H100 SuperPOD's 32 + 16 switches).
  // Cables: 128 hosts * 8 HCAs + 32 leaves * 32 uplinks.
  const Fabric f = generate_rail_optimized(RailOptimizedSpec{});
  CHECK(hcas(f) == 128 * 8);
  CHECK(switches(f) == 32 + 16);
  CHECK(f.links.size() == 1024 + 32 * 32);
  check_ports(f);
  // Host n of SU s is on port n of every rail leaf of SU s.
  CHECK(attachment(f, "dgx001 mlx5_0") == std::pair<std::string, int>{"su1-rail0", 1});
  CHECK(attachment(f, "dgx033 mlx5_7") == std::pair<std::string, int>{"su2-rail7", 1});
  CHECK(attachment(f, "dgx128 mlx5_3") == std::pair<std::string, int>{"su4-rail3", 32});
  CHECK(leaf_down_up(f, "su3-rail5") == std::pair{32, 32});
  CHECK(cables_between(f, "su3-rail5", "rail5-spine02") == 16);
  CHECK(cables_between(f, "su3-rail5", "rail4-spine02") == 0);
  check_every_hca(f, "dgx", [](int h, int i) {
    return std::pair{"su" + std::to_string((h - 1) / 32 + 1) + "-rail" + std::to_string(i),
                     (h - 1) % 32 + 1};
  });
}

TEST_CASE("storage tier is a separate fat tree of every host's extra HCA") {
  // 128 storage HCAs on 32-host storage leaves → 4 leaves with 32 uplinks; 4*32 = 128 cables
  // on 64-port spines → 2 storage spines.
  RailOptimizedSpec spec;
  spec.storage_switch = true;
  const Fabric f = generate_rail_optimized(spec);
  CHECK(hcas(f) == 128 * 9);
  CHECK(switches(f) == 48 + 4 + 2);
  CHECK(f.links.size() == 2048 + 128 + 4 * 32);
  CHECK(attachment(f, "dgx040 mlx5_8") == std::pair<std::string, int>{"stor-leaf02", 8});
  CHECK(cables_between(f, "stor-leaf04", "stor-spine01") == 16);
  check_every_hca(f, "dgx", [](int h, int i) {
    const std::string leaf =
        i == 8 ? padded("stor-leaf", (h - 1) / 32 + 1, 2)
               : "su" + std::to_string((h - 1) / 32 + 1) + "-rail" + std::to_string(i);
    return std::pair{leaf, (h - 1) % 32 + 1};
  });
  check_ports(f);
}

TEST_CASE("SHARP aggregation node on every switch's internal last port") {
  FatTreeSpec spec;
  spec.radix = 8;
  spec.sharp = true;
  for (const auto& [speed, expected_ports] : {std::pair{LinkSpeed::NDR, 65}, std::pair{LinkSpeed::HDR, 41}}) {
    const int ports = expected_ports;  // a plain variable: clang 14 cannot capture a structured binding
    spec.speed = speed;
    const Fabric f = generate_fattree(spec);
    int aggregation_nodes = 0;
    for (const auto& n : f.nodes) {
      if (n.kind != NodeKind::Switch) continue;
      CHECK(n.num_ports == ports);
      const auto at = cables_at(f, n.guid);
      const auto an =
          std::find_if(at.begin(), at.end(), [&](auto& c) { return c.second == ports; });
      REQUIRE(an != at.end());
      CHECK(is_aggregation_node(*f.find(an->first)));
      CHECK(an->first == n.guid + 8);  // as Quantum ASICs number it
      ++aggregation_nodes;
    }
    CHECK(aggregation_nodes == 12);
    CHECK(static_cast<int>(f.nodes.size()) == 32 + 12 + 12);
    check_ports(f);
  }
  spec.sharp = false;
  CHECK(generate_fattree(spec).nodes.size() == 32 + 12);
}

TEST_CASE("GUIDs, LIDs and descriptions look like a swept subnet") {
  FatTreeSpec spec;
  spec.radix = 8;
  spec.rails = 2;
  spec.sharp = true;
  const Fabric f = generate_fattree(spec);
  const FabricNode& leaf = node(f, "leaf001");
  CHECK(leaf.guid == 0xb83fd20300a00000);
  CHECK(leaf.description == "MF0;leaf001:MQM9700/U1");
  CHECK(leaf.vendor_id == 0x2c9);
  CHECK(leaf.device_id == 0xd2f2);
  const FabricNode& hca = node(f, "gpu002 mlx5_1");
  CHECK(hca.guid == 0xb83fd20300c00000 + 16 * 1 + 1);
  CHECK(hca.device_id == 0x1021);
  for (const auto& l : f.links)
    for (const LinkEnd& e : {l.a, l.b}) {
      const FabricNode* n = f.find(e.guid);
      CHECK(e.port_guid == (n->kind == NodeKind::Ca ? n->guid : 0));  // ConnectX: port 1 = node
      CHECK(e.lid == n->lid);
    }
  // LIDs 1..N with no gaps: switches first, then HCAs, then aggregation nodes.
  std::vector<std::pair<int, uint16_t>> order;  // (kind rank, lid)
  for (const auto& n : f.nodes)
    order.emplace_back(n.kind == NodeKind::Switch ? 0 : is_aggregation_node(n) ? 2 : 1, n.lid);
  std::sort(order.begin(), order.end(), [](auto& x, auto& y) { return x.second < y.second; });
  for (size_t i = 0; i < order.size(); ++i) {
    CHECK(order[i].second == i + 1);
    if (i) CHECK(order[i - 1].first <= order[i].first);
  }
}

TEST_CASE("host names pad to the digits of the host count, at least 3") {
  FatTreeSpec spec;
  spec.hosts = 999;
  CHECK(has_node(generate_fattree(spec), "gpu999 mlx5_0"));
  const Fabric f = generate_fattree({.hosts = 1000, .host_prefix = "n", .switch_prefix = "ib-"});
  CHECK(has_node(f, "n0001 mlx5_0"));
  CHECK(has_node(f, "n1000 mlx5_0"));
  CHECK(has_node(f, "ib-leaf032"));
}

// The option the error names is the one the admin has to change.
std::string option_refused(auto&& generate) {
  try {
    generate();
  } catch (const InputError& e) {
    return e.file();
  }
  return "(accepted)";
}

TEST_CASE("impossible specs are refused, naming the option that sets the field") {
  FatTreeSpec spec;
  spec.levels = 4;
  CHECK(option_refused([&] { generate_fattree(spec); }) == "--levels");
  spec = {};
  spec.hosts = 2049;  // a k=64 2-level tree holds 2048
  CHECK(option_refused([&] { generate_fattree(spec); }) == "--hosts");
  spec = {};
  spec.speed = LinkSpeed::HDR;  // MQM8700 has 40 ports, not 64
  CHECK(option_refused([&] { generate_fattree(spec); }) == "--radix");
  spec = {};
  spec.speed = LinkSpeed::QDR;
  CHECK(option_refused([&] { generate_fattree(spec); }) == "--speed");
  RailOptimizedSpec rail;
  rail.hosts_per_su = 33;  // needs 33 down + 33 up > 64 ports
  CHECK(option_refused([&] { generate_rail_optimized(rail); }) == "--hosts-per-su");
  rail = {};
  rail.spines_per_rail = 1;  // 4 leaves * 32 uplinks on one 64-port spine
  CHECK(option_refused([&] { generate_rail_optimized(rail); }) == "--spines-per-rail");
}

TEST_CASE("faults: remove, degrade, unname") {
  FatTreeSpec spec;
  spec.radix = 8;
  spec.cables_per_pair = 2;
  const Fabric clean = generate_fattree(spec);

  Fabric f = clean;
  Faults faults;
  faults.remove_cables = {{"gpu001", "leaf001"}, {"leaf002", "spine01"}};
  faults.degrade_cables = {{"leaf003", "spine02"}, {"gpu005", "leaf002", 4, LinkSpeed::HDR}};
  faults.unnamed_hosts = {"gpu006"};
  apply_faults(f, faults);
  // The host's only cable is gone, so no sweep sees its HCA.
  CHECK_FALSE(has_node(f, "gpu001 mlx5_0"));
  CHECK(hcas(f) == 15);
  CHECK(cables_between(f, "leaf002", "spine01") == 1);
  CHECK(f.links.size() == clean.links.size() - 2);
  const auto degraded =
      std::count_if(f.links.begin(), f.links.end(), [](const Link& l) { return l.width == 1; });
  CHECK(degraded == 1);  // one of the two leaf003-spine02 cables
  const Link& hdr = *std::find_if(f.links.begin(), f.links.end(), [&](const Link& l) {
    return l.b.guid == node(f, "gpu005 mlx5_0").guid;
  });
  CHECK(hdr.speed == LinkSpeed::HDR);
  CHECK(hdr.width == 4);
  CHECK(node(f, "MT4129 ConnectX7   Mellanox Technologies").guid ==
        node(clean, "gpu006 mlx5_0").guid);
  check_ports(f);

  for (const auto& fault : {std::pair{Faults{.remove_cables = {{"gpu001", "nosuch"}}}, "--remove-cable"},
                            std::pair{Faults{.remove_cables = {{"gpu001", "leaf002"}}}, "--remove-cable"},
                            std::pair{Faults{.degrade_cables = {{"gpu001", "leaf002"}}}, "--degrade-cable"},
                            std::pair{Faults{.unnamed_hosts = {"nosuch"}}, "unnamed_hosts"},
                            std::pair{Faults{.miscable_rail = {{"gpu001", 3}}}, "miscable_rail"}}) {
    const Faults& bad = fault.first;  // (not a structured binding: clang 14's lambdas cannot capture one)
    const std::string option = fault.second;
    CAPTURE(option);
    Fabric g = clean;
    CHECK(option_refused([&] { apply_faults(g, bad); }) == option);
  }
}

TEST_CASE("faults: a miscabled rail lands on the next SU's leaf of that rail") {
  // Full leaves (32 hosts + 32 uplinks): no free port, so the cable swaps with the HCA on the
  // same port of su2-rail3, i.e. dgx033's.
  Fabric f = generate_rail_optimized(RailOptimizedSpec{});
  apply_faults(f, {.miscable_rail = {{"dgx001", 3}, {"dgx128", 0}}});
  CHECK(attachment(f, "dgx001 mlx5_3") == std::pair<std::string, int>{"su2-rail3", 1});
  CHECK(attachment(f, "dgx033 mlx5_3") == std::pair<std::string, int>{"su1-rail3", 1});
  CHECK(attachment(f, "dgx128 mlx5_0") == std::pair<std::string, int>{"su1-rail0", 32});  // wraps
  check_ports(f);

  // 31 hosts per SU leave ports 63 and 64 free: a plain move, only dgx001 is off its SU.
  RailOptimizedSpec spare;
  spare.hosts_per_su = 31;
  Fabric g = generate_rail_optimized(spare);
  apply_faults(g, {.miscable_rail = {{"dgx001", 3}}});
  CHECK(attachment(g, "dgx001 mlx5_3") == std::pair<std::string, int>{"su2-rail3", 63});
  CHECK(attachment(g, "dgx032 mlx5_3") == std::pair<std::string, int>{"su2-rail3", 1});
  check_ports(g);

  // In a fat tree the next leaf plays the part of the next SU.
  FatTreeSpec tree;
  tree.radix = 8;
  tree.hosts = 6;  // leaf002 holds 2 hosts, so ports 3 and 4 are free
  Fabric t = generate_fattree(tree);
  apply_faults(t, {.miscable_rail = {{"gpu001", 0}}});
  CHECK(attachment(t, "gpu001 mlx5_0") == std::pair<std::string, int>{"leaf002", 3});
}

TEST_CASE("generation is deterministic") {
  RailOptimizedSpec spec;
  spec.sharp = true;
  spec.storage_switch = true;
  const std::string first = dump(generate_rail_optimized(spec));
  CHECK(first.size() > 100000);
  CHECK(first == dump(generate_rail_optimized(spec)));
  FatTreeSpec tree;
  tree.levels = 3;
  tree.radix = 16;
  tree.hosts = 300;
  CHECK(dump(generate_fattree(tree)) == dump(generate_fattree(tree)));
}

TEST_CASE("a generated fabric's ibnetdiscover text reads back as the same fabric") {
  Fabric f = generate_rail_optimized(
      {.scalable_units = 2, .hosts_per_su = 4, .rails = 2, .sharp = true, .storage_switch = true});
  apply_faults(f,
               {.degrade_cables = {{"su1-rail0", "rail0-spine01"}}, .unnamed_hosts = {"dgx002"}});
  Fabric back = parse_ibnetdiscover_text(dump(f), "synthetic.topo");
  back.name = f.name;  // the text carries no name to read back
  CHECK(back.partial.empty());
  CHECK(dump(back) == dump(f));
}

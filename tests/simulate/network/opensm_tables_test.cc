// Real forwarding tables: OpenSM 3.3.23 routing generated trees under ibsim, dumped by the real
// dump_fts (tests/data/simulate/make-lfts.sh; README there). The reader must take them, LFT
// routing must walk them, and the ftree replay must reproduce OpenSM's own ftree.
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "discover/ibnetdiscover_text.h"
#include "simulate/network/forwarding_tables.h"
#include "simulate/network/routing.h"
#include "tests/simulate/network/routing_test_support.h"

using namespace slurmtopo;
using namespace slurmtopo::test;

namespace {

std::string data(const std::string& name) {
  return std::string(SLURMTOPO_SOURCE_DIR) + "/tests/data/simulate/" + name;
}

Cluster load(const std::string& name) {
  std::ifstream in(data(name));
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  return cluster_of(parse_ibnetdiscover_text(text.str(), data(name)));
}

}  // namespace

TEST_CASE("opensm tables: dump_fts output reads back, every switch and every LID") {
  // Radix 8 2-level (HDR for ibsim): 12 switches, 32 HCAs, so 44 LIDs. Min-hop routes all of
  // them everywhere; ftree leaves each spine without routes to the 3 other spines (that
  // would take a down-up turn), as the dump's "41 valid lids dumped" says.
  const Cluster c = load("fattree-k8.ibnetdiscover");
  for (const std::string dump : {"fattree-k8.ftree.lfts", "fattree-k8.minhop.lfts"}) {
    CAPTURE(dump);
    const ForwardingTables t = read_forwarding_tables_file(data(dump));
    REQUIRE(t.by_switch.size() == c.switches.size());
    for (const auto& s : c.switches) {
      const auto& table = t.by_switch.at(s.guid);
      const bool spine_in_ftree = dump.find("ftree") != std::string::npos && s.level == 2;
      CHECK(table.size() == 45);  // [0x0-0x2c]
      CHECK(std::count_if(table.begin(), table.end(), [](uint8_t p) { return p != 255; }) ==
            (spine_in_ftree ? 41 : 44));
      CHECK(table.at(c.fabrics[0].find(s.guid)->lid) == 0);  // itself: port 0
    }
  }
}

TEST_CASE("opensm tables: the ftree replay writes OpenSM's ftree entries and gives its paths") {
  for (const char* name : {"fattree-k8", "fattree-k8-3level"}) {
    CAPTURE(name);
    const Cluster c = load(std::string(name) + ".ibnetdiscover");
    const ForwardingTables real = read_forwarding_tables_file(data(std::string(name) + ".ftree.lfts"));
    // Entry by entry, for every compute HCA's LID on every switch.
    const ForwardingTables mine = compute_ftree_tables(c);
    int compared = 0;
    for (const auto& s : c.switches)
      for (const auto& h : c.hcas) {
        const uint16_t lid = c.fabrics[0].find(h.guid)->lid;
        CHECK(mine.by_switch.at(s.guid).at(lid) == real.by_switch.at(s.guid).at(lid));
        ++compared;
      }
    CHECK(compared == static_cast<int>(c.switches.size() * c.hcas.size()));
    // And so every path.
    const auto lft = make_lft_routing(c, real);
    const auto ftree = make_routing(c, RoutingKind::Ftree);
    for (int s = 0; s < static_cast<int>(c.hcas.size()); ++s)
      for (int d = 0; d < static_cast<int>(c.hcas.size()); ++d) {
        const auto a = lft->route(s, d), b = ftree->route(s, d);
        REQUIRE(a.size() == 1);
        REQUIRE(b.size() == 1);
        CHECK(a[0].links == b[0].links);
      }
  }
}

TEST_CASE("opensm tables: OpenSM's min-hop is shortest and even per uplink, like D-mod-K") {
  // OpenSM's minhop balances by counting routes per port, not by LID mod uplinks, so the two
  // put different destinations on a given uplink; both give every shortest path, and on this
  // tree both load each leaf's 4 uplinks with 28 / 4 = 7 remote destinations.
  const Cluster c = load("fattree-k8.ibnetdiscover");
  const auto real = make_lft_routing(c, read_forwarding_tables_file(data("fattree-k8.minhop.lfts")));
  const auto dmodk = make_routing(c, RoutingKind::MinHop);
  for (const Routing* r : {real.get(), dmodk.get()}) {
    std::map<std::pair<std::string, int>, int> per_uplink;  // (leaf, port) → destinations
    for (int s = 0; s < static_cast<int>(c.hcas.size()); ++s)
      for (int d = 0; d < static_cast<int>(c.hcas.size()); ++d) {
        const auto p = r->route(s, d);
        REQUIRE(p.size() == 1);
        CHECK(p[0].links.size() == dmodk->route(s, d)[0].links.size());
        if (p[0].links.size() == 4 && c.hcas[s].rail == "mlx5_0" && s % 4 == 0)  // one source per leaf
          ++per_uplink[{node_name(c, from_end(c, p[0].links[1]).guid), from_end(c, p[0].links[1]).port}];
      }
    CHECK(per_uplink.size() == 8 * 4);
    for (const auto& [uplink, n] : per_uplink) CHECK(n == 7);
  }
}

// The fabric index every routing reads: each cable at both its ends in port order, and hop
// counts between switches equal to a plain breadth-first search's, on regular and irregular
// fabrics.
#include "simulate/network/fabric_index.h"

#include <deque>
#include <map>

#include <doctest/doctest.h>

#include "routing_test_support.h"

using namespace slurmtopo;
using slurmtopo::test::cluster_of;

namespace {

// Hop counts from switch `from` by the textbook search over the cables as the fabric lists them.
std::vector<uint16_t> reference_distances(const Cluster& c, int from) {
  std::vector<uint16_t> dist(c.switches.size(), FabricIndex::kUnreachable);
  std::map<uint64_t, int> by_guid;
  for (size_t s = 0; s < c.switches.size(); ++s) by_guid[c.switches[s].guid] = static_cast<int>(s);
  std::vector<std::vector<int>> adj(c.switches.size());
  for (const auto& f : c.fabrics)
    for (const auto& l : f.links) {
      auto a = by_guid.find(l.a.guid), b = by_guid.find(l.b.guid);
      if (a == by_guid.end() || b == by_guid.end() || a->second == b->second) continue;
      adj[a->second].push_back(b->second);
      adj[b->second].push_back(a->second);
    }
  std::deque<int> queue{from};
  dist[from] = 0;
  while (!queue.empty()) {
    const int s = queue.front();
    queue.pop_front();
    for (int t : adj[s])
      if (dist[t] == FabricIndex::kUnreachable) dist[t] = static_cast<uint16_t>(dist[s] + 1), queue.push_back(t);
  }
  return dist;
}

void check_distances(const Cluster& c) {
  const FabricIndex index(c);
  std::vector<uint16_t> dist;
  for (int s = 0; s < static_cast<int>(c.switches.size()); ++s) {
    index.compute_distances(s, dist);
    REQUIRE(dist == reference_distances(c, s));
  }
}

// Every cable listed at its a end and at its b end, each vertex's entries in port order.
void check_ports(const Cluster& c) {
  const FabricIndex index(c);
  size_t listed = 0;
  for (int v = 0; v < static_cast<int>(boost::num_vertices(c.graph)); ++v) {
    const auto entries = index.ports(v);
    for (size_t i = 1; i < entries.size(); ++i) CHECK(entries[i - 1].port <= entries[i].port);
    for (const PortEntry& e : entries) {
      const Link& l = c.fabrics[e.out.fabric].links[e.out.link];
      const LinkEnd& mine = e.out.a_to_b ? l.a : l.b;
      const LinkEnd& theirs = e.out.a_to_b ? l.b : l.a;
      CHECK(index.guid(v) == mine.guid);
      CHECK(e.port == mine.port);
      CHECK(index.guid(e.peer) == theirs.guid);
      CHECK(e.peer_port == theirs.port);
    }
    listed += entries.size();
  }
  size_t cables = 0;
  for (const auto& f : c.fabrics)
    for (const auto& l : f.links) cables += l.a.guid != l.b.guid && f.find(l.a.guid) && f.find(l.b.guid);
  CHECK(listed == 2 * cables);
}

}  // namespace

TEST_CASE("hop counts between switches are a breadth-first search's, on a fat tree") {
  FatTreeSpec spec;
  spec.levels = 3;
  spec.radix = 8;
  spec.hosts = 64;
  const Cluster c = cluster_of(generate_fattree(spec));
  check_distances(c);
  check_ports(c);
}

TEST_CASE("hop counts and port lists hold on an irregular fabric with missing cables") {
  // A fat tree with a third of its switch cables gone at random: unequal depths, detours and
  // unreachable switches, where searching from the unreached side must give the same counts.
  FatTreeSpec spec;
  spec.levels = 3;
  spec.radix = 8;
  spec.hosts = 64;
  const Fabric full = generate_fattree(spec);
  Fabric f = test::thinned(full, 11);
  REQUIRE(f.links.size() < full.links.size());
  const Cluster c = cluster_of(std::move(f));
  check_distances(c);
  check_ports(c);
}


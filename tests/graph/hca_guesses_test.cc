// Unnamed HCAs given to the host their port most likely belongs to: checked against the truth
// on a generated rail-optimized fabric whose HCAs lost their names, and on topograph's DGX dump.
#include "graph/hca_guesses.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>

#include "discover/name_map.h"
#include "discover/synthetic_fabric.h"
#include "graph/cluster.h"
#include "graph/cluster_inputs.h"
#include "tests/skip.h"

using namespace slurmtopo;

namespace {

const std::string kPublic = SLURMTOPO_SOURCE_DIR "/../shared/fabrics/public/";

// Two units of eight hosts on four rails; the HCAs `blank` picks keep their factory description,
// as after a reinstall (topograph's dump: 25 DGX with no named HCA, a few with one).
struct Blanked {
  Fabric fabric;
  std::map<uint64_t, std::string> truth;  // GUID → the host it was named for
};

Blanked blank(const std::vector<std::string>& hcas) {
  RailOptimizedSpec spec;
  spec.scalable_units = 2;
  spec.hosts_per_su = 8;
  spec.rails = 4;
  spec.radix = 32;
  Blanked b{generate_rail_optimized(spec), {}};
  for (auto& n : b.fabric.nodes) {
    if (n.kind != NodeKind::Ca) continue;
    const std::string host = n.description.substr(0, n.description.find(' '));
    if (std::find(hcas.begin(), hcas.end(), host) == hcas.end() &&
        std::find(hcas.begin(), hcas.end(), n.description) == hcas.end())
      continue;
    b.truth[n.guid] = host;
    n.description = "MT4129 ConnectX7   Mellanox Technologies";
  }
  return b;
}

// Whole hosts (every HCA) and single HCAs, in both units.
const std::vector<std::string> kBlanked = {"dgx003", "dgx006 mlx5_2", "dgx010", "dgx016 mlx5_0"};

Cluster build(Fabric f, NameMap names = {}) {
  std::vector<Fabric> fabrics;
  fabrics.push_back(std::move(f));
  ClusterOptions options;
  options.names = std::move(names);
  return build_cluster(std::move(fabrics), options);
}

}  // namespace

TEST_CASE("hca guesses: every blanked HCA of a rail-optimized fabric is given to the host it was cabled for") {
  Blanked b = blank(kBlanked);
  REQUIRE(b.truth.size() == 10);
  const Cluster c = build(b.fabric);
  const HcaGuesses g = guess_hca_hosts(c);
  CHECK(g.guesses.size() == b.truth.size());
  for (const HcaGuess& guess : g.guesses) {
    const Hca& hca = c.hcas[guess.hca];
    const uint64_t guid = c.fabrics[0].nodes[c.graph[hca.vertex].node].guid;
    CAPTURE(guess.why);
    CHECK(guess.host == b.truth.at(guid));
    CHECK(guess.why.find("port") != std::string::npos);
  }
  // A guess is no fact: the cluster still lists the HCAs as unresolved.
  int unresolved = 0;
  for (const Hca& h : c.hcas) unresolved += !h.unresolved.empty();
  CHECK(unresolved == static_cast<int>(b.truth.size()));
}

TEST_CASE("hca guesses: the suggested map, passed back as --node-name-map, names every blanked HCA") {
  Blanked b = blank(kBlanked);
  const Cluster c = build(b.fabric);
  const std::string map = suggested_name_map(c, guess_hca_hosts(c), "slurmtopo inspect --suggest-map m");
  const std::string path = (std::filesystem::temp_directory_path() / "slurmtopo_hca_guesses_test.map").string();
  std::ofstream(path) << map;
  const Cluster named = build(b.fabric, load_name_map(path));
  for (const Hca& h : named.hcas) CHECK(h.unresolved.empty());
  CHECK(named.hosts.size() == 16);
  std::filesystem::remove(path);
}

TEST_CASE("hca guesses: a leaf whose named hosts follow no rule gives no guess") {
  Blanked b = blank(kBlanked);
  // Scramble the names the rule would be read from: host names no longer follow the ports.
  int k = 0;
  for (auto& n : b.fabric.nodes)
    if (n.kind == NodeKind::Ca && n.description.rfind("dgx", 0) == 0)
      n.description = "node" + std::to_string((k++ * 7919) % 997) + n.description.substr(n.description.find(' '));
  const Cluster c = build(b.fabric);
  CHECK(guess_hca_hosts(c).guesses.empty());
}

TEST_CASE("hca guesses on topograph's dump: 72 of the 74 factory-named HCAs have a likely host") {
  if (!std::filesystem::exists(kPublic + "topograph/example.out"))
    return slurmtopo::testing::skip(kPublic + "topograph/example.out is absent");
  ClusterInputs in;
  in.fabric_files = {kPublic + "topograph/example.out"};
  const Cluster c = load_cluster(in);
  const HcaGuesses g = guess_hca_hosts(c);
  CHECK(g.guesses.size() == 72);
  const auto hosts = guesses_by_host(c, g);
  // Every guessed host is a DGX the dump otherwise lacks an HCA for, never the UFM server.
  for (const HostGuess& h : hosts) {
    CAPTURE(h.host);
    CHECK(h.host.find("-dgx-") != std::string::npos);
  }
  int without = 0;  // hosts the dump has no named HCA of: Slurm nodes "not in the fabric" without the guesses
  for (const HostGuess& h : hosts) without += c.host_index(h.host) < 0;
  // Of the 25 DGX with no named HCA, 20 own unnamed ones; the other five show nowhere in the dump.
  CHECK(hosts.size() == 20);
  CHECK(without == 20);
}

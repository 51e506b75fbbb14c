// Which host an unnamed HCA most likely belongs to, from its position. Rail-optimized units
// are cabled by a rule: host k sits on the same port of every rail leaf, and hosts are often
// numbered by that port (topograph's DGX dump: port 7 of every A09-P1-IBLEAF-0r-01 is
// a05-p1-dgx-01-c07). Where the named HCAs of a unit establish such a rule, an HCA that kept
// its factory description ("MT4129 ConnectX7   Mellanox Technologies") or an installer's
// ("localhost HCA-1") is given to the host the rule puts on its port, with the evidence.
//
// A guess is a suggestion for the admin, never a fact of the model: nothing here changes the
// Cluster, and topology.conf uses a guess only when the admin passes it back as a
// --node-name-map (`inspect --suggest-map FILE` writes one).
#pragma once

#include <string>
#include <vector>

namespace slurmtopo {

struct Cluster;

struct HcaGuess {
  int hca = -1;          // index into Cluster::hcas (an unresolved one)
  std::string host;      // the host it most likely belongs to
  std::string name;      // its name within the host ("HCA-1", "mlx5_0"), as its peers on the leaf
  int group = -1;        // the unit (Cluster::groups) whose rule gave it
  std::string leaf;      // the switch it is cabled to
  int port = 0;          // and the port
  std::string why;       // the evidence, one line
  std::string where() const { return leaf + " port " + std::to_string(port); }
};

struct HcaGuesses {
  std::vector<HcaGuess> guesses;  // by Cluster::hcas index
  int unresolved = 0;             // unresolved HCAs on leaves considered
};

// Guesses for the unresolved HCAs on leaves of units whose named hosts follow one rule: the
// host's number is its port plus a constant (only for ports within the range the named hosts
// use), else the host named on that port of the unit's other leaves by every one of them.
// An HCA whose port the rule gives to a host that already has an HCA on that leaf (two cables
// swapped on the leaf) is guessed only when it is the leaf's last unresolved HCA and one host
// of the unit, seen elsewhere in the unit, still lacks an HCA there. Deterministic.
HcaGuesses guess_hca_hosts(const Cluster& cluster);

// A host's guessed HCAs, and where they are: "port 2 of every leaf of A09-P1-IBLEAF-x-01",
// "port 11 of A09-P1-IBLEAF-01-01, port 12 of A09-P1-IBLEAF-02-01".
struct HostGuess {
  std::string host;
  std::vector<const HcaGuess*> hcas;
  std::string places;
};
// Per host, in Slurm's node order; points into `guesses`.
std::vector<HostGuess> guesses_by_host(const Cluster& cluster, const HcaGuesses& guesses);

// The guesses as a node-name-map (ibnetdiscover's format: `0xGUID "host HCA"`), each entry
// preceded by a comment with its port and evidence, for the admin to review and pass back.
std::string suggested_name_map(const Cluster& cluster, const HcaGuesses& guesses, const std::string& command);

}  // namespace slurmtopo

#include "graph/hca_guesses.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "graph/cluster.h"
#include "slurm/hostlist.h"

namespace slurmtopo {

namespace {

// "a05-p1-dgx-01-c07" → prefix "a05-p1-dgx-01-c", number 7, 2 digits, zero-padded.
struct Numbered {
  std::string prefix, suffix;
  long number = -1;
  int digits = 0;
  bool leading_zero = false;
};

Numbered split_number(const std::string& host) {
  Numbered n;
  size_t end = host.size();
  while (end > 0 && !(host[end - 1] >= '0' && host[end - 1] <= '9')) --end;
  size_t begin = end;
  while (begin > 0 && host[begin - 1] >= '0' && host[begin - 1] <= '9') --begin;
  if (begin == end || end - begin > 9) return n;
  n.prefix = host.substr(0, begin);
  n.suffix = host.substr(end);
  n.number = std::stol(host.substr(begin, end - begin));
  n.digits = static_cast<int>(end - begin);
  n.leading_zero = host[begin] == '0' && n.digits > 1;
  return n;
}

// The unit's naming rule: host number = port + offset, for ports lo..hi.
struct Rule {
  std::string prefix, suffix;
  int width = 0;
  long offset = 0;
  int lo = 0, hi = -1, fitting = 0, named = 0;
  std::string host(int port) const {
    std::string digits = std::to_string(port + offset);
    if (static_cast<int>(digits.size()) < width) digits.insert(0, width - digits.size(), '0');
    return prefix + digits + suffix;
  }
};

struct Entry {
  int leaf;
  int port;
  int hca;
};

class UnitGuesser {
 public:
  UnitGuesser(const Cluster& c, int group, std::vector<HcaGuess>& out) : c_(c), group_(group), out_(out) {
    const std::vector<int>& leaves = c.groups[group].leaves;
    leaf_set_.insert(leaves.begin(), leaves.end());
    for (int i = 0; i < static_cast<int>(c.hcas.size()); ++i) {
      const Hca& h = c.hcas[i];
      if (h.excluded) continue;
      for (size_t k = 0; k < h.switches.size(); ++k) {
        if (!leaf_set_.count(h.switches[k])) continue;
        if (!h.host.empty()) named_.push_back({h.switches[k], h.ports[k], i});
        else if (!h.unresolved.empty() && k == 0) unnamed_.push_back({h.switches[k], h.ports[k], i});
      }
    }
  }

  int unresolved() const { return static_cast<int>(unnamed_.size()); }

  void guess() {
    if (unnamed_.empty()) return;
    find_rule();
    for (const Entry& e : named_) {
      const std::string& host = c_.hcas[e.hca].host;
      have_[e.leaf].insert(host);
      const int hi = c_.host_index(host);
      if (hi >= 0 && c_.hosts[hi].group == group_) seen_.insert(host);
    }
    std::vector<const Entry*> left;
    for (const Entry& e : unnamed_) {
      std::string why;
      const std::string host = home(e.port, e.leaf, why);
      if (host.empty() || have_[e.leaf].count(host)) {
        left.push_back(&e);
        continue;
      }
      take(e, host, why);
      seen_.insert(host);
    }
    // Two cables swapped on a leaf put a named host on another's port: the HCA left over is
    // the host's that still lacks one there, when both are unique.
    std::map<int, std::vector<const Entry*>> left_on;
    for (const Entry* e : left) left_on[e->leaf].push_back(e);
    for (const auto& [leaf, entries] : left_on) {
      if (entries.size() != 1) continue;
      std::vector<std::string> lacking;
      for (const std::string& h : seen_)
        if (!have_[leaf].count(h)) lacking.push_back(h);
      if (lacking.size() != 1) continue;
      const Entry& e = *entries.front();
      std::string why = "the last unnamed HCA on " + c_.switches[leaf].name + " and " + lacking.front() +
                        " the only host of " + c_.groups[group_].name + " without an HCA there";
      if (const int own = home_port(lacking.front()); own >= 0)
        if (auto it = at_port(leaf, own); !it.empty())
          why += "; its own port " + std::to_string(own) + " holds " + it + "'s: cables swapped?";
      take(e, lacking.front(), why);
    }
  }

 private:
  void find_rule() {
    std::map<std::tuple<std::string, std::string, int, long>, std::vector<int>> keys;  // → ports
    int named = 0;
    for (const Entry& e : named_) {
      const Numbered n = split_number(c_.hcas[e.hca].host);
      if (n.number < 0) continue;
      ++named;
      // c01…c18 are zero-padded to 2 digits; node1…node18 are not: a name without a leading
      // zero fits both readings, and the reading most names fit wins.
      keys[{n.prefix, n.suffix, n.digits, n.number - e.port}].push_back(e.port);
      if (!n.leading_zero) keys[{n.prefix, n.suffix, 0, n.number - e.port}].push_back(e.port);
    }
    const std::vector<int>* best = nullptr;
    const std::tuple<std::string, std::string, int, long>* key = nullptr;
    for (const auto& [k, ports] : keys)  // ties: the unpadded reading (width 0 sorts first)
      if (!best || ports.size() > best->size()) best = &ports, key = &k;
    // Three HCAs are the least a rule can be read from; a quarter that disagree is no rule.
    if (!best || best->size() < 3 || 4 * best->size() < 3 * static_cast<size_t>(named)) return;
    rule_ = Rule{std::get<0>(*key), std::get<1>(*key), std::get<2>(*key), std::get<3>(*key),
                 *std::min_element(best->begin(), best->end()), *std::max_element(best->begin(), best->end()),
                 static_cast<int>(best->size()), named};
  }

  // The host the unit puts on `port`: by the rule within its ports, else the host every other
  // leaf of the unit names on that port (at least two).
  std::string home(int port, int leaf, std::string& why) const {
    if (rule_.hi >= rule_.lo && port >= rule_.lo && port <= rule_.hi) {
      const std::string host = rule_.host(port);
      const int hi = c_.host_index(host);
      // Another unit's compute host is not this unit's (a storage host may be: its compute HCAs
      // may be the unnamed ones).
      if (hi >= 0 && c_.hosts[hi].compute() && c_.hosts[hi].group >= 0 && c_.hosts[hi].group != group_) return "";
      why = c_.groups[group_].name + "'s hosts are numbered by their port (" + std::to_string(rule_.fitting) +
            " of its " + std::to_string(rule_.named) + " named HCAs: port " + std::to_string(rule_.lo) + " " +
            rule_.host(rule_.lo) + " … port " + std::to_string(rule_.hi) + " " + rule_.host(rule_.hi) + ")";
      return host;
    }
    std::set<std::string> hosts;
    std::vector<std::string> leaves;
    for (const Entry& e : named_)
      if (e.port == port && e.leaf != leaf) hosts.insert(c_.hcas[e.hca].host), leaves.push_back(c_.switches[e.leaf].name);
    if (hosts.size() != 1 || leaves.size() < 2) return "";
    why = "port " + std::to_string(port) + " of " + compress_hostlist(leaves) + " carries " + *hosts.begin();
    return *hosts.begin();
  }

  int home_port(const std::string& host) const {
    std::map<int, int> ports;
    for (const Entry& e : named_)
      if (c_.hcas[e.hca].host == host) ++ports[e.port];
    for (const HcaGuess& g : out_)
      if (g.host == host)
        for (const Entry& e : unnamed_)
          if (e.hca == g.hca) ++ports[e.port];
    int best = -1, n = 0;
    for (auto [p, k] : ports)
      if (k > n) best = p, n = k;
    return best;
  }

  std::string at_port(int leaf, int port) const {
    for (const Entry& e : named_)
      if (e.leaf == leaf && e.port == port) return c_.hcas[e.hca].host;
    return "";
  }

  // Its own name when its description has one ("localhost HCA-1"), else what its leaf's named
  // HCAs are called, else the rail's name.
  std::string hca_name(const Entry& e) const {
    const Hca& h = c_.hcas[e.hca];
    if (!h.rail.empty()) return h.rail;
    std::map<std::string, int> names;
    for (const Entry& n : named_)
      if (n.leaf == e.leaf && !c_.hcas[n.hca].rail.empty()) ++names[c_.hcas[n.hca].rail];
    std::string best;
    int k = 0;
    for (const auto& [name, n] : names)
      if (n > k) best = name, k = n;
    const int rail = c_.switches[e.leaf].rail;
    if (best.empty() && rail >= 0 && rail < static_cast<int>(c_.rails.size()) && !c_.rails[rail].hca_names.empty())
      best = c_.rails[rail].hca_names.front();
    return best;
  }

  void take(const Entry& e, const std::string& host, const std::string& why) {
    out_.push_back({e.hca, host, hca_name(e), group_, c_.switches[e.leaf].name, e.port, why});
    have_[e.leaf].insert(host);
  }

  const Cluster& c_;
  int group_;
  std::vector<HcaGuess>& out_;
  std::set<int> leaf_set_;
  std::vector<Entry> named_, unnamed_;
  Rule rule_;
  std::map<int, std::set<std::string>> have_;  // leaf → hosts with an HCA on it
  std::set<std::string> seen_;                 // hosts of the unit with an HCA in it
};

}  // namespace

HcaGuesses guess_hca_hosts(const Cluster& c) {
  HcaGuesses out;
  // Most fabrics name every HCA: nothing to guess, and no scan of every HCA per unit.
  if (std::none_of(c.hcas.begin(), c.hcas.end(), [](const Hca& h) { return !h.excluded && !h.unresolved.empty(); }))
    return out;
  for (int g = 0; g < static_cast<int>(c.groups.size()); ++g) {
    UnitGuesser unit(c, g, out.guesses);
    out.unresolved += unit.unresolved();
    unit.guess();
  }
  std::sort(out.guesses.begin(), out.guesses.end(), [](const HcaGuess& a, const HcaGuess& b) { return a.hca < b.hca; });
  return out;
}

std::vector<HostGuess> guesses_by_host(const Cluster& c, const HcaGuesses& guesses) {
  std::map<std::string, std::vector<const HcaGuess*>> by;
  for (const HcaGuess& g : guesses.guesses) by[g.host].push_back(&g);
  std::vector<HostGuess> out;
  for (auto& [host, hcas] : by) {
    std::map<int, std::vector<const HcaGuess*>> by_port;
    for (const HcaGuess* g : hcas) by_port[g->port].push_back(g);
    std::string places;
    for (const auto& [port, on] : by_port) {
      places += (places.empty() ? "" : ", ") + std::string("port ") + std::to_string(port) + " of ";
      const Group& unit = c.groups[on.front()->group];
      if (on.size() == unit.leaves.size() && unit.leaves.size() > 1) {
        places += "every leaf of " + unit.name;
        continue;
      }
      for (size_t i = 0; i < on.size(); ++i) places += (i ? ", " : "") + on[i]->leaf;
    }
    out.push_back({host, std::move(hcas), std::move(places)});
  }
  std::sort(out.begin(), out.end(), [](const HostGuess& a, const HostGuess& b) { return natural_less(a.host, b.host); });
  return out;
}

std::string suggested_name_map(const Cluster& c, const HcaGuesses& guesses, const std::string& command) {
  std::string out = "# node-name-map suggested by slurmtopo for its unnamed HCAs: " +
                    std::to_string(guesses.guesses.size()) + " of " + std::to_string(guesses.unresolved) +
                    " guessed from their ports.\n# Review every entry, then pass the file back with --node-name-map.\n";
  if (!command.empty()) out += "# made by: " + command + "\n";
  std::vector<const HcaGuess*> sorted;
  for (const HcaGuess& g : guesses.guesses) sorted.push_back(&g);
  std::sort(sorted.begin(), sorted.end(), [](const HcaGuess* a, const HcaGuess* b) {
    return a->host != b->host ? natural_less(a->host, b->host) : natural_less(a->name, b->name);
  });
  for (const HcaGuess* g : sorted) {
    const Hca& h = c.hcas[g->hca];
    out += "# " + g->where() + " (now \"" + h.description + "\"): " + g->why + "\n";
    out += "0x" + guid_hex(h.guid) + " \"" + g->host + (g->name.empty() ? "" : " " + g->name) + "\"\n";
  }
  return out;
}

}  // namespace slurmtopo

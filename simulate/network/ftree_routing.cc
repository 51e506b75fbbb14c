// OpenSM's fat-tree routing (osm_ucast_ftree.c), replayed to forwarding tables and walked the
// way Lft routing walks real ones. One file, past 400 lines, because the replay follows
// OpenSM's own order (ranking, indexing, then up and down routes per destination) and is
// checked against it step by step; cut apart, the order it must keep would be nowhere.
//
// What is replayed, as OpenSM 3.3 does it:
//   - Up/down: a cable to a switch one level up (Cluster levels, leaf = 1) is an up port, one
//     level down (or to a CA) a down port; cables to one remote switch form a port group.
//   - Indexing: a breadth-first walk from the first leaf in OpenSM's switch-table order (GUIDs
//     compared as the big-endian bytes OpenSM keys them by, read on a little-endian host),
//     giving each switch a tuple; leaves are then routed in tuple order, and within a leaf its
//     compute HCAs in port order. Leaves with fewer HCAs than the fullest leaf route "dummy"
//     destinations for the difference, which only advance the leaf's uplink counters, so the
//     spreading stays aligned across leaves.
//   - For each destination, going up from its leaf (fabric_route_downgoing_by_going_up): take
//     the up group with the fewest downward routes so far (ties: lowest remote GUID) and its
//     least-loaded port; that upper switch points down the cable; count it; recurse upward.
//     Other up groups get secondary routes (not counted). At every switch on the way, every
//     lower switch not yet routed points up toward it (fabric_route_upgoing_by_going_down),
//     choosing among parallel cables the port with the fewest upward routes, counted.
// So destination i of every leaf leaves each leaf on uplink i mod uplinks, and all sources
// reach a destination through the same top switch: a shift permutation on a full-bisection
// tree is contention-free, which D-mod-K only achieves when LIDs happen to line up.
//
// A tree OpenSM would not accept as one (fabric_validate_topology: switches of one level with
// different numbers of up or down port groups, or of cables per group — a partly built pod,
// a missing cable) gets what OpenSM then falls back to: min-hop, here our D-mod-K model.
//
// Checked against the real thing: OpenSM 3.3.23 under ibsim, tables read back with dump_fts,
// give the same path for every pair on full 2- and 3-level trees of radix 8 and 12 (up to 432
// hosts, 186,624 pairs), 2:1 leaves and doubled cables (tests/data/simulate, make-lfts.sh).
//
// Not replayed: switch LIDs and non-compute CAs (their table entries stay 255; a route to an
// HCA that is not a compute node falls back to min-hop), sibling (same-level) cables, reverse
// hops (IO nodes), root/CN guid files, and the load tie-break between remote switches
// (OpenSM's min_counter_down on the remote's down groups, which the replayed fabrics never
// make unequal).
#include <algorithm>
#include <array>
#include <map>
#include <set>

#include "simulate/network/routing_engines.h"

namespace slurmtopo {
namespace {

struct FtPort {
  int port = 0;         // on the group's own switch
  int remote_port = 0;  // on the remote node
  uint32_t up = 0, down = 0;
};

struct FtGroup {
  int remote_sw = -1;  // -1: a CA
  uint64_t remote_guid = 0;
  std::vector<FtPort> ports;  // in port order
  uint32_t down = 0;          // OpenSM's counter_down (up groups)
};

// A down group as its switch walks it: the remote switch and the group's upward-route count
// kept at hand, so the per-destination walk touches the group itself only when it routes.
struct DownEdge {
  int group = 0;
  int remote = 0;
  uint32_t up = 0;  // OpenSM's port group counter_up
};

struct FtSwitch {
  std::vector<int> up;         // groups toward higher switches
  std::vector<DownEdge> down;  // groups toward lower switches (CAs kept apart)
  std::vector<int> ca_groups;  // groups toward CAs, in port order
  bool up_changed = false;     // down groups need re-sorting by upward load
};

using Tuple = std::array<uint8_t, 8>;

class FtreeBuilder {
 public:
  explicit FtreeBuilder(const FabricIndex& index) : ix_(index), c_(index.cluster()) {}

  ForwardingTables build() {
    const int n = static_cast<int>(c_.switches.size());
    sws_.resize(n);
    tables_.resize(n);
    hops_.assign(n, 0);
    for (int s = 0; s < n; ++s)
      tables_[s].assign(ix_.max_lid(c_.switches[s].fabric) + 1, ForwardingTables::kNoPort);
    make_groups();
    std::map<std::vector<int>, int> classes;
    class_of_.resize(n);
    for (int s = 0; s < n; ++s) {
      std::vector<int> lower;
      for (const DownEdge& d : sws_[s].down) lower.push_back(d.remote);
      std::sort(lower.begin(), lower.end());
      class_of_[s] = classes.emplace(std::move(lower), static_cast<int>(classes.size())).first->second;
    }
    class_hops_.assign(classes.size(), 0);
    is_cn_.assign(c_.hcas.size(), false);
    const std::set<int> irregular = irregular_components();
    std::vector<int> leaves;
    for (int leaf : leaf_order())
      if (!irregular.count(c_.switches[leaf].component)) leaves.push_back(leaf);

    // The fullest leaf of a tree sets how many destinations each of its leaves routes (real
    // or dummy).
    std::vector<std::vector<int>> cns(n);  // leaf → compute HCAs in port order
    std::map<int, size_t> max_cn;          // component → most compute HCAs on one leaf
    for (int leaf : leaves) {
      for (int g : sws_[leaf].ca_groups) {
        const int vertex = ix_.port(ix_.switch_vertex(leaf), groups_[g].ports.front().port)->peer;
        const int h = ix_.hca_of_vertex(vertex);
        // Every CA port on a leaf is a compute node to OpenSM (no cn_guid_file), whether or
        // not slurmtopo counts its host; SHARP aggregation nodes are not in Cluster::hcas.
        if (h < 0 || ix_.hca(h).leaf != leaf) continue;
        cns[leaf].push_back(h);
      }
      size_t& most = max_cn[c_.switches[leaf].component];
      most = std::max(most, cns[leaf].size());
    }
    for (int leaf : leaves) {
      for (int h : cns[leaf]) {
        is_cn_[h] = true;
        route_destination(leaf, ix_.hca(h));
      }
      for (size_t d = cns[leaf].size(); d < max_cn[c_.switches[leaf].component]; ++d) route_dummy(leaf);
    }

    ForwardingTables out;
    if (!irregular.empty()) {
      ForwardingTables minhop = minhop_tables(ix_);
      for (int s = 0; s < n; ++s)
        if (irregular.count(c_.switches[s].component)) tables_[s] = std::move(minhop.by_switch[c_.switches[s].guid]);
    }
    for (int s = 0; s < n; ++s) out.by_switch[c_.switches[s].guid] = std::move(tables_[s]);
    return out;
  }

  std::vector<bool> compute_nodes() const { return is_cn_; }
  // Why OpenSM would route some trees with minhop instead, one line per such tree; empty when
  // ftree takes them all.
  const std::vector<std::string>& refusals() const { return refusals_; }

 private:
  void make_groups() {
    for (int s = 0; s < static_cast<int>(c_.switches.size()); ++s) {
      const int level = c_.switches[s].level;
      std::map<int, int> by_remote;  // remote vertex → group
      for (const PortEntry& e : ix_.ports(ix_.switch_vertex(s))) {
        const int r = ix_.switch_of(e.peer);
        int dir = 0;  // +1 up, -1 down (switch), -2 CA
        if (r < 0) dir = -2;
        else if (level > 0 && c_.switches[r].level == level + 1) dir = 1;
        else if (level > 0 && c_.switches[r].level == level - 1) dir = -1;
        if (dir == 0) continue;
        auto [it, fresh] = by_remote.emplace(e.peer, static_cast<int>(groups_.size()));
        if (fresh) {
          FtGroup g;
          g.remote_sw = r;
          g.remote_guid = ix_.guid(e.peer);
          groups_.push_back(g);
          if (dir == 1) sws_[s].up.push_back(it->second);
          else if (dir == -1) sws_[s].down.push_back({it->second, r, 0});
          else sws_[s].ca_groups.push_back(it->second);
        }
        groups_[it->second].ports.push_back({e.port, e.peer_port});
      }
    }
  }

  // fabric_validate_topology: within one tree, every switch of a level must have as many up
  // groups as the level's first switch, and (above the leaves) as many down groups, and every
  // group as many cables as that switch's first group of its direction. OpenSM reports
  // "Fabric topology hasn't been identified as FatTree" otherwise and routes with minhop.
  std::set<int> irregular_components() {
    struct Reference { size_t up, down, up_ports, down_ports; };
    std::map<std::pair<int, int>, Reference> reference;  // (component, level) → first switch's
    std::set<int> irregular;
    for (int s = 0; s < static_cast<int>(c_.switches.size()); ++s) {
      const SwitchInfo& info = c_.switches[s];
      if (info.level <= 0) continue;
      const FtSwitch& sw = sws_[s];
      const bool leaf = info.level == 1;
      const size_t down = leaf ? 0 : sw.down.size() + sw.ca_groups.size();
      const size_t up_ports = sw.up.empty() ? 0 : groups_[sw.up.front()].ports.size();
      const size_t down_ports = leaf || sw.down.empty() ? 0 : groups_[sw.down.front().group].ports.size();
      auto [it, first] = reference.emplace(std::make_pair(info.component, info.level),
                                           Reference{sw.up.size(), down, up_ports, down_ports});
      const Reference& ref = it->second;
      bool ok = first || (sw.up.size() == ref.up && down == ref.down);
      for (int g : sw.up) ok = ok && groups_[g].ports.size() == ref.up_ports;
      if (!leaf)
        for (const DownEdge& d : sw.down) ok = ok && groups_[d.group].ports.size() == ref.down_ports;
      if (!ok && irregular.insert(info.component).second) {
        const std::string& first_name = c_.switches[reference_switch_[{info.component, info.level}]].name;
        const std::string level = "level-" + std::to_string(info.level) + " ";
        std::string why;
        if (sw.up.size() != ref.up || down != ref.down)
          why = level + "switches differ: " + first_name + " has " + std::to_string(ref.up) + " up and " +
                std::to_string(ref.down) + " down port groups, " + info.name + " " + std::to_string(sw.up.size()) +
                " and " + std::to_string(down);
        else if (first_name == info.name)
          why = level + "switch " + info.name + " has port groups of different cable counts";
        else
          why = level + "switches " + first_name + " and " + info.name + " differ in cables per port group";
        refusals_.push_back(why + ": not a fat tree to OpenSM");
      }
      if (first) reference_switch_[{info.component, info.level}] = s;
    }
    return irregular;
  }

  // Leaves in OpenSM's tuple order (see the file comment), component by component.
  std::vector<int> leaf_order() {
    const int n = static_cast<int>(c_.switches.size());
    auto osm_key = [&](int s) { return __builtin_bswap64(c_.switches[s].guid); };
    std::vector<int> by_key(n);
    for (int s = 0; s < n; ++s) by_key[s] = s;
    std::sort(by_key.begin(), by_key.end(), [&](int x, int y) { return osm_key(x) < osm_key(y); });
    std::map<int, int> top_level;  // component → its highest switch level
    for (const auto& s : c_.switches) top_level[s.component] = std::max(top_level[s.component], s.level);

    Tuple unset;
    unset.fill(0xff);
    std::vector<Tuple> tuple(n, unset);
    std::vector<std::pair<std::pair<int, Tuple>, int>> keyed;  // ((component order, tuple), leaf)
    int order = 0;
    for (int start : by_key) {
      if (c_.switches[start].level != 1 || tuple[start] != unset) continue;
      const int top = top_level[c_.switches[start].component];
      std::set<Tuple> used;
      Tuple first = unset;
      first[0] = static_cast<uint8_t>(top - 1);  // OpenSM's rank: roots 0, leaves deepest
      for (int i = 1; i <= first[0] && i < 8; ++i) first[i] = 0;
      tuple[start] = first;
      used.insert(first);
      std::vector<int> queue{start};
      // fabric_get_new_tuple: one rank down (or up) from `from`, the first free index there.
      auto assign = [&](int from, int to, bool down) {
        if (tuple[to] != unset) return;
        Tuple t = tuple[from];
        const int var = down ? t[0] + 1 : t[0];
        t[0] = static_cast<uint8_t>(down ? t[0] + 1 : t[0] - 1);
        if (var >= 8) return;
        for (int i = 0; i < 0xff; ++i) {
          t[var] = static_cast<uint8_t>(i);
          if (!used.count(t)) break;
        }
        tuple[to] = t;
        used.insert(t);
        queue.push_back(to);
      };
      for (size_t head = 0; head < queue.size(); ++head) {
        const int s = queue[head];
        if (c_.switches[s].level > 1)
          for (const DownEdge& d : sws_[s].down) assign(s, d.remote, true);
        for (int g : sws_[s].up) assign(s, groups_[g].remote_sw, false);
      }
      for (int s : queue)
        if (c_.switches[s].level == 1) keyed.push_back({{order, tuple[s]}, s});
      ++order;
    }
    std::sort(keyed.begin(), keyed.end());
    std::vector<int> leaves;
    for (const auto& [key, s] : keyed) leaves.push_back(s);
    return leaves;
  }

  static FtPort& least(std::vector<FtPort>& ports, bool by_up) {
    FtPort* best = &ports.front();
    for (auto& p : ports)
      if ((by_up ? p.up < best->up : p.down < best->down)) best = &p;
    return *best;
  }

  void set_route(int sw, int port, uint8_t hops) {
    if (hops_[sw] == 0) touched_.push_back(sw);
    tables_[sw][lid_] = static_cast<uint8_t>(port);
    hops_[sw] = hops;
  }

  bool unrouted_or_longer(int sw, int hops) const { return hops_[sw] == 0 || hops < hops_[sw]; }

  void route_destination(int leaf, const HcaAttachment& hca) {
    lid_ = hca.lid;
    set_route(leaf, hca.leaf_port, 1);
    down_by_up(leaf, -1, true, 1);
    for (int s : touched_) hops_[s] = 0;
    touched_.clear();
    for (int k : touched_classes_) class_hops_[k] = 0;
    touched_classes_.clear();
  }

  // A missing compute node: only the leaf's choice of uplink is counted.
  void route_dummy(int leaf) {
    FtSwitch& sw = sws_[leaf];
    if (sw.up.empty()) return;
    sort_up(sw);
    FtGroup& g = groups_[sw.up.front()];
    FtPort& p = least(g.ports, false);
    ++g.down;
    ++p.down;
  }

  void sort_up(FtSwitch& sw) {
    std::sort(sw.up.begin(), sw.up.end(), [&](int x, int y) {
      const FtGroup& a = groups_[x];
      const FtGroup& b = groups_[y];
      return a.down != b.down ? a.down < b.down : a.remote_guid < b.remote_guid;
    });
  }

  // fabric_route_upgoing_by_going_down: lower switches not yet routed point up to `s`.
  // Shortcut (same tables): once any switch with the same lower neighbours has done this at
  // `h` hops, every one of them is routed in at most h + 1, so at hops ≥ h nothing would
  // change. This makes a destination cost about one visit per switch, not per cable.
  bool up_by_down(int s, int prev, int hops) {
    FtSwitch& sw = sws_[s];
    bool created = !sw.ca_groups.empty();
    uint8_t& done = class_hops_[class_of_[s]];
    if (done != 0 && done <= hops) return created;
    if (sw.up_changed) {  // OpenSM's bubble_sort_up: stable, by upward load
      for (size_t i = 1; i < sw.down.size(); ++i)
        for (size_t j = i; j > 0 && sw.down[j].up < sw.down[j - 1].up; --j) std::swap(sw.down[j], sw.down[j - 1]);
      sw.up_changed = false;
    }
    for (size_t i = 0; i < sw.down.size(); ++i) {
      const int r = sw.down[i].remote;
      if (r == prev || !unrouted_or_longer(r, hops + 1)) continue;
      FtPort& p = least(groups_[sw.down[i].group].ports, true);
      set_route(r, p.remote_port, static_cast<uint8_t>(hops + 1));
      if (up_by_down(r, -1, hops + 1)) {
        created = true;
        ++p.up;
        ++sws_[s].down[i].up;
        sws_[s].up_changed = true;
      }
    }
    if (done == 0) touched_classes_.push_back(class_of_[s]);
    if (done == 0 || hops < done) done = static_cast<uint8_t>(hops);
    return created;
  }

  // fabric_route_downgoing_by_going_up, for a real LID.
  bool down_by_up(int s, int prev, bool main, int hops) {
    bool created = up_by_down(s, prev, hops);
    FtSwitch& sw = sws_[s];
    if (sw.up.empty()) return created;
    sort_up(sw);
    // Recursion never comes back to `s` (it is routed now), so its order stays put.
    const std::vector<int>& up = sw.up;
    size_t first = 0;
    if (main) {
      FtGroup& g = groups_[up.front()];
      FtPort& p = least(g.ports, false);
      ++g.down;
      ++p.down;
      const int r = g.remote_sw;
      if (unrouted_or_longer(r, hops + 1)) {
        set_route(r, p.remote_port, static_cast<uint8_t>(hops + 1));
        created |= down_by_up(r, s, true, hops + 1);
      }
      first = 1;
    }
    for (size_t i = first; i < up.size(); ++i) {
      FtGroup& g = groups_[up[i]];
      const int r = g.remote_sw;
      if (!unrouted_or_longer(r, hops + 1)) continue;
      FtPort& p = least(g.ports, false);
      set_route(r, p.remote_port, static_cast<uint8_t>(hops + 1));
      created |= down_by_up(r, s, false, hops + 1);
    }
    return created;
  }

  const FabricIndex& ix_;
  const Cluster& c_;
  std::vector<FtGroup> groups_;
  std::vector<FtSwitch> sws_;
  std::vector<std::vector<uint8_t>> tables_;
  std::vector<uint8_t> hops_;  // per switch, for the destination being routed; 0 = none
  std::vector<int> touched_;
  std::vector<int> class_of_;         // switches with the same lower neighbours share a class
  std::vector<uint8_t> class_hops_;   // per class, for the destination being routed; 0 = none
  std::vector<int> touched_classes_;
  std::vector<std::string> refusals_;
  std::map<std::pair<int, int>, int> reference_switch_;  // (component, level) → its first switch
  std::vector<bool> is_cn_;
  uint32_t lid_ = 0;
};

class FtreeRouting final : public Routing {
 public:
  explicit FtreeRouting(std::shared_ptr<const FabricIndex> index) {
    FtreeBuilder builder(*index);
    ForwardingTables tables = builder.build();
    is_cn_ = builder.compute_nodes();
    refusals_ = builder.refusals();
    minhop_ = make_minhop_routing(index);
    tables_ = make_table_routing(std::move(index), std::move(tables), RoutingKind::Ftree);
  }

  RoutingKind kind() const override { return RoutingKind::Ftree; }
  std::string engine() const override {
    if (refusals_.empty()) return "ftree";
    std::string why;
    for (const auto& r : refusals_) why += (why.empty() ? "" : "; ") + r;
    const bool any_ftree = std::find(is_cn_.begin(), is_cn_.end(), true) != is_cn_.end();
    return std::string(any_ftree ? "ftree, minhop on the trees OpenSM refuses" : "minhop, as OpenSM falls back to") +
           " (" + why + ")";
  }

  std::vector<PathShare> route(int src, int dst) const override {
    return is_cn_[dst] ? tables_->route(src, dst) : minhop_->route(src, dst);
  }
  void route_into(int src, int dst, std::vector<PathShare>& out) const override {
    if (is_cn_[dst]) tables_->route_into(src, dst, out);
    else minhop_->route_into(src, dst, out);
  }
  void route_many(const std::pair<int, int>* pairs, size_t n, RouteSet& out) const override {
    if (std::all_of(pairs, pairs + n, [&](const std::pair<int, int>& p) { return is_cn_[p.second]; }))
      return tables_->route_many(pairs, n, out);
    Routing::route_many(pairs, n, out);
  }

 private:
  std::vector<bool> is_cn_;
  std::vector<std::string> refusals_;
  std::unique_ptr<Routing> tables_, minhop_;
};

}  // namespace

ForwardingTables ftree_tables(const FabricIndex& index) { return FtreeBuilder(index).build(); }

ForwardingTables compute_ftree_tables(const Cluster& cluster) {
  return ftree_tables(FabricIndex(cluster));
}

std::unique_ptr<Routing> make_ftree_routing(std::shared_ptr<const FabricIndex> index) {
  return std::make_unique<FtreeRouting>(std::move(index));
}

}  // namespace slurmtopo

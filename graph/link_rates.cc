#include "graph/link_rates.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "discover/device_ids.h"
#include "graph/cluster.h"
#include "graph/link_ceilings.h"

namespace slurmtopo {
namespace {

using Ids = std::pair<uint32_t, uint32_t>;  // (vendor id, device id)

Ids ids_of(const FabricNode& n) { return {n.vendor_id, n.device_id}; }

struct Evaluated {
  const CableToJudge* cable = nullptr;
  EndCeiling a, b;
  Judged width, speed;
  bool below() const { return width.verdict == RateVerdict::Below || speed.verdict == RateVerdict::Below; }
  bool unknown() const {
    return !below() && (width.verdict == RateVerdict::Unknown || speed.verdict == RateVerdict::Unknown);
  }
  // Below only where both ends' best say so: what a slow-link-group is made of.
  bool below_both_ends() const {
    auto fine = [](const Judged& j) { return j.verdict != RateVerdict::Below || j.both_known; };
    return below() && fine(width) && fine(speed);
  }
  int rate_width() const { return cable->link->width; }
  LinkSpeed rate_speed() const { return cable->link->speed; }
  std::string rate() const { return rate_text(rate_width(), rate_speed()); }
  std::string target() const { return rate_text(width.target, static_cast<LinkSpeed>(speed.target)); }
};

Evaluated evaluate(const CableToJudge& c, const SiteConfig& site) {
  Evaluated e;
  e.cable = &c;
  e.a = end_ceiling(*c.a, c.link->a);
  e.b = end_ceiling(*c.b, c.link->b);
  e.width = judge(c.link->width, e.a.width, e.b.width, site.expected_width);
  e.speed = judge(static_cast<int>(c.link->speed), static_cast<int>(e.a.speed), static_cast<int>(e.b.speed),
                  static_cast<int>(site.expected_speed));
  return e;
}

// The two ends' hardware, the HCA (or the lower switch) first, so cables alike read alike
// whichever end their GUIDs put first: "ConnectX-4 0x1013, SwitchX 0xc738".
std::string both_labels(const Evaluated& e, const char* separator = ", ") {
  const auto x = std::make_pair(e.cable->level_a, e.a.label()), y = std::make_pair(e.cable->level_b, e.b.label());
  return x <= y ? x.second + separator + y.second : y.second + separator + x.second;
}

// Why a cable below its target is: against its ends' best, or the site's expectation.
std::string below_detail(const Evaluated& e, const SiteConfig& site) {
  if (site.expected_width || site.expected_speed != LinkSpeed::Unknown)
    return e.rate() + "; expected " + e.target() + " (the site expects " +
           rate_text(site.expected_width, site.expected_speed) + ", capped by what the ends support: " +
           both_labels(e) + ")";
  return e.rate() + "; both ends support " + e.target() + " (" + both_labels(e) + ")";
}

// The kind of cable a slow-link-group is about: its device pair at its switch levels.
using CableKind = std::tuple<int, std::tuple<int, uint32_t, uint32_t>, std::tuple<int, uint32_t, uint32_t>>;

CableKind kind_of(const CableToJudge& c) {
  auto end = [](int level, const FabricNode& n) { return std::make_tuple(level, n.vendor_id, n.device_id); };
  auto x = end(c.level_a, *c.a), y = end(c.level_b, *c.b);
  if (y < x) std::swap(x, y);
  return {c.fabric, x, y};
}

std::string level_word(int level) { return level == 1 ? "leaves" : "level-" + std::to_string(level) + " switches"; }

// "ConnectX-6 0x101b hosts - Quantum 0xd2f0 leaves", "Quantum 0xd2f0 leaves - Quantum 0xd2f0 level-2 switches".
std::string kind_name(const Evaluated& e) {
  const CableToJudge& c = *e.cable;
  std::string ea = e.a.label() + (c.level_a ? " " + level_word(c.level_a) : " hosts");
  std::string eb = e.b.label() + (c.level_b ? " " + level_word(c.level_b) : " hosts");
  if (c.level_b < c.level_a) std::swap(ea, eb);
  return ea + " - " + eb;
}

std::string group_detail(const Evaluated& e, int cables) {
  const CableToJudge& c = *e.cable;
  const bool host = !c.level_a || !c.level_b;
  const std::string hca = !c.level_a ? e.a.label() : e.b.label();
  return std::to_string(cables) + " cables " + (host ? "of " + hca + " hosts" : "between " + kind_name(e)) + " run " +
         e.rate() + "; both ends support " + e.target() +
         ": cables or a setting chosen that way, or a batch fault";
}

// Why a cable at its target runs at that rate, for the inventory.
std::string at_best_why(const Evaluated& e, const SiteConfig& site) {
  const bool site_set = site.expected_width || site.expected_speed != LinkSpeed::Unknown;
  if (site_set && !(e.width.both_known && e.speed.both_known)) return "as the site expects";
  // Bought faster than the parts can run: say so on the row, it is no cable's fault.
  const bool short_of_site = (site.expected_width && e.rate_width() < site.expected_width) ||
                             (site.expected_speed != LinkSpeed::Unknown && e.rate_speed() < site.expected_speed);
  const std::string site_note =
      short_of_site ? "; the site expects " + rate_text(site.expected_width, site.expected_speed) + ", more than these parts do"
                    : "";
  const bool equal = e.a.speed == e.b.speed && e.a.width == e.b.width;
  if (equal && e.width.both_known && e.speed.both_known)
    return "the best both ends support (" + (e.a.label() == e.b.label() ? e.a.label() : both_labels(e)) + ")" + site_note;
  // The slower end sets it: name it and the dimension it limits.
  auto slower_speed = [](const EndCeiling& x, const EndCeiling& y) {
    return x.speed != LinkSpeed::Unknown && (y.speed == LinkSpeed::Unknown || x.speed < y.speed);
  };
  auto narrower = [](const EndCeiling& x, const EndCeiling& y) { return x.width && (!y.width || x.width < y.width); };
  const EndCeiling& limiter = slower_speed(e.a, e.b)   ? e.a
                              : slower_speed(e.b, e.a) ? e.b
                              : narrower(e.a, e.b)     ? e.a
                                                       : e.b;
  const EndCeiling& other = &limiter == &e.a ? e.b : e.a;
  const bool speed_limit = slower_speed(limiter, other);
  const bool width_limit = limiter.width && other.width && limiter.width < other.width;
  std::string what = rate_text(width_limit ? limiter.width : 0, speed_limit ? limiter.speed : LinkSpeed::Unknown);
  if (what.empty()) what = rate_text(limiter.width, limiter.speed);
  return limiter.label() + " supports " + what + " at most" + (limiter.port_info ? " (its PortInfo)" : "") + site_note;
}

// Everything at_best_why() reads of a cable (the site is the same for all): its ends' levels,
// hardware and best, which evidence is complete, and its rate.
using EndKey = std::tuple<int, uint32_t, uint32_t, LinkSpeed, int, bool>;
using WhyKey = std::tuple<EndKey, EndKey, bool, bool, int, LinkSpeed>;
WhyKey why_key(const Evaluated& e) {
  auto end = [](int level, const EndCeiling& x) {
    return EndKey{level, x.vendor_id, x.device_id, x.speed, x.width, x.port_info};
  };
  return {end(e.cable->level_a, e.a), end(e.cable->level_b, e.b), e.width.both_known, e.speed.both_known,
          e.rate_width(), e.rate_speed()};
}

// The usual value of one dimension among a cable's peers; ties go to the larger.
int usual(const std::vector<int>& values) {
  std::map<int, int> counts;
  for (int v : values)
    if (v) ++counts[v];
  int best = 0, n = 0;
  for (const auto& [v, k] : counts)
    if (k >= n) best = v, n = k;
  return best;
}

struct Row {
  int fabric, width;
  LinkSpeed speed;
  std::string why;
  bool operator<(const Row& o) const {
    return std::tie(fabric, o.speed, o.width, why) < std::tie(o.fabric, speed, width, o.why);  // fastest first
  }
};

}  // namespace

void record_link_rates(Cluster& c, const SiteConfig& site, const std::vector<CableToJudge>& cables,
                       const CableName& cable_name) {
  using K = Anomaly::Kind;
  std::vector<Evaluated> all;
  all.reserve(cables.size());
  for (const auto& cable : cables) all.push_back(evaluate(cable, site));

  std::map<Row, int> rows;
  std::map<WhyKey, std::string> why_at_best;  // cables alike have one reason: made once per kind
  auto count = [&](const Evaluated& e, std::string why) {
    ++rows[{e.cable->fabric, e.rate_width(), e.rate_speed(), std::move(why)}];
  };

  // Peers of a cable whose ends' best is unknown: the cables between the same two device ids.
  std::map<std::tuple<int, Ids, Ids>, std::vector<const Evaluated*>> peers;
  auto peer_key = [](const Evaluated& e) {
    Ids x = ids_of(*e.cable->a), y = ids_of(*e.cable->b);
    if (y < x) std::swap(x, y);
    return std::make_tuple(e.cable->fabric, x, y);
  };
  for (const auto& e : all) peers[peer_key(e)].push_back(&e);

  // Slow kinds: every cable of the kind below both ends' best, most at one rate.
  std::map<CableKind, std::vector<const Evaluated*>> kinds;
  for (const auto& e : all) kinds[kind_of(*e.cable)].push_back(&e);
  std::set<const Evaluated*> grouped;
  for (const auto& [kind, members] : kinds) {
    if (!std::all_of(members.begin(), members.end(), [](const Evaluated* e) { return e->below_both_ends(); })) continue;
    std::map<std::pair<int, LinkSpeed>, std::vector<const Evaluated*>> by_rate;
    for (const Evaluated* e : members) by_rate[{e->rate_width(), e->rate_speed()}].push_back(e);
    const auto most = std::max_element(by_rate.begin(), by_rate.end(),
                                       [](const auto& x, const auto& y) { return x.second.size() < y.second.size(); });
    if (static_cast<int>(most->second.size()) < kSlowGroupMin) continue;
    const Evaluated& first = *most->second.front();
    const int n = static_cast<int>(most->second.size());
    c.anomalies.push_back({K::SlowLinkGroup, kind_name(first), group_detail(first, n), n});
    for (const Evaluated* e : most->second) grouped.insert(e), count(*e, "below what both ends support: slow-link-group");
  }

  for (const auto& e : all) {
    if (grouped.count(&e)) continue;
    if (e.below()) {
      c.anomalies.push_back({K::DegradedLink, cable_name(*e.cable), below_detail(e, site)});
      count(e, "below " + e.target() + ": degraded-link");
      continue;
    }
    if (!e.unknown()) {
      auto [it, fresh] = why_at_best.try_emplace(why_key(e));
      if (fresh) it->second = at_best_why(e, site);
      count(e, it->second);
      continue;
    }
    // Nothing says what the ends support: judge the unknown dimensions against the peers.
    const auto& group = peers[peer_key(e)];
    std::vector<int> widths, speeds;
    for (const Evaluated* p : group) widths.push_back(p->rate_width()), speeds.push_back(static_cast<int>(p->rate_speed()));
    const int usual_width = usual(widths), usual_speed = usual(speeds);
    const bool slow_width = e.width.verdict == RateVerdict::Unknown && e.rate_width() && e.rate_width() < usual_width;
    const bool slow_speed = e.speed.verdict == RateVerdict::Unknown && e.rate_speed() != LinkSpeed::Unknown &&
                            static_cast<int>(e.rate_speed()) < usual_speed;
    const std::string between = both_labels(e, " and ");
    if (group.size() > 1 && (slow_width || slow_speed)) {
      const std::string peer_rate = rate_text(slow_width ? usual_width : 0,
                                              slow_speed ? static_cast<LinkSpeed>(usual_speed) : LinkSpeed::Unknown);
      int at_usual = 0;
      for (const Evaluated* p : group)
        at_usual += p != &e && (!slow_width || p->rate_width() == usual_width) &&
                    (!slow_speed || static_cast<int>(p->rate_speed()) == usual_speed);
      const size_t others = group.size() - 1;
      const std::string peers = others == 1 ? "the other cable between " + between + " runs "
                                            : std::to_string(at_usual) + " of the " + std::to_string(others) +
                                                  " other cables between " + between + " run ";
      c.anomalies.push_back({K::DegradedLink, cable_name(*e.cable),
                             e.rate() + "; " + peers + peer_rate + " (what these devices support is not known)"});
      count(e, "below its peers' " + peer_rate + ": degraded-link");
    } else {
      const std::string ends = e.a.label() == e.b.label() ? e.a.label() + " at both ends" : both_labels(e, " - ");
      count(e, "what the ends support is not known (" + ends + "): like the other cables between them");
    }
  }

  // Rows: at the slower end's best while the fabric has faster cables is mixed generations.
  std::map<int, std::pair<int, int>> fastest;  // fabric → (speed, width) of its fastest row
  for (const auto& [row, n] : rows)
    fastest[row.fabric] = std::max(fastest[row.fabric], std::make_pair(static_cast<int>(row.speed), row.width));
  for (const auto& [row, n] : rows) {
    std::string why = row.why;
    const bool slower = std::make_pair(static_cast<int>(row.speed), row.width) < fastest[row.fabric];
    if (slower && why.find(" at most") != std::string::npos) why += ": mixed generations, not a fault";
    c.link_rates.push_back({row.fabric, row.width, row.speed, why, n});
  }

  // Device ids with no known ceiling, once each: nodes at the ends of judged cables.
  std::map<Ids, std::set<uint64_t>> unknown;
  for (const auto& e : all) {
    if (e.a.speed == LinkSpeed::Unknown && !e.a.width) unknown[ids_of(*e.cable->a)].insert(e.cable->a->guid);
    if (e.b.speed == LinkSpeed::Unknown && !e.b.width) unknown[ids_of(*e.cable->b)].insert(e.cable->b->guid);
  }
  for (const auto& [ids, nodes] : unknown)
    c.unknown_devices.push_back({ids.first, ids.second, static_cast<int>(nodes.size())});
}

}  // namespace slurmtopo

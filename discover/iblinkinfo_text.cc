// iblinkinfo text → Fabric. Port lines, as infiniband-diags 44 prints them:
//   default, under "Switch: 0x0000000000200001 MF0;leaf02:MQM8700/U1:"
//            3    1[  ] ==( 4X   2.5 Gbps Active/  LinkUp)==>       6    1[  ] "gpu003 mlx5_0" ( )
//   default, under "CA: gpu004 mlx5_0:"
//       0x0000000000100007      7    1[  ] ==( 4X ...)==>       3    2[  ] "MF0;leaf02:MQM8700/U1" ( )
//   -l       0x0000000000200001 "   MF0;leaf02:MQM8700/U1"  3  1[  ] ==( ...)==>  0x0000000000100005  6  1[  ] "gpu003 mlx5_0" ( )
//   a port without a cable: ... ==(                Down/ Polling)==>             [  ] "" ( )
#include "discover/iblinkinfo_text.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <set>

#include "base/input_error.h"
#include "base/text.h"

namespace slurmtopo {

namespace {

constexpr const char* kExpected =
    "expected iblinkinfo output: a \"Switch: 0xGUID desc:\" or \"CA: desc:\" header, or a port line "
    "\"LID PORT[ ] ==( width speed state/physical )==> LID PORT[ ] \\\"desc\\\"\"";

// The speed column: per-lane Gb/s as iblinkinfo prints it.
LinkSpeed speed_of(std::string_view middle) {
  if (middle.find("FDR10") != std::string_view::npos) return LinkSpeed::FDR10;
  const size_t gbps = middle.find("Gbps");
  if (gbps == std::string_view::npos) return LinkSpeed::Unknown;
  size_t start = gbps;
  while (start > 0 && middle[start - 1] == ' ') --start;
  size_t end = start;
  while (start > 0 && (std::isdigit(static_cast<unsigned char>(middle[start - 1])) || middle[start - 1] == '.')) --start;
  const double rate = std::atof(std::string(middle.substr(start, end - start)).c_str());
  struct Rate { double gbps; LinkSpeed speed; };
  static constexpr Rate kRates[] = {{2.5, LinkSpeed::SDR},      {5.0, LinkSpeed::DDR},    {10.0, LinkSpeed::QDR},
                                    {14.0625, LinkSpeed::FDR},  {25.78125, LinkSpeed::EDR}, {53.125, LinkSpeed::HDR},
                                    {106.25, LinkSpeed::NDR},   {212.5, LinkSpeed::XDR}};
  for (const Rate& r : kRates)
    if (rate > r.gbps - 0.01 && rate < r.gbps + 0.01) return r.speed;
  return LinkSpeed::Unknown;
}

// iblinkinfo's hint after a link slower than both ends support, in the parentheses after the
// remote description: "(Could be 4X Could be 10.0 Gbps)", "( Could be FDR10)". It is the best
// width and speed both ends' PortInfo share (infiniband-diags get_msg), so it is the cable's
// ceiling; an empty "( )" says nothing (older iblinkinfo checks fewer speeds).
struct CouldBe {
  int width = 0;
  LinkSpeed speed = LinkSpeed::Unknown;
};

CouldBe could_be(std::string_view tail) {
  CouldBe out;
  constexpr std::string_view kHint = "Could be ";
  for (size_t at = tail.find(kHint); at != std::string_view::npos; at = tail.find(kHint, at + 1)) {
    std::string_view rest = tail.substr(at + kHint.size());
    const size_t end = rest.find_first_of(")");
    rest = rest.substr(0, end);
    const size_t x = rest.find_first_of("Xx");
    if (x > 0 && x <= 2 && std::isdigit(static_cast<unsigned char>(rest[0])) &&
        (x + 1 == rest.size() || rest[x + 1] == ' '))
      out.width = std::atoi(std::string(rest.substr(0, x)).c_str());
    else if (rest.starts_with("FDR10"))
      out.speed = LinkSpeed::FDR10;
    else if (const size_t next = rest.find(kHint.substr(0, 5)); next != std::string_view::npos)
      out.speed = speed_of(rest.substr(0, next));
    else
      out.speed = speed_of(rest);
  }
  return out;
}

struct LinkinfoEnd {
  uint64_t guid = 0;  // 0 when the line does not say (default form: only the LID)
  bool has_guid = false;
  std::string description;
  long lid = -1;
  int port = 0;
};

struct LinkinfoLine {
  LinkinfoEnd local, remote;
  bool cabled = false;
  int width = 0;
  LinkSpeed speed = LinkSpeed::Unknown;
  CouldBe best;  // iblinkinfo's "Could be" hint: what both ends support
  int line = 0;
};

class LinkinfoParser {
 public:
  LinkinfoParser(std::string_view text, const std::string& file) : text_(text), file_(file) {}

  Fabric run() {
    size_t start = 0;
    for (line_no_ = 1; start < text_.size(); ++line_no_) {
      size_t nl = text_.find('\n', start);
      std::string_view line = text_.substr(start, nl == std::string_view::npos ? text_.size() - start : nl - start);
      start = nl == std::string_view::npos ? text_.size() : nl + 1;
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      read_line(line);
    }
    return build();
  }

 private:
  [[noreturn]] void fail(const std::string& why) const { throw InputError(file_, line_no_, std::string(kExpected) + "; " + why); }

  void read_line(std::string_view line) {
    const std::string_view t = trim(line);
    if (t.empty()) return;
    if (t.starts_with("Switch:") || t.starts_with("CA:") || t.starts_with("Router:")) return read_header(t);
    if (t.find("==(") == std::string_view::npos) fail("found `" + std::string(t.substr(0, 60)) + "`");
    read_port_line(t);
  }

  // "Switch: 0x0000000000200001 MF0;leaf02:MQM8700/U1:" or "CA: gpu004 mlx5_0:"
  void read_header(std::string_view t) {
    const size_t colon = t.find(':');
    kind_ = t.starts_with("Switch") ? NodeKind::Switch : t.starts_with("CA") ? NodeKind::Ca : NodeKind::Router;
    std::string_view rest = trim(t.substr(colon + 1));
    if (rest.empty() || rest.back() != ':') fail("a header ends with ':'");
    rest = trim(rest.substr(0, rest.size() - 1));
    header_guid_ = 0;
    if (kind_ == NodeKind::Switch) {
      const size_t sp = rest.find(' ');
      if (!rest.starts_with("0x") || !parse_guid(rest.substr(0, sp), header_guid_)) fail("\"Switch: 0xGUID\"");
      rest = sp == std::string_view::npos ? std::string_view() : trim(rest.substr(sp));
    }
    header_description_ = std::string(rest);
    in_header_ = true;
    header_first_guid_ = 0;
  }

  static bool parse_guid(std::string_view s, uint64_t& guid) {
    if (!s.starts_with("0x") || s.size() < 3 || s.size() > 18) return false;
    guid = 0;
    for (char c : s.substr(2)) {
      int v = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
              : (c >= 'a' && c <= 'f')                    ? c - 'a' + 10
              : (c >= 'A' && c <= 'F')                    ? c - 'A' + 10
                                                          : -1;
      if (v < 0) return false;
      guid = guid << 4 | static_cast<uint64_t>(v);
    }
    return true;
  }

  // [0xGUID] ["desc"] [LID] PORT[ext] — the side of a port line before or after the link.
  LinkinfoEnd read_end(std::string_view s, bool remote, bool& down) {
    LinkinfoEnd e;
    s = trim(s);
    if (s.starts_with("0x")) {
      const size_t sp = s.find_first_of(" \t");
      if (!parse_guid(s.substr(0, sp), e.guid)) fail("a GUID 0x...");
      e.has_guid = true;
      s = sp == std::string_view::npos ? std::string_view() : trim(s.substr(sp));
    }
    if (!remote && s.starts_with("\"")) {  // -l: the local description, padded inside its quotes
      const size_t close = s.find('"', 1);
      if (close == std::string_view::npos) fail("the closing '\"' of the description");
      e.description = std::string(trim(s.substr(1, close - 1)));
      s = trim(s.substr(close + 1));
    }
    if (remote) {  // the remote description, in quotes after the port
      const size_t open = s.find('"');
      if (open == std::string_view::npos) fail("the remote's quoted description");
      const size_t close = s.find('"', open + 1);
      if (close == std::string_view::npos) fail("the closing '\"' of the remote's description");
      e.description = std::string(s.substr(open + 1, close - open - 1));
      s = trim(s.substr(0, open));
    }
    // Numbers up to the '[' of the external port: "LID PORT[" or "PORT[" (a CA port line's LID
    // comes first too); nothing at all for a port without a cable.
    const size_t bracket = s.find('[');
    if (bracket == std::string_view::npos) fail("a port number followed by '[ ]'");
    std::string_view numbers = trim(s.substr(0, bracket));
    std::vector<long> values;
    while (!numbers.empty()) {
      size_t sp = numbers.find_first_of(" \t");
      std::string_view w = numbers.substr(0, sp);
      char* endp = nullptr;
      const std::string word(w);
      long v = std::strtol(word.c_str(), &endp, 10);
      if (word.empty() || *endp != '\0') fail("a number, found `" + word + "`");
      values.push_back(v);
      numbers = sp == std::string_view::npos ? std::string_view() : trim(numbers.substr(sp));
    }
    if (values.empty()) {
      if (!remote) fail("the local port number");
      down = true;
      return e;
    }
    if (values.size() > 2) fail("at most a LID and a port before '['");
    e.port = static_cast<int>(values.back());
    if (values.back() < 1 || values.back() > 255) fail("a port number 1-255, found " + std::to_string(values.back()));
    if (values.size() == 2) {
      e.lid = values.front();
      if (e.lid < 0 || e.lid > kMaxUnicastLid) fail("a unicast LID 0-49151, found " + std::to_string(e.lid));
    }
    return e;
  }

  void read_port_line(std::string_view t) {
    const size_t open = t.find("==(");
    const size_t close = t.find(")==>", open);
    if (close == std::string_view::npos) fail("the link's \")==>\"");
    LinkinfoLine p;
    p.line = line_no_;
    bool down = false;
    p.local = read_end(t.substr(0, open), false, down);
    const std::string_view middle = t.substr(open + 3, close - open - 3);
    p.remote = read_end(t.substr(close + 4), true, down);
    const size_t slash = middle.rfind('/');
    const std::string_view phys = slash == std::string_view::npos ? std::string_view() : trim(middle.substr(slash + 1));
    p.cabled = !down && phys == "LinkUp";
    std::string_view m = trim(middle);
    if (p.cabled) {
      const size_t x = m.find_first_of("Xx");
      if (x != std::string_view::npos && x > 0 && x < 3) {
        const int w = std::atoi(std::string(m.substr(0, x)).c_str());
        if (w != 1 && w != 2 && w != 4 && w != 8 && w != 12) fail("a width 1X, 2X, 4X, 8X or 12X");
        p.width = w;
      }
      p.speed = speed_of(m);
      const std::string_view after = t.substr(close + 4);
      const size_t quote = after.rfind('"');
      if (quote != std::string_view::npos) p.best = could_be(after.substr(quote + 1));
    }
    if (in_header_) {  // default form: the header says who the local node is
      if (kind_ == NodeKind::Switch) {
        p.local.guid = header_guid_;
      } else {
        if (!p.local.has_guid) fail("a CA port line starting with its port GUID");
        if (!header_first_guid_) header_first_guid_ = p.local.guid;
        local_port_guid_[{header_first_guid_, p.local.port}] = p.local.guid;
        p.local.guid = header_first_guid_;
      }
      p.local.has_guid = true;
      p.local.description = header_description_;
      kinds_[p.local.guid] = kind_;
    } else if (!p.local.has_guid) {
      fail("a port line under a header, or starting with 0xGUID \"desc\" (-l)");
    }
    lines_.push_back(std::move(p));
  }

  Fabric build() {
    if (lines_.empty()) throw InputError(file_, 0, std::string(kExpected) + "; found no port line");
    // Who is behind a LID (default form), and each node's own facts.
    std::map<long, uint64_t> by_lid;
    std::map<uint64_t, FabricNode> nodes;
    std::map<uint64_t, int> own_lines;
    for (const auto& p : lines_) {
      FabricNode& n = nodes[p.local.guid];
      n.guid = p.local.guid;
      n.description = p.local.description;
      n.num_ports = std::max(n.num_ports, p.local.port);
      if (p.local.lid > 0 && (n.kind == NodeKind::Switch || !n.lid)) n.lid = static_cast<uint16_t>(p.local.lid);
      if (p.local.lid > 0) by_lid.emplace(p.local.lid, p.local.guid);
      ++own_lines[p.local.guid];
    }
    std::vector<Link> links;
    std::map<uint64_t, int> remote_max_port;
    std::set<uint64_t> lid_only;  // GUIDs made up from a LID: no port GUID to look a name up by
    for (const auto& p : lines_) {
      if (!p.cabled) continue;
      LinkinfoEnd r = p.remote;
      if (!r.has_guid) {
        if (r.lid <= 0) {
          line_no_ = p.line;
          fail("a remote LID (the subnet has no SM yet: LIDs are 0)");
        }
        auto it = by_lid.find(r.lid);
        // Not printed (--switches-only): known by its LID alone.
        r.guid = it != by_lid.end() ? it->second : 0xfffe000000000000ull | static_cast<uint64_t>(r.lid);
        if (it == by_lid.end()) lid_only.insert(r.guid);
      }
      FabricNode& peer = nodes[r.guid];
      if (!peer.guid) {  // not printed itself: --switches-only (a CA) or --cas-only (a switch)
        peer.guid = r.guid;
        peer.description = r.description;
        const auto k = kinds_.find(p.local.guid);
        const bool from_ca = k != kinds_.end() ? k->second != NodeKind::Switch : own_lines[p.local.guid] <= 2;
        unprinted_[r.guid] = from_ca ? NodeKind::Switch : NodeKind::Ca;
        if (r.lid > 0) peer.lid = static_cast<uint16_t>(r.lid);
      }
      remote_max_port[r.guid] = std::max(remote_max_port[r.guid], r.port);
      Link l;
      l.a = {p.local.guid, p.local.port, 0, static_cast<uint16_t>(std::max(0L, p.local.lid))};
      l.b = {r.guid, r.port, 0, static_cast<uint16_t>(std::max(0L, r.lid))};
      l.width = p.width;
      l.speed = p.speed;
      for (LinkEnd* e : {&l.a, &l.b}) e->speed_supported = p.best.speed, e->width_supported = p.best.width;
      links.push_back(l);
    }
    // Kinds: the header's, else (-l) by shape: a switch prints every port, a CA one or two.
    for (auto& [guid, n] : nodes) {
      n.num_ports = std::max(n.num_ports, remote_max_port[guid]);
      if (auto k = kinds_.find(guid); k != kinds_.end()) n.kind = k->second;
      else if (auto u = unprinted_.find(guid); u != unprinted_.end()) n.kind = u->second;
      else if (own_lines[guid] > 2 || n.num_ports > 2 || n.description.starts_with("MF0;")) n.kind = NodeKind::Switch;
      else n.kind = NodeKind::Ca;
      // iblinkinfo prints a CA's port GUIDs, never its node GUID.
      n.guid_from_port = n.kind != NodeKind::Switch && !lid_only.count(guid);
    }
    Fabric f;
    for (auto& [guid, n] : nodes) f.nodes.push_back(std::move(n));
    for (auto& l : links) {
      for (LinkEnd* e : {&l.a, &l.b}) {
        const auto it = local_port_guid_.find({e->guid, e->port});
        const FabricNode* n = f.find(e->guid);  // nodes come sorted by GUID from the map
        if (n && n->kind != NodeKind::Switch) e->port_guid = it != local_port_guid_.end() ? it->second : e->guid;
        if (n && n->kind == NodeKind::Switch) e->lid = n->lid;
      }
    }
    f.links = std::move(links);
    normalize(f);
    return f;
  }

  std::string_view text_;
  const std::string& file_;
  int line_no_ = 0;
  bool in_header_ = false;
  NodeKind kind_ = NodeKind::Ca;
  uint64_t header_guid_ = 0, header_first_guid_ = 0;
  std::string header_description_;
  std::map<std::pair<uint64_t, int>, uint64_t> local_port_guid_;  // (CA, port) → port GUID
  std::map<uint64_t, NodeKind> kinds_;      // from the default form's headers
  std::map<uint64_t, NodeKind> unprinted_;  // far ends with no line of their own
  std::vector<LinkinfoLine> lines_;
};

}  // namespace

Fabric parse_iblinkinfo_text(std::string_view text, const std::string& file) { return LinkinfoParser(text, file).run(); }

bool looks_like_iblinkinfo(std::string_view head) {
  size_t start = 0;
  while (start < head.size()) {
    size_t nl = head.find('\n', start);
    std::string_view line = trim(head.substr(start, nl == std::string_view::npos ? head.size() - start : nl - start));
    start = nl == std::string_view::npos ? head.size() : nl + 1;
    if (line.empty()) continue;
    if ((line.starts_with("Switch: 0x") || line.starts_with("CA: ")) && line.back() == ':') return true;
    return line.find("==(") != std::string_view::npos && line.find(")==>") != std::string_view::npos;
  }
  return false;
}

}  // namespace slurmtopo

// ibnetdiscover -p text → Fabric. A line is read word by word (the columns are padded with
// printf widths, never with tabs), the descriptions last since they may hold blanks.
#include "discover/ibnetdiscover_ports_text.h"

#include <algorithm>
#include <map>
#include <optional>
#include <vector>

#include "base/input_error.h"
#include "base/words.h"
#include "discover/ibnetdiscover_noise.h"

namespace slurmtopo {
namespace {

constexpr const char* kLine =
    "an ibnetdiscover -p line \"SW LID PORT 0xGUID 4x HDR - CA LID PORT 0xGUID ( 'desc' - 'desc' )\"";

std::optional<long> decimal(std::string_view w, long max) {
  if (w.empty() || w.size() > 6) return std::nullopt;
  long v = 0;
  for (char c : w) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  if (v > max) return std::nullopt;
  return v;
}

std::optional<uint64_t> hex_guid(std::string_view w) {
  if (!w.starts_with("0x") || w.size() < 3 || w.size() > 18) return std::nullopt;
  uint64_t v = 0;
  for (char c : w.substr(2)) {
    const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    if (d < 0) return std::nullopt;
    v = v << 4 | static_cast<uint64_t>(d);
  }
  return v;
}

std::optional<NodeKind> kind_of(std::string_view w) {
  if (w == "SW") return NodeKind::Switch;
  if (w == "CA") return NodeKind::Ca;
  if (w == "RT") return NodeKind::Router;
  return std::nullopt;
}

struct PortsEnd {
  NodeKind kind = NodeKind::Ca;
  uint16_t lid = 0;
  int port = 0;
  uint64_t guid = 0;
};

struct Row {
  PortsEnd local, remote;
  bool cabled = false;
  int width = 0;
  LinkSpeed speed = LinkSpeed::Unknown;
  std::string_view local_description, remote_description;
  int line = 0;
};

class PortsParser {
 public:
  PortsParser(std::string_view text, const std::string& file) : text_(text), file_(file) {}

  Fabric run() {
    size_t start = 0;
    for (line_no_ = 1; start < text_.size(); ++line_no_) {
      const size_t nl = text_.find('\n', start);
      std::string_view line = text_.substr(start, nl == std::string_view::npos ? text_.size() - start : nl - start);
      start = nl == std::string_view::npos ? text_.size() : nl + 1;
      read_line(trim_blanks(line));
    }
    return build();
  }

 private:
  [[noreturn]] void fail(const std::string& what, std::string_view found) const {
    std::string shown(found.substr(0, 40));
    for (char& c : shown)
      if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f) c = '?';
    throw InputError(file_, line_no_,
                     "expected " + what + ", found " + (found.empty() ? "the end of the line" : "\"" + shown + "\""));
  }

  void read_line(std::string_view line) {
    if (line.empty() || line.front() == '#') return;
    if (is_ibnetdiscover_progress(line)) return;
    if (is_ibnetdiscover_diagnostic(line)) {
      partial_.push_back(file_ + ":" + std::to_string(line_no_) + ": the sweep reported an error: " + std::string(line));
      return;
    }
    Row row;
    row.line = line_no_;
    std::string_view rest = line;
    row.local = read_end(rest, "the local end");
    const std::string_view width = next_word(rest);
    const std::string_view speed = next_word(rest);
    if (speed.empty()) fail("the port's width and speed, like \"4x HDR\"", width);
    rest = trim_blanks(rest);
    if (rest.starts_with("- ")) {
      rest.remove_prefix(2);
      row.cabled = true;
      read_link(width, speed, row);
      row.remote = read_end(rest, "the far end");
      read_descriptions(trim_blanks(rest), row);
    } else {
      // No cable: the port's own description alone, after a run of blanks.
      if (rest.size() < 2 || rest.front() != '\'' || rest.back() != '\'')
        fail("\"- \" and the far end, or the port's own 'description' (no cable)", rest);
      row.local_description = rest.substr(1, rest.size() - 2);
    }
    rows_.push_back(row);
  }

  PortsEnd read_end(std::string_view& rest, const char* which) {
    PortsEnd e;
    const std::string_view kind = next_word(rest);
    const auto k = kind_of(kind);
    if (!k) fail(std::string(kLine) + ": " + which + "'s node kind SW, CA or RT", kind);
    e.kind = *k;
    const std::string_view lid = next_word(rest);
    const auto l = decimal(lid, kMaxUnicastLid);
    if (!l) fail(std::string(which) + "'s unicast LID (0-49151)", lid);
    e.lid = static_cast<uint16_t>(*l);
    const std::string_view port = next_word(rest);
    const auto p = decimal(port, 255);
    if (!p || *p < 1) fail(std::string(which) + "'s port number 1-255", port);
    e.port = static_cast<int>(*p);
    const std::string_view guid = next_word(rest);
    const auto g = hex_guid(guid);
    if (!g) fail(std::string(which) + "'s port GUID 0x<1-16 hex digits>", guid);
    e.guid = *g;
    return e;
  }

  // "4x" "HDR", as dump_linkwidth_compat / dump_linkspeed(ext)_compat print them; "??" and
  // "???" are their words for a value they cannot name.
  void read_link(std::string_view width, std::string_view speed, Row& row) const {
    if (width != "??") {
      const auto lanes = width.ends_with('x') ? decimal(width.substr(0, width.size() - 1), 12) : std::nullopt;
      if (!lanes || (*lanes != 1 && *lanes != 2 && *lanes != 4 && *lanes != 8 && *lanes != 12))
        fail("a width 1x, 2x, 4x, 8x or 12x", width);
      row.width = static_cast<int>(*lanes);
    }
    if (speed != "???") {
      row.speed = parse_link_speed(std::string(speed));
      if (row.speed == LinkSpeed::Unknown) fail("a speed SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR or XDR", speed);
    }
  }

  // ( 'local description' - 'remote description' )
  void read_descriptions(std::string_view rest, Row& row) const {
    if (!rest.starts_with("( '") || !rest.ends_with("' )"))
      fail("both descriptions \"( 'local' - 'remote' )\"", rest);
    const std::string_view inner = rest.substr(3, rest.size() - 6);
    const size_t dash = inner.find("' - '");
    if (dash == std::string_view::npos) fail("\"' - '\" between the two descriptions", rest);
    row.local_description = inner.substr(0, dash);
    row.remote_description = inner.substr(dash + 5);
  }

  static std::string end_name(uint64_t guid, int port) { return "0x" + guid_hex(guid) + "[" + std::to_string(port) + "]"; }

  // The node a line speaks of: one kind for one GUID, whatever line says it.
  FabricNode& node(const PortsEnd& e, int line) {
    auto [it, added] = nodes_.try_emplace(e.guid);
    FabricNode& n = it->second;
    if (added) {
      n.guid = e.guid;
      n.kind = e.kind;
      n.guid_from_port = e.kind != NodeKind::Switch;
      first_line_[e.guid] = line;
    } else if (n.kind != e.kind) {
      line_no_ = line;
      fail(std::string("0x") + guid_hex(e.guid) + " to be a " + to_string(n.kind) + " as line " +
               std::to_string(first_line_[e.guid]) + " says",
           std::string("a ") + to_string(e.kind));
    }
    n.num_ports = std::max(n.num_ports, e.port);
    return n;
  }

  // Each cable from both ends: both lines must name the same two ports.
  void check_cable(const Row& row) {
    auto record = [&](const PortsEnd& from, const PortsEnd& to) {
      const auto [it, added] = cable_of_.try_emplace({from.guid, from.port}, Cabled{to.guid, to.port, row.line});
      if (added || (it->second.guid == to.guid && it->second.port == to.port)) return;
      throw InputError(file_, row.line,
                       "expected " + end_name(from.guid, from.port) + " to be cabled to " +
                           end_name(it->second.guid, it->second.port) + " as line " + std::to_string(it->second.line) +
                           " says, found a cable to " + end_name(to.guid, to.port));
    };
    record(row.local, row.remote);
    record(row.remote, row.local);
  }

  Fabric build() {
    if (rows_.empty())
      throw InputError(file_, 0, std::string("no port line: expected ") + kLine);
    std::map<uint64_t, int> lowest_port;
    for (const Row& row : rows_) {
      FabricNode& n = node(row.local, row.line);
      n.description = std::string(row.local_description);
      has_lines_[row.local.guid] = true;
      // A switch prints its port-0 LID on every line; a CA's LID is its lowest port's.
      auto [low, first] = lowest_port.try_emplace(row.local.guid, row.local.port);
      if (n.kind == NodeKind::Switch || first || row.local.port <= low->second) {
        low->second = row.local.port;
        n.lid = row.local.lid;
      }
    }
    Fabric f;
    for (const Row& row : rows_) {
      if (!row.cabled) continue;
      check_cable(row);
      FabricNode& peer = node(row.remote, row.line);
      if (!has_lines_[row.remote.guid] && peer.description.empty()) {
        peer.description = std::string(row.remote_description);
        peer.lid = row.remote.lid;
        peer.seen_only_as_peer = true;
      }
      Link l;
      for (auto [end, from] : {std::pair{&l.a, &row.local}, std::pair{&l.b, &row.remote}}) {
        end->guid = from->guid;
        end->port = from->port;
        end->lid = from->lid;
        end->port_guid = from->kind == NodeKind::Switch ? 0 : from->guid;
      }
      l.width = row.width;
      l.speed = row.speed;
      f.links.push_back(l);
    }
    for (auto& [guid, n] : nodes_) {
      // A SHARP aggregation node sits on its switch's internal port: not reaching it loses no cable.
      if (n.seen_only_as_peer && n.description.find("Aggregation Node") == std::string::npos)
        partial_.push_back("0x" + guid_hex(guid) + " (" + to_string(n.kind) + " \"" + n.description +
                           "\") has no line of its own, only the cable end at " + file_ + ":" +
                           std::to_string(first_line_[guid]) + ": the sweep did not reach it");
      f.nodes.push_back(std::move(n));
    }
    f.partial = std::move(partial_);
    f.source = file_;
    normalize(f);
    return f;
  }

  struct Cabled {
    uint64_t guid;
    int port;
    int line;
  };

  std::string_view text_;
  const std::string& file_;
  int line_no_ = 0;
  std::vector<Row> rows_;
  std::map<uint64_t, FabricNode> nodes_;
  std::map<uint64_t, int> first_line_;
  std::map<uint64_t, bool> has_lines_;
  std::map<std::pair<uint64_t, int>, Cabled> cable_of_;
  std::vector<std::string> partial_;
};

}  // namespace

Fabric parse_ibnetdiscover_ports_text(std::string_view text, const std::string& file) {
  return PortsParser(text, file).run();
}

bool looks_like_ibnetdiscover_ports(std::string_view head) {
  size_t start = 0;
  while (start < head.size()) {
    const size_t nl = head.find('\n', start);
    std::string_view line = trim_blanks(head.substr(start, nl == std::string_view::npos ? head.size() - start : nl - start));
    start = nl == std::string_view::npos ? head.size() : nl + 1;
    if (line.empty() || is_ibnetdiscover_progress(line) || is_ibnetdiscover_diagnostic(line)) continue;
    std::string_view rest = line;
    return kind_of(next_word(rest)) && decimal(next_word(rest), kMaxUnicastLid) && decimal(next_word(rest), 255) &&
           hex_guid(next_word(rest));
  }
  return false;
}

}  // namespace slurmtopo

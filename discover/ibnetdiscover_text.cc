// ibnetdiscover topology text → Fabric, by hand: a 65k-host dump is ~40 MB and the whole
// pipeline has a 2 s budget, so each line is scanned once, left to right, without regexes,
// port lines (most of the text) allocate nothing beyond their Link, and each cable is merged
// with its other end as soon as that is read. One file for one grammar: the line forms below
// and their quirks are easier to check against real dumps kept together.
//
// The grammar, as every rdma-core/OFED version since 2007 prints it (see the public dumps):
//   vendid=0x2c9 / devid=0x.. / sysimgguid=0x.. / switchguid=0x..(portguid) / caguid= / rtguid=
//   Switch 65 "S-<guid>"  # "<desc>" enhanced port 0 lid 73 lmc 0
//   Ca     2  "H-<guid>"  # "<desc>"
//   [1][ext 1]  "H-<guid>"[1](portguid)  # "<desc>" lid 647 4xNDR s=4 w=2 v=4 e=4   (switch)
//   [1](portguid)  "S-<guid>"[35]  # lid 3 lmc 0 "<desc>" lid 268 4xFDR               (CA, Rt)
// plus comments, blank lines, -g chassis grouping lines, -s progress lines, and umad/ibwarn
// diagnostics that ibnetdiscover interleaves on stderr when a port does not answer
// (discover/ibnetdiscover_noise.h).
#include "discover/ibnetdiscover_text.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cstring>
#include <limits>
#include <tuple>

#include "base/input_error.h"
#include "base/text.h"
#include "base/words.h"
#include "discover/ibnetdiscover_noise.h"
#include "discover/refused_forms.h"

namespace slurmtopo {
namespace {


// Hex digit values, -1 for anything else: GUIDs are most of a dump's digits, and a table
// beats three range tests per character.
constexpr std::array<int8_t, 256> kHexDigit = [] {
  std::array<int8_t, 256> t{};
  t.fill(-1);
  for (int c = '0'; c <= '9'; ++c) t[c] = static_cast<int8_t>(c - '0');
  for (int c = 'a'; c <= 'f'; ++c) t[c] = static_cast<int8_t>(c - 'a' + 10);
  for (int c = 'A'; c <= 'F'; ++c) t[c] = static_cast<int8_t>(c - 'A' + 10);
  return t;
}();

int hex_digit(char c) { return kHexDigit[static_cast<unsigned char>(c)]; }

// A position inside one line. Every reader returns false (or nullopt-like -1) without moving
// when the text there is not what it reads, so callers can try alternatives.
class Cursor {
 public:
  explicit Cursor(std::string_view line) : p_(line.data()), end_(line.data() + line.size()) {}

  bool at_end() const { return p_ == end_; }
  char peek() const { return p_ < end_ ? *p_ : '\0'; }
  const char* pos() const { return p_; }
  const char* end() const { return end_; }
  void seek(const char* p) { p_ = p; }
  std::string_view rest() const { return {p_, static_cast<size_t>(end_ - p_)}; }

  bool skip_blanks() {
    const char* start = p_;
    while (p_ < end_ && is_blank(*p_)) ++p_;
    return p_ != start;
  }
  bool eat(char c) {
    if (p_ < end_ && *p_ == c) return ++p_, true;
    return false;
  }
  bool eat(std::string_view word) {
    if (static_cast<size_t>(end_ - p_) < word.size() || std::memcmp(p_, word.data(), word.size()))
      return false;
    p_ += word.size();
    return true;
  }
  // Decimal number ≤ max; -1 when there is none or it is too large.
  int64_t decimal(int64_t max) {
    const char* q = p_;
    int64_t value = 0;
    while (q < end_ && *q >= '0' && *q <= '9') {
      value = value * 10 + (*q++ - '0');
      if (value > max) return -1;
    }
    if (q == p_) return -1;
    p_ = q;
    return value;
  }
  // 1 to 16 hex digits (ibnetdiscover drops leading zeros inside parentheses).
  bool hex64(uint64_t& value) {
    // Most are full 16-digit GUIDs: read those without a test per digit.
    if (end_ - p_ > 16 && hex_digit(p_[16]) < 0) {
      uint64_t v = 0;
      int bad = 0;
      for (int i = 0; i < 16; ++i) {
        const int d = hex_digit(p_[i]);
        bad |= d;  // any -1 sets the sign bit
        v = v << 4 | static_cast<uint64_t>(d & 15);
      }
      if (bad >= 0) {
        p_ += 16;
        value = v;
        return true;
      }
    }
    const char* q = p_;
    uint64_t v = 0;
    int d;
    while (q < end_ && (d = hex_digit(*q)) >= 0) {
      v = v << 4 | static_cast<uint64_t>(d);
      ++q;
    }
    if (q == p_ || q - p_ > 16) return false;
    p_ = q;
    value = v;
    return true;
  }
  // The next blank-separated word, possibly empty at the end of the line.
  std::string_view word() {
    skip_blanks();
    const char* start = p_;
    while (p_ < end_ && !is_blank(*p_)) ++p_;
    return {start, static_cast<size_t>(p_ - start)};
  }

 private:
  const char* p_;
  const char* end_;
};

// The one keyword read in comments; compared by hand as it is tested on every word.
bool is_lid(std::string_view w) { return w.size() == 3 && w[0] == 'l' && w[1] == 'i' && w[2] == 'd'; }

// Speed names as ibnetdiscover prints them; "???" is its own word for a speed it cannot name.
// Dispatched on the first letter: this runs once per port line.
bool read_speed(std::string_view name, LinkSpeed& speed) {
  auto is = [&](const char* text) { return name == text; };
  if (name.size() < 3) return false;
  switch (name[0]) {
    case 'S': return is("SDR") && (speed = LinkSpeed::SDR, true);
    case 'D': return is("DDR") && (speed = LinkSpeed::DDR, true);
    case 'Q': return is("QDR") && (speed = LinkSpeed::QDR, true);
    case 'F':
      if (is("FDR")) return speed = LinkSpeed::FDR, true;
      return is("FDR10") && (speed = LinkSpeed::FDR10, true);
    case 'E': return is("EDR") && (speed = LinkSpeed::EDR, true);
    case 'H': return is("HDR") && (speed = LinkSpeed::HDR, true);
    case 'N': return is("NDR") && (speed = LinkSpeed::NDR, true);
    case 'X': return is("XDR") && (speed = LinkSpeed::XDR, true);
    case '?': return is("???") && (speed = LinkSpeed::Unknown, true);
  }
  return false;
}

// A comment word such as "4xNDR", "12xEDR", "??NDR" or "4x???" (ibnetdiscover's unknowns).
// Returns false for words that are not a link at all; malformed links are the caller's error.
enum class LinkWord { NotALink, Link, Malformed };
LinkWord read_link_word(std::string_view word, int& width, LinkSpeed& speed) {
  size_t i = 0;
  if (word.substr(0, 2) == "??") {
    width = 0;
    i = 2;
  } else {
    int lanes = 0;
    while (i < word.size() && i < 3 && word[i] >= '0' && word[i] <= '9') lanes = lanes * 10 + (word[i++] - '0');
    // "-4xNDR": a width that cannot be; other words starting with '-' are not links.
    if (i == 0 && word.size() > 2 && word[0] == '-' && word[1] >= '0' && word[1] <= '9' &&
        word.find('x') != std::string_view::npos)
      return LinkWord::Malformed;
    if (i == 0 || i >= word.size() || word[i] != 'x') return LinkWord::NotALink;
    ++i;
    if (lanes != 1 && lanes != 2 && lanes != 4 && lanes != 8 && lanes != 12) return LinkWord::Malformed;
    width = lanes;
  }
  return read_speed(word.substr(i), speed) ? LinkWord::Link : LinkWord::Malformed;
}

// One port line, read without side effects (a placeholder re-reads its line later).
struct PortLine {
  Link link;  // a = the end in this block, b = the far end
  NodeKind peer_kind = NodeKind::Ca;
  std::string_view peer_description;  // points into the dump text
};

// Where each cable end was last named as a far end, so that when the cable's other end prints
// it we merge into the same Link instead of storing every cable twice and sorting it out
// later (half the memory and no sort of 260k links at 65k hosts). Open addressing over
// (GUID, port), since a node-based map would allocate once per cable.
class CableIndex {
 public:
  explicit CableIndex(size_t expected) { rehash(std::bit_ceil(std::max<size_t>(expected + expected / 2, 64))); }

  // The link whose far end is (guid, port), or kNone.
  size_t find(uint64_t guid, int port_number) const {
    auto port = static_cast<uint32_t>(port_number);
    for (size_t i = slot(guid, port);; i = (i + 1) & mask_) {
      const Entry& e = slots_[i];
      if (e.link == kEmpty) return kNone;
      if (e.guid == guid && e.port == port) return e.link;
    }
  }
  // Records `link` as the cable whose far end is (guid, port); if another cable already
  // ends there, returns that one and records nothing.
  size_t insert(uint64_t guid, int port_number, size_t link) {
    auto port = static_cast<uint32_t>(port_number);
    if (2 * (used_ + 1) > slots_.size()) rehash(slots_.size() * 2);
    for (size_t i = slot(guid, port);; i = (i + 1) & mask_) {
      Entry& e = slots_[i];
      if (e.link != kEmpty) {
        if (e.guid == guid && e.port == port) return e.link;
        continue;
      }
      e = {guid, port, static_cast<uint32_t>(link)};
      ++used_;
      return kNone;
    }
  }

  static constexpr size_t kNone = std::numeric_limits<size_t>::max();

 private:
  static constexpr uint32_t kEmpty = std::numeric_limits<uint32_t>::max();
  struct Entry {  // 16 bytes: the table is the parser's largest temporary
    uint64_t guid = 0;
    uint32_t port = 0;
    uint32_t link = kEmpty;
  };
  size_t slot(uint64_t guid, uint32_t port) const {
    uint64_t h = (guid ^ (static_cast<uint64_t>(port) << 56)) * 0x9E3779B97F4A7C15ull;
    return static_cast<size_t>(h >> 20) & mask_;
  }
  void rehash(size_t size) {
    std::vector<Entry> old = std::move(slots_);
    slots_.assign(size, Entry{});
    mask_ = size - 1;
    used_ = 0;
    for (const Entry& e : old)
      if (e.link != kEmpty) insert(e.guid, static_cast<int>(e.port), e.link);
  }
  std::vector<Entry> slots_;
  size_t mask_ = 0;
  size_t used_ = 0;
};

// The same cable as printed from its other end: keep what either end knew. Width and speed
// agree in a sound sweep; when they do not (a port retrained between the two reads, or a
// hand-edited dump such as the man page's) the cable carries no more than the lower, which is
// also what makes it visible as degraded.
void merge_other_end(Link& first, const Link& other) {
  // `other` was printed from first.b's block, so other.a is first.b and other.b is first.a.
  if (!first.b.port_guid) first.b.port_guid = other.a.port_guid;
  if (!first.b.lid) first.b.lid = other.a.lid;
  if (!first.a.port_guid) first.a.port_guid = other.b.port_guid;
  if (!first.a.lid) first.a.lid = other.b.lid;
  if (other.width && (!first.width || other.width < first.width)) first.width = other.width;
  if (other.speed != LinkSpeed::Unknown && (first.speed == LinkSpeed::Unknown || other.speed < first.speed))
    first.speed = other.speed;
}

// Lines of `ibnetdiscover -g` (chassis grouping) that carry no node or cable of their own.
bool is_grouping(std::string_view first_word) {
  return first_word == "Non-Chassis" || first_word == "Chassis" || first_word == "Hostname:" ||
         first_word == "Spine" || first_word == "Line";
}

// The keys of the id lines before a node header ("vendid=0x2c9").
constexpr std::string_view kIdKeys[] = {"vendid", "devid", "sysimgguid", "switchguid", "caguid", "rtguid"};

constexpr const char* kAnyLine =
    "a node header (Switch, Ca, Rt), a port line \"[N] ...\" or an id line (vendid=, devid=, "
    "sysimgguid=, switchguid=, caguid=, rtguid=)";

class DumpParser {
 public:
  DumpParser(std::string_view text, const std::string& file) : text_(text), file_(file) {}

  Fabric run() {
    reject_binary();
    fabric_.source = file_;
    // A modern dump has ~240 bytes per cable (two ~100-byte port lines and a share of a CA
    // block) and ~450 per node; reserving avoids regrowing vectors of 100k+ elements.
    fabric_.links.reserve(text_.size() / 200 + 16);
    link_lines_.reserve(text_.size() / 200 + 16);
    fabric_.nodes.reserve(text_.size() / 400 + 16);
    size_t start = 0;
    while (start < text_.size()) {
      ++line_no_;
      line_start_ = start;
      std::string_view line = line_at(start);
      parse_line(line);
      start += line.size() + 1;
      if (start < text_.size() && text_[start - 1] == '\r') ++start;
    }
    finish();
    return std::move(fabric_);
  }

 private:
  [[noreturn]] void fail(const std::string& expected, std::string_view found) const {
    throw InputError(file_, line_no_, "expected " + expected + ", found " + snippet(found));
  }
  [[noreturn]] void fail_at(int line, const std::string& message) const {
    throw InputError(file_, line, message);
  }

  // The line starting at `offset`, without its "\n" or "\r\n".
  std::string_view line_at(size_t offset) const {
    size_t nl = text_.find('\n', offset);
    size_t stop = nl == std::string_view::npos ? text_.size() : nl;
    if (stop > offset && text_[stop - 1] == '\r') --stop;
    return text_.substr(offset, stop - offset);
  }

  void reject_binary() {
    const char* nul = static_cast<const char*>(std::memchr(text_.data(), '\0', text_.size()));
    if (!nul) return;
    int line = 1 + static_cast<int>(std::count(text_.data(), nul, '\n'));
    fail_at(line, "binary data (NUL byte): expected ibnetdiscover topology text");
  }

  // "# Topology file: generated on Tue Jun  5 14:15:10 2007": ibnetdiscover's ctime() of the
  // sweep, the capturing host's local time. Kept with its runs of blanks collapsed.
  void read_comment(std::string_view line) {
    constexpr std::string_view kGenerated = "# Topology file: generated on ";
    if (!fabric_.captured.empty() || !line.starts_with(kGenerated)) return;
    for (char ch : line.substr(kGenerated.size())) {
      if (is_blank(ch) || ch == '\r') {
        if (!fabric_.captured.empty() && fabric_.captured.back() != ' ') fabric_.captured += ' ';
      } else {
        fabric_.captured += ch;
      }
    }
    while (!fabric_.captured.empty() && fabric_.captured.back() == ' ') fabric_.captured.pop_back();
  }

  void parse_line(std::string_view line) {
    Cursor c(line);
    c.skip_blanks();
    switch (c.peek()) {
      case '[': return parse_port_line(c);
      case '\0': return;  // blank line: blocks are separated by them, but nothing depends on it
      case '#': return read_comment(line);  // the "# Topology file" header, -g section titles
    }
    std::string_view rest = c.rest();
    for (std::string_view key : kIdKeys)  // the usual id lines, without splitting words first
      if (rest.size() > key.size() && rest[key.size()] == '=' && rest.starts_with(key))
        return parse_id_line(key, c, key.size());
    for (auto [word, kind] : {std::pair{std::string_view("Switch"), NodeKind::Switch},
                              std::pair{std::string_view("Ca"), NodeKind::Ca},
                              std::pair{std::string_view("Rt"), NodeKind::Router}})
      if (rest.size() > word.size() && rest.starts_with(word) && is_blank(rest[word.size()]))
        return parse_node_header(c, kind, word.size());
    std::string_view first = first_word(rest);
    size_t eq = first.find('=');
    if (eq != std::string_view::npos) return parse_id_line(rest.substr(0, eq), c, eq);
    if (is_grouping(first)) return;
    if (is_ibnetdiscover_progress(rest)) return;  // -s: the sweep's progress, before the dump
    if (is_ibnetdiscover_diagnostic(rest)) {
      fabric_.partial.push_back(file_ + ":" + std::to_string(line_no_) +
                                ": the sweep reported an error: " + std::string(rest));
      return;
    }
    // A line of a form that is no dump (--diff, a node list) says so, not just "expected".
    if (auto refused = refused_fabric_form(rest)) fail_at(line_no_, refused->message);
    fail(kAnyLine, rest);
  }

  // vendid=0x2c9, devid=0xd2f2, sysimgguid=0x.., switchguid=0x..(portguid), caguid=, rtguid=
  void parse_id_line(std::string_view key, Cursor& c, size_t key_len) {
    if (std::find(std::begin(kIdKeys), std::end(kIdKeys), key) == std::end(kIdKeys))
      fail(kAnyLine, c.rest());
    c.seek(c.pos() + key_len + 1);
    uint64_t value = 0;
    if (!c.eat("0x") || !c.hex64(value)) fail("a hex number 0x... after " + std::string(key) + "=", c.rest());
    if (key == "vendid") {
      pending_.vendor_id = static_cast<uint32_t>(value);
    } else if (key == "devid") {
      pending_.device_id = static_cast<uint32_t>(value);
    } else if (key == "sysimgguid") {
      pending_.sysimgguid = value;
    } else if (key == "switchguid") {
      // The node GUID is read from the "S-<guid>" name, which is what port lines refer to;
      // the parenthesised port GUID is only checked for shape.
      uint64_t port_guid;
      if (c.eat('(') && !(c.hex64(port_guid) && c.eat(')'))) fail("a port GUID \"(hex)\"", c.rest());
    }
    // -g appends "# Chassis 1 (...)" or "# ISR9288 Voltaire sLB-24D Line 5 Chip 1".
    c.skip_blanks();
    if (!c.at_end() && c.peek() != '#') fail("the end of the line or a '#' comment", c.rest());
    if (!pending_line_) pending_line_ = line_no_;
  }

  // "S-0008f10400410015" (quotes included); the letter gives the kind of a peer.
  void read_node_name(Cursor& c, uint64_t& guid, NodeKind& kind) const {
    const char* start = c.pos();
    if (!c.eat('"')) fail("a node name \"S-<guid>\", \"H-<guid>\" or \"R-<guid>\"", c.rest());
    switch (c.peek()) {
      case 'S': kind = NodeKind::Switch; break;
      case 'H': kind = NodeKind::Ca; break;
      case 'R': kind = NodeKind::Router; break;
      default: fail("a node name \"S-<guid>\", \"H-<guid>\" or \"R-<guid>\"", {start, size_t(c.end() - start)});
    }
    c.seek(c.pos() + 1);
    if (!c.eat('-') || !c.hex64(guid) || !c.eat('"'))
      fail("a node name with a GUID of 1-16 hex digits, like \"S-0008f10400410015\"",
           {start, size_t(c.end() - start)});
  }

  int read_port(Cursor& c, const char* what) const {
    const char* start = c.pos();
    int64_t port = -1;
    if (!c.eat('[') || (port = c.decimal(255)) < 0 || !c.eat(']'))
      fail(std::string(what) + " \"[N]\" with N in 0-255", {start, size_t(c.end() - start)});
    // -g prints the front-panel number of director ports: "[7][ext 13]".
    if (c.peek() == '[' && c.eat("[ext")) {
      c.skip_blanks();
      if (c.decimal(255) < 0 || !c.eat(']')) fail("an external port number \"[ext N]\"", c.rest());
    }
    return static_cast<int>(port);
  }

  bool read_port_guid(Cursor& c, uint64_t& guid) const {
    if (!c.eat('(')) return false;
    if (!c.hex64(guid) || !c.eat(')')) fail("a port GUID \"(hex)\"", c.rest());
    return true;
  }

  uint16_t read_lid(Cursor& c) const {
    c.skip_blanks();
    // Unicast LIDs are 1-0xBFFF; 0 is a port the SM has not configured.
    int64_t lid = c.decimal(kMaxUnicastLid);
    if (lid < 0) fail("a unicast LID (0-49151) after \"lid\"", c.rest());
    return static_cast<uint16_t>(lid);
  }

  // The node description: from the opening quote to the LAST quote on the line, since
  // descriptions may hold quotes, '#' and ';' but nothing after them does.
  std::string_view read_description(Cursor& c) const {
    const char* open = c.pos();
    const char* close = c.end();
    while (close > open + 1 && close[-1] != '"') --close;
    if (close <= open + 1) fail("the closing '\"' of the node description (line cut off?)", c.rest());
    c.seek(close);
    return {open + 1, static_cast<size_t>(close - 1 - (open + 1))};
  }

  // Switch 65 "S-2c5eab0300b87b40"  # "MF0;A09-P1-IBLEAF-04-04:MQM9701/U1" enhanced port 0 lid 73 lmc 0
  void parse_node_header(Cursor& c, NodeKind kind, size_t word_len) {
    c.seek(c.pos() + word_len);
    c.skip_blanks();
    FabricNode node = pending_;
    node.kind = kind;
    const char* count_at = c.pos();
    int64_t ports = c.decimal(255);
    if (ports < 1) {
      c.seek(count_at);  // quote the count itself ("0 ...") not what follows it
      fail("the port count (1-255) after " + std::string(to_string(kind)), c.rest());
    }
    node.num_ports = static_cast<int>(ports);
    c.skip_blanks();
    NodeKind named_kind;  // S-/H-/R- always matches the keyword in real dumps; the keyword rules
    read_node_name(c, node.guid, named_kind);
    c.skip_blanks();
    if (!c.eat('#')) fail("'# \"node description\"' after the node name", c.rest());
    c.skip_blanks();
    if (c.peek() != '"') fail("the quoted node description after '#'", c.rest());
    node.description = std::string(read_description(c));
    // Then "enhanced port 0 lid 73 lmc 0" for switches, possibly " (scp)" for CAs; only the
    // switch LID matters and the rest is skipped so that new fields do not break old readers.
    for (std::string_view w = c.word(); !w.empty(); w = c.word())
      if (is_lid(w)) node.lid = read_lid(c);
    fabric_.nodes.push_back(std::move(node));
    node_lines_.push_back(line_no_);
    current_ = fabric_.nodes.size() - 1;
    current_lowest_port_ = std::numeric_limits<int>::max();
    pending_ = FabricNode{};
    pending_line_ = 0;
  }

  // [1]  "H-e09d7303007a4bd8"[1](e09d7303007a4bd8)  # "a08-p1-dgx-04-c01 mlx5_5" lid 647 4xNDR
  // [1](e41d2d030061f957)  "S-e41d2d030003e470"[34]  # lid 2 lmc 0 "SwitchIB ..." lid 268 4xEDR
  void parse_port_line(Cursor& c) {
    if (current_ == kNone) fail("a Switch/Ca/Rt header before the first port line", c.rest());
    if (pending_line_)
      fail("a Switch/Ca/Rt header after the id lines at line " + std::to_string(pending_line_) +
               " (header cut off?)",
           c.rest());
    FabricNode& self = fabric_.nodes[current_];
    PortLine port = read_port_line(c, self);
    if (self.kind != NodeKind::Switch && port.link.a.port < current_lowest_port_) {
      current_lowest_port_ = port.link.a.port;  // a CA's LID is its first port's
      self.lid = port.link.a.lid;
    }
    add_cable_end(port.link);
  }

  PortLine read_port_line(Cursor& c, const FabricNode& self) const {
    PortLine port;
    Link& link = port.link;
    link.a.guid = self.guid;
    const char* local_at = c.pos();  // errors quote the port itself: "[0]", not what follows
    link.a.port = read_port(c, "a local port number");
    // Port 0 is a switch's management port, inside the ASIC: no cable ends there.
    if (link.a.port < 1 || link.a.port > self.num_ports) {
      c.seek(local_at);
      fail("a port number within the node's ports 1-" + std::to_string(self.num_ports), c.rest());
    }
    read_port_guid(c, link.a.port_guid);
    c.skip_blanks();
    if (c.at_end()) fail("the remote end \"S-/H-/R-<guid>\"[port] (line cut off?)", c.rest());
    read_node_name(c, link.b.guid, port.peer_kind);
    const char* remote_at = c.pos();
    link.b.port = read_port(c, "the remote port number");
    if (link.b.port < 1) {
      c.seek(remote_at);
      fail("a remote port number 1-255 (port 0 takes no cable)", c.rest());
    }
    c.skip_blanks();
    read_port_guid(c, link.b.port_guid);
    c.skip_blanks();
    if (self.kind == NodeKind::Switch) link.a.lid = self.lid;
    if (c.eat('#')) read_port_comment(c, link, port.peer_description);
    return port;
  }

  // Each cable is printed from both ends: the second time, merge into the first. A port that
  // two lines cable to different places means a corrupt or spliced dump.
  void add_cable_end(const Link& link) {
    size_t first = cables_.find(link.a.guid, link.a.port);
    if (first != CableIndex::kNone) {
      Link& known = fabric_.links[first];
      if (known.a.guid == link.b.guid && known.a.port == link.b.port) return merge_other_end(known, link);
      fail_at(line_no_, "expected " + end_name(link.a) + " to be cabled to " + end_name(known.a) + " as line " +
                            std::to_string(link_lines_[first].line) + " says, found a cable to " + end_name(link.b));
    }
    size_t other = cables_.insert(link.b.guid, link.b.port, fabric_.links.size());
    if (other != CableIndex::kNone)
      fail_at(line_no_, "expected one cable per port, but " + end_name(link.b) + " is also cabled to " +
                            end_name(fabric_.links[other].a) + " at line " + std::to_string(link_lines_[other].line));
    fabric_.links.push_back(link);
    link_lines_.push_back({line_start_, line_no_});
  }

  static std::string end_name(const LinkEnd& end) {
    return "0x" + guid_hex(end.guid) + "[" + std::to_string(end.port) + "]";
  }

  // Switch side: "<desc>" lid 647 4xNDR [s=4 w=2 v=4 e=4]
  // CA side:     lid 3 lmc 0 "<desc>" lid 268 4xFDR
  void read_port_comment(Cursor& c, Link& link, std::string_view& description) const {
    const char* open = c.pos();
    while (open < c.end() && *open != '"') ++open;
    if (open < c.end()) {
      Cursor local(std::string_view(c.pos(), open - c.pos()));
      for (std::string_view w = local.word(); !w.empty(); w = local.word())
        if (is_lid(w)) link.a.lid = read_lid(local);
      c.seek(open);
      description = read_description(c);
    }
    bool have_link = false;
    for (std::string_view w = c.word(); !w.empty(); w = c.word()) {
      if (is_lid(w)) {
        link.b.lid = read_lid(c);
      } else if (!have_link) {
        switch (read_link_word(w, link.width, link.speed)) {
          case LinkWord::Link: have_link = true; break;
          case LinkWord::Malformed: fail("a link like 4xNDR (width 1x/2x/4x/8x/12x, speed SDR..XDR)", w);
          case LinkWord::NotALink: break;  // later versions append fields (s=4 w=2 ...)
        }
      }
    }
  }

  void finish() {
    if (pending_line_)
      fail_at(pending_line_, "expected a Switch/Ca/Rt header after these id lines (dump cut off?)");
    if (fabric_.nodes.empty()) {
      bool blank = text_.find_first_not_of(" \t\r\n") == std::string_view::npos;
      fail_at(0, blank ? "empty file: expected ibnetdiscover topology text"
                       : "no Switch/Ca/Rt block: expected ibnetdiscover topology text");
    }
    std::vector<BlockRef> blocks = blocks_by_guid();
    add_peers_without_block(blocks);
    order_nodes_by_guid(blocks);
    normalize(fabric_);
  }

  struct BlockRef {
    uint64_t guid;
    int line;      // of the node header
    size_t index;  // in fabric_.nodes
    auto key() const { return std::tie(guid, line); }
  };

  // The nodes with a block, by GUID; a node with two blocks is an error.
  std::vector<BlockRef> blocks_by_guid() const {
    std::vector<BlockRef> blocks;
    blocks.reserve(fabric_.nodes.size());
    for (size_t i = 0; i < fabric_.nodes.size(); ++i) blocks.push_back({fabric_.nodes[i].guid, node_lines_[i], i});
    std::sort(blocks.begin(), blocks.end(), [](const BlockRef& x, const BlockRef& y) { return x.key() < y.key(); });
    for (size_t i = 1; i < blocks.size(); ++i)
      if (blocks[i].guid == blocks[i - 1].guid)
        fail_at(blocks[i].line, "expected one block per node, but 0x" + guid_hex(blocks[i].guid) +
                                    " already has one at line " + std::to_string(blocks[i - 1].line));
    return blocks;
  }

  // A node that is only a cable's far end was not reached by the sweep: keep it as a
  // placeholder so the cable is not lost, and say so. Its kind, description and LID are what
  // the first port line naming it says, so that line is read again.
  void add_peers_without_block(const std::vector<BlockRef>& blocks) {
    auto block_of = [&](uint64_t guid) -> const BlockRef* {
      auto it = std::lower_bound(blocks.begin(), blocks.end(), guid,
                                 [](const BlockRef& b, uint64_t g) { return b.guid < g; });
      return it != blocks.end() && it->guid == guid ? &*it : nullptr;
    };
    struct Unreached {
      uint64_t guid;
      int line;
      size_t link;
      auto key() const { return std::tie(guid, line); }
    };
    std::vector<Unreached> unreached;  // every cable end on a node without block
    for (size_t i = 0; i < fabric_.links.size(); ++i) {
      const LinkEnd& b = fabric_.links[i].b;
      const BlockRef* block = block_of(b.guid);
      if (!block) {
        unreached.push_back({b.guid, link_lines_[i].line, i});
        continue;
      }
      // The far port must exist on the far node ("[70]" on a 65-port switch cannot).
      const int ports = fabric_.nodes[block->index].num_ports;
      if (b.port > ports)
        fail_at(link_lines_[i].line, "expected a remote port within 0x" + guid_hex(b.guid) + "'s ports 1-" +
                                         std::to_string(ports) + " (its block at line " + std::to_string(block->line) +
                                         "), found [" + std::to_string(b.port) + "]");
    }
    std::sort(unreached.begin(), unreached.end(), [](const Unreached& x, const Unreached& y) { return x.key() < y.key(); });
    for (size_t k = 0; k < unreached.size(); ++k) {
      if (k > 0 && unreached[k - 1].guid == unreached[k].guid) continue;  // first mention only
      auto [guid, line, i] = unreached[k];
      const FabricNode& self = fabric_.nodes[block_of(fabric_.links[i].a.guid)->index];
      Cursor c(line_at(link_lines_[i].offset));
      c.skip_blanks();
      PortLine port = read_port_line(c, self);
      FabricNode node;
      node.kind = port.peer_kind;
      node.guid = guid;
      node.description = std::string(port.peer_description);
      node.lid = port.link.b.lid;
      node.seen_only_as_peer = true;
      // A SHARP aggregation node lives on its switch's internal port: a dump without its block
      // (superbench's hand-made one) misses no cable and no host, so the sweep is not partial.
      if (node.description.find("Aggregation Node") == std::string::npos)
        fabric_.partial.push_back("0x" + guid_hex(guid) + " (" + to_string(node.kind) + " \"" + node.description +
                                  "\") has no block of its own, only the cable end at " + file_ + ":" +
                                  std::to_string(line) + ": the sweep did not reach it");
      fabric_.nodes.push_back(std::move(node));
    }
  }

  // The nodes in GUID order, each moved once, so that normalize finds them sorted: the blocks
  // are sorted already (blocks_by_guid), and the placeholders follow them in GUID order.
  void order_nodes_by_guid(const std::vector<BlockRef>& blocks) {
    std::vector<FabricNode> nodes;
    nodes.reserve(fabric_.nodes.size());
    size_t b = 0, p = blocks.size();
    while (b < blocks.size() || p < fabric_.nodes.size()) {
      if (p == fabric_.nodes.size() || (b < blocks.size() && blocks[b].guid < fabric_.nodes[p].guid))
        nodes.push_back(std::move(fabric_.nodes[blocks[b++].index]));
      else
        nodes.push_back(std::move(fabric_.nodes[p++]));
    }
    fabric_.nodes = std::move(nodes);
  }

  static constexpr size_t kNone = std::numeric_limits<size_t>::max();

  std::string_view text_;
  const std::string& file_;
  Fabric fabric_;
  int line_no_ = 0;
  FabricNode pending_;  // what the id lines said about the next node
  int pending_line_ = 0;
  size_t current_ = kNone;
  int current_lowest_port_ = 0;
  std::vector<int> node_lines_;  // header line of each node, for duplicate-block errors
  struct LineRef {
    size_t offset;
    int line;
  };
  std::vector<LineRef> link_lines_;  // where each link was first printed
  size_t line_start_ = 0;            // offset of the line being parsed
  CableIndex cables_{text_.size() / 240};
};

}  // namespace

Fabric parse_ibnetdiscover_text(std::string_view text, const std::string& file) {
  return DumpParser(text, file).run();
}

bool looks_like_ibnetdiscover_text(std::string_view head) {
  if (head.find('\0') != std::string_view::npos) return false;
  size_t start = 0;
  while (start < head.size()) {
    size_t nl = head.find('\n', start);
    std::string_view line = head.substr(start, nl == std::string_view::npos ? head.size() - start : nl - start);
    start = nl == std::string_view::npos ? head.size() : nl + 1;
    while (!line.empty() && is_blank(line.front())) line.remove_prefix(1);
    if (line.starts_with("# Topology file") || line.starts_with("vendid=") ||
        line.starts_with("devid=") || line.starts_with("sysimgguid=") ||
        line.starts_with("switchguid=") || line.starts_with("caguid=") ||
        line.starts_with("Non-Chassis Nodes") || is_ibnetdiscover_diagnostic(line))
      return true;
    for (std::string_view kind : {"Switch", "Ca", "Rt"})
      if (line.starts_with(kind) && line.size() > kind.size() + 1 && is_blank(line[kind.size()]))
        return true;
  }
  return false;
}

}  // namespace slurmtopo

// Fabric → ibnetdiscover text in the rdma-core 44 layout, so that every tool that reads real
// dumps (ours included) reads what `generate` writes. Output is deterministic: switches, then
// CAs, then routers, each by GUID; ports in order; no timestamp.
#include "discover/ibnetdiscover_writer.h"

#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>

#include "base/version.h"

namespace slurmtopo {
namespace {

// Field formats, so a line reads as one << chain.
struct Dec { uint64_t value; };
struct Hex { uint64_t value; };    // as ibnetdiscover prints GUIDs in parentheses: no padding
struct Hex16 { uint64_t value; };  // as inside "S-<guid>" names
// NodeDescriptions are printable in a real sweep; anything else (a hand-made snapshot) would
// break the line structure, so it becomes a space, as ibnetdiscover's clean_nodedesc() does.
struct Description { std::string_view text; };

// Appends to one buffer and hands the stream large blocks: a 65k-host fabric is ~40 MB of
// short fields, and per-field ostream calls would dominate the time.
class TextBuffer {
 public:
  explicit TextBuffer(std::ostream& out) : out_(out) { buf_.reserve(kFlushAt + 4096); }
  ~TextBuffer() { flush(); }
  TextBuffer(const TextBuffer&) = delete;
  TextBuffer& operator=(const TextBuffer&) = delete;

  TextBuffer& operator<<(std::string_view s) {
    buf_.append(s);
    if (buf_.size() >= kFlushAt) flush();
    return *this;
  }
  TextBuffer& operator<<(char c) { return buf_.push_back(c), *this; }
  TextBuffer& operator<<(Dec d) { return number(d.value, 10); }
  TextBuffer& operator<<(Hex h) { return number(h.value, 16); }
  TextBuffer& operator<<(Hex16 h) {
    char digits[16];
    uint64_t v = h.value;
    for (int i = 15; i >= 0; --i, v >>= 4) digits[i] = "0123456789abcdef"[v & 15];
    return *this << std::string_view(digits, 16);
  }
  TextBuffer& operator<<(Description d) {
    for (char c : d.text) buf_.push_back(static_cast<unsigned char>(c) < 0x20 || c == 0x7f ? ' ' : c);
    return *this;
  }
  void flush() {
    out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    buf_.clear();
  }

 private:
  TextBuffer& number(uint64_t v, int base) {
    char digits[24];
    auto end = std::to_chars(digits, digits + sizeof digits, v, base).ptr;
    return *this << std::string_view(digits, end - digits);
  }
  static constexpr size_t kFlushAt = 1 << 16;
  std::ostream& out_;
  std::string buf_;
};

char name_letter(NodeKind kind) {
  switch (kind) {
    case NodeKind::Switch: return 'S';
    case NodeKind::Ca: return 'H';
    case NodeKind::Router: return 'R';
  }
  return '?';
}

// One end of a cable as seen from the node that owns it.
struct PortView {
  uint64_t guid;
  int port;
  size_t link;
  bool is_a;  // this node's end is link.a
  auto key() const { return std::tie(guid, port, link, is_a); }
};

class DumpWriter {
 public:
  DumpWriter(const Fabric& fabric, std::ostream& out) : fabric_(fabric), out_(out) {
    ports_.reserve(fabric.links.size() * 2);
    for (size_t i = 0; i < fabric.links.size(); ++i) {
      const Link& l = fabric.links[i];
      ports_.push_back({l.a.guid, l.a.port, i, true});
      ports_.push_back({l.b.guid, l.b.port, i, false});
    }
    std::sort(ports_.begin(), ports_.end(), [](const PortView& x, const PortView& y) { return x.key() < y.key(); });
  }

  void write() {
    out_ << "#\n# Topology file: written by slurmtopo " << slurmtopo_version() << " for fabric \"" << Description{fabric_.name}
         << "\"\n#\n";
    // Partial-sweep notes have no ibnetdiscover line of their own; keep them for a reader.
    for (const auto& note : fabric_.partial) out_ << "# partial: " << Description{note} << '\n';
    for (NodeKind kind : {NodeKind::Switch, NodeKind::Ca, NodeKind::Router})
      for (const auto& node : fabric_.nodes)
        // A node seen only as a cable's far end had no block in the sweep; writing none keeps
        // it that way when the text is read back.
        if (node.kind == kind && !node.seen_only_as_peer) write_block(node);
  }

 private:
  void write_block(const FabricNode& node) {
    out_ << "\nvendid=0x" << Hex{node.vendor_id} << "\ndevid=0x" << Hex{node.device_id} << '\n';
    if (node.sysimgguid) out_ << "sysimgguid=0x" << Hex{node.sysimgguid} << '\n';
    switch (node.kind) {
      case NodeKind::Switch:
        // The switch port GUID is not in the model; on every switch seen it equals the node GUID.
        out_ << "switchguid=0x" << Hex{node.guid} << '(' << Hex{node.guid} << ")\nSwitch\t";
        break;
      case NodeKind::Ca: out_ << "caguid=0x" << Hex{node.guid} << "\nCa\t"; break;
      case NodeKind::Router: out_ << "rtguid=0x" << Hex{node.guid} << "\nRt\t"; break;
    }
    out_ << Dec{static_cast<uint64_t>(node.num_ports)} << " \"" << name_letter(node.kind) << '-'
         << Hex16{node.guid} << "\"\t\t# \"" << Description{node.description} << '"';
    if (node.kind == NodeKind::Switch) out_ << " enhanced port 0 lid " << Dec{node.lid} << " lmc 0";
    out_ << '\n';

    auto first = std::lower_bound(ports_.begin(), ports_.end(), node.guid,
                                  [](const PortView& p, uint64_t g) { return p.guid < g; });
    for (auto it = first; it != ports_.end() && it->guid == node.guid; ++it) write_port(node, *it);
  }

  void write_port(const FabricNode& node, const PortView& view) {
    const Link& link = fabric_.links[view.link];
    const LinkEnd& self = view.is_a ? link.a : link.b;
    const LinkEnd& peer = view.is_a ? link.b : link.a;
    const FabricNode* remote = fabric_.find(peer.guid);
    if (!remote) throw std::invalid_argument("cable end 0x" + guid_hex(peer.guid) + " has no node in the fabric");
    bool from_switch = node.kind == NodeKind::Switch;

    out_ << '[' << Dec{static_cast<uint64_t>(self.port)} << ']';
    if (!from_switch && self.port_guid) out_ << '(' << Hex{self.port_guid} << ") ";
    out_ << "\t\"" << name_letter(remote->kind) << '-' << Hex16{peer.guid} << "\"["
         << Dec{static_cast<uint64_t>(peer.port)} << ']';
    if (remote->kind != NodeKind::Switch && peer.port_guid)
      out_ << (from_switch ? "(" : " (") << Hex{peer.port_guid} << ") ";
    out_ << "\t\t# ";
    if (!from_switch) out_ << "lid " << Dec{self.lid} << " lmc 0 ";
    out_ << '"' << Description{remote->description} << "\" lid " << Dec{peer.lid};
    write_link(link);
    out_ << '\n';
  }

  // ibnetdiscover's spelling, unknowns included ("??" width, "???" speed); a cable with
  // neither known gets no link word at all, as old versions print.
  void write_link(const Link& link) {
    if (!link.width && link.speed == LinkSpeed::Unknown) return;
    out_ << ' ';
    if (link.width) out_ << Dec{static_cast<uint64_t>(link.width)} << 'x';
    else out_ << "??";
    out_ << (link.speed == LinkSpeed::Unknown ? "???" : to_string(link.speed));
  }

  const Fabric& fabric_;
  TextBuffer out_;
  std::vector<PortView> ports_;
};

}  // namespace

void write_ibnetdiscover_text(const Fabric& fabric, std::ostream& out) {
  DumpWriter(fabric, out).write();
}

}  // namespace slurmtopo

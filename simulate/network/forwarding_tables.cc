#include "simulate/network/forwarding_tables.h"

#include <algorithm>
#include <cctype>
#include <cinttypes>
#include <cstdio>
#include <fstream>
#include <istream>
#include <ostream>
#include <set>

#include "base/files.h"
#include "base/input_error.h"

namespace slurmtopo {
namespace {

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  const size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

// Parses hex digits at s[pos...]; returns the count consumed (0 if none or overflow).
size_t parse_hex(const std::string& s, size_t pos, uint64_t& value, int max_digits = 16) {
  value = 0;
  size_t n = 0;
  while (pos + n < s.size() && std::isxdigit(static_cast<unsigned char>(s[pos + n]))) {
    if (static_cast<int>(n) >= max_digits) return 0;
    const char ch = s[pos + n];
    const int digit = std::isdigit(static_cast<unsigned char>(ch)) ? ch - '0' : (std::tolower(ch) - 'a' + 10);
    value = value * 16 + static_cast<uint64_t>(digit);
    ++n;
  }
  return n;
}

// "N valid lids dumped", "N lids dumped": the block's own count of its entries, as its digits
// without leading zeros (a damaged dump can hold more digits than any integer).
bool parse_count_line(const std::string& t, std::string& count) {
  size_t pos = 0;
  while (pos < t.size() && std::isdigit(static_cast<unsigned char>(t[pos]))) ++pos;
  if (pos == 0) return false;
  const std::string rest = trim(t.substr(pos));
  if (rest != "valid lids dumped" && rest != "lids dumped") return false;
  const size_t first = std::min(t.find_first_not_of('0'), pos - 1);
  count = t.substr(first, pos - first);
  return true;
}

}  // namespace

ForwardingTables read_forwarding_tables(std::istream& in, const std::string& file) {
  ForwardingTables tables;
  std::vector<uint8_t>* current = nullptr;
  uint64_t current_guid = 0;
  std::set<uint32_t> seen_lids;
  long entries = 0;
  bool in_multicast = false;
  std::string line;
  int number = 0;
  auto fail = [&](const std::string& what) { throw InputError(file, number, what); };

  while (std::getline(in, line)) {
    ++number;
    const std::string t = trim(line);
    if (t.empty() || t[0] == '#' || starts_with(t, "***") || starts_with(t, "ibwarn:")) continue;

    if (starts_with(t, "Unicast lids")) {
      in_multicast = false;
      const size_t g = t.find(" guid 0x");
      uint64_t guid = 0;
      if (g == std::string::npos || parse_hex(t, g + 8, guid) == 0)
        fail("expected 'Unicast lids [0x..-0x..] of switch ... guid 0x<16 hex digits> (...):'");
      if (tables.by_switch.count(guid))
        fail("switch guid 0x" + guid_hex(guid) + " has a second table in the same dump");
      // The LID range "[0x0-0x1f]" sizes the table; entries may still extend it.
      uint64_t top = 0;
      const size_t dash = t.find('-');
      if (t.find('[') == std::string::npos || dash == std::string::npos || dash > g ||
          t.compare(dash + 1, 2, "0x") != 0 || parse_hex(t, dash + 3, top, 5) == 0 || top > 0xffff)
        fail("expected the LID range '[0x<first>-0x<last>]' in the table header");
      current = &tables.by_switch[guid];
      current->assign(top + 1, ForwardingTables::kNoPort);
      current_guid = guid;
      seen_lids.clear();
      entries = 0;
      continue;
    }
    if (starts_with(t, "Multicast mlids")) {
      in_multicast = true;
      current = nullptr;
      continue;
    }
    if (in_multicast) continue;  // port masks, MLid rows, their count line
    if (starts_with(t, "Lid") && t.find("Out") != std::string::npos) continue;  // column header
    if (starts_with(t, "Port") && t.find("Info") != std::string::npos) continue;

    std::string count;
    if (parse_count_line(t, count)) {
      if (!current) fail("a 'lids dumped' line outside a switch's table");
      if (count != std::to_string(entries))
        fail("the table of switch 0x" + guid_hex(current_guid) + " says " + count +
             " lids but lists " + std::to_string(entries) + " (truncated dump?)");
      current = nullptr;
      continue;
    }

    if (starts_with(t, "0x")) {
      if (!current) fail("a LID entry outside a switch's table (no 'Unicast lids ... guid' header before it)");
      uint64_t lid = 0;
      const size_t digits = parse_hex(t, 2, lid, 8);
      if (digits == 0 || lid > 0xffff) fail("expected a LID '0x<hex>' of at most 0xffff, got '" + t + "'");
      size_t pos = 2 + digits;
      if (pos >= t.size() || (t[pos] != ' ' && t[pos] != '\t'))
        fail("expected '<lid> <out port>' (e.g. '0x0001 017'), got '" + t + "'");
      while (pos < t.size() && (t[pos] == ' ' || t[pos] == '\t')) ++pos;
      const size_t port_start = pos;
      while (pos < t.size() && std::isdigit(static_cast<unsigned char>(t[pos]))) ++pos;
      if (pos == port_start || pos - port_start > 3)
        fail("expected a decimal out port after the LID, got '" + t + "'");
      const int port = std::stoi(t.substr(port_start, pos - port_start));
      if (port > 255) fail("out port " + std::to_string(port) + " is not a port number (0-254, 255 = none)");
      if (pos < t.size() && t[pos] != ' ' && t[pos] != '\t' && t[pos] != ':')
        fail("expected '<lid> <out port>' (e.g. '0x0001 017'), got '" + t + "'");
      if (!seen_lids.insert(static_cast<uint32_t>(lid)).second)
        fail("LID 0x" + std::string(t.substr(2, digits)) + " appears twice in the table of switch 0x" +
             guid_hex(current_guid));
      if (lid >= current->size()) current->resize(lid + 1, ForwardingTables::kNoPort);
      (*current)[lid] = static_cast<uint8_t>(port);
      ++entries;
      continue;
    }
    fail("expected a forwarding table line (dump_fts/ibroute output), got '" + t + "'");
  }
  if (tables.by_switch.empty())
    throw InputError(file, 0, "no unicast forwarding table ('Unicast lids ... of switch ... guid') in it");
  return tables;
}

ForwardingTables read_forwarding_tables_file(const std::string& path) {
  expect_readable_kind(path);
  std::ifstream in(path);
  if (!in) throw InputError(path, 0, "cannot open the forwarding table dump");
  return read_forwarding_tables(in, path);
}

void write_forwarding_tables(std::ostream& out, const ForwardingTables& tables,
                             const Cluster* cluster) {
  char buf[64];
  for (const auto& [guid, table] : tables.by_switch) {
    unsigned lid = 0;
    std::string description;
    if (cluster)
      for (const auto& f : cluster->fabrics)
        if (const FabricNode* n = f.find(guid)) {
          lid = n->lid;
          description = n->description;
          break;
        }
    std::snprintf(buf, sizeof buf, "[0x0-0x%zx]", table.empty() ? size_t{0} : table.size() - 1);
    out << "Unicast lids " << buf << " of switch Lid " << lid << " guid 0x" << guid_hex(guid) << " ("
        << description << "):\n";
    out << "  Lid  Out   Destination\n       Port     Info \n";
    long n = 0;
    for (size_t l = 0; l < table.size(); ++l) {
      if (table[l] == ForwardingTables::kNoPort) continue;
      std::snprintf(buf, sizeof buf, "0x%04zx %03u \n", l, static_cast<unsigned>(table[l]));
      out << buf;
      ++n;
    }
    out << n << " valid lids dumped \n";
  }
}

}  // namespace slurmtopo

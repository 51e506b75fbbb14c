#include "discover/cable_list.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>

#include "base/input_error.h"
#include "base/lines.h"
#include "base/text.h"

namespace slurmtopo {

namespace {

enum Column { ADevice, APort, AType, BDevice, BPort, BType, Width, Speed, Columns };

// Header cells lower-cased, with everything but letters and digits dropped.
const std::map<std::string, Column>& column_names() {
  static const std::map<std::string, Column> names = {
      {"adevice", ADevice}, {"anode", ADevice},     {"anodename", ADevice}, {"aname", ADevice},
      {"aport", APort},     {"atype", AType},       {"bdevice", BDevice},   {"bnode", BDevice},
      {"bnodename", BDevice}, {"bname", BDevice},   {"zdevice", BDevice},   {"znode", BDevice},
      {"znodename", BDevice}, {"zname", BDevice},   {"bport", BPort},       {"zport", BPort},
      {"btype", BType},     {"ztype", BType},       {"width", Width},       {"speed", Speed},
  };
  return names;
}

constexpr const char* kHeader = "a_device,a_port,b_device,b_port";

std::string folded(std::string_view cell) {
  std::string out;
  for (char c : cell)
    if (std::isalnum(static_cast<unsigned char>(c))) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view meaningful(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  const std::string_view t = trim(line);
  return t.empty() || t[0] == '#' ? std::string_view() : line;
}

// The cells of one CSV line: commas outside double quotes split, "" inside quotes is a quote.
std::vector<std::string> cells(std::string_view line, const std::string& file, int number) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c != '"') out.back() += c;
      else if (i + 1 < line.size() && line[i + 1] == '"') out.back() += '"', ++i;
      else quoted = false;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  if (quoted) throw InputError(file, number, "expected the closing '\"' of a quoted cell (line cut off?)");
  for (auto& cell : out) cell = std::string(trim(cell));
  return out;
}

enum class Type { Unsaid, Switch, Host };

Type parse_type(const std::string& cell, const std::string& file, int number) {
  const std::string t = folded(cell);
  if (t.empty()) return Type::Unsaid;
  if (t == "switch" || t == "sw") return Type::Switch;
  if (t == "host" || t == "hca" || t == "ca" || t == "server" || t == "node") return Type::Host;
  throw InputError(file, number, "expected a device type switch or host, found " + snippet(cell));
}

PlanEnd parse_end(const std::string& device, const std::string& port, Type type, const char* which,
                  const std::string& file, int number) {
  if (device.empty()) throw InputError(file, number, std::string("expected the ") + which + " end's device, found an empty cell");
  if (port.empty()) throw InputError(file, number, std::string("expected the ") + which + " end's port, found an empty cell");
  if (type != Type::Host)
    if (auto p = plan_switch_port(port)) return {device, *p, true};
  if (type != Type::Switch) {
    if (auto p = plan_hca_port(port)) return {device, *p, false};
    // A host's port as a number: the cable validation tool's HCA port N, which is mlx5_<N-1>.
    if (type == Type::Host)
      if (auto n = plan_switch_port(port); n && port.find('/') == std::string::npos)
        return {device, "mlx5_" + std::to_string(std::stoi(*n) - 1), false};
  }
  const std::string wanted = type == Type::Switch ? "a switch port (17, P17, or 1/2 for a split cage)"
                             : type == Type::Host ? "an HCA (mlx5_0, mlx5_0/2, HCA-1, port 1) or its number"
                                                  : "a switch port (17, P17, 1/2) or an HCA (mlx5_0, mlx5_0/2, HCA-1)";
  throw InputError(file, number, std::string("expected the ") + which + " end's port: " + wanted + ", found " + snippet(port));
}

int parse_width(const std::string& cell, const std::string& file, int number) {
  std::string w = folded(cell);
  if (w.empty()) return 0;
  if (w.back() == 'x') w.pop_back();
  for (int n : {1, 2, 4, 8, 12})
    if (w == std::to_string(n)) return n;
  throw InputError(file, number, "expected a width 1x, 2x, 4x, 8x or 12x, found " + snippet(cell));
}

LinkSpeed parse_speed(const std::string& cell, const std::string& file, int number) {
  if (cell.empty()) return LinkSpeed::Unknown;
  std::string upper;
  for (char c : cell) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  const LinkSpeed s = parse_link_speed(upper);
  if (s == LinkSpeed::Unknown) throw InputError(file, number, "expected a speed SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR or XDR, found " + snippet(cell));
  return s;
}

std::string csv_cell(const std::string& s) {
  // Quoted where a comma or quote is in it, or where it would start a comment line.
  if (s.find_first_of(",\"") == std::string::npos && (s.empty() || s[0] != '#')) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

}  // namespace

bool looks_like_cable_list(std::string_view text) {
  LineReader lines(text);
  std::string_view line;
  while (lines.next(line)) {
    const std::string_view m = meaningful(line);
    if (m.empty()) continue;
    const std::string_view t = trim(m);
    return t[0] != '{' && t[0] != '[' && m.find(',') != std::string_view::npos;
  }
  return false;
}

CablePlan parse_cable_list(std::string_view text, const std::string& file) {
  CablePlan plan;
  plan.source = file;
  LineReader lines(text);
  std::string_view line;
  std::array<int, Columns> at;
  at.fill(-1);
  bool header = false;
  size_t needed = 0;  // cells a line must have: up to the last column read
  std::map<std::string, std::pair<bool, int>> role;  // device → (a switch, the first line saying so)
  while (lines.next(line)) {
    const int number = lines.number();
    const std::string_view m = meaningful(line);
    if (m.empty()) continue;
    const std::vector<std::string> row = cells(m, file, number);
    if (!header) {
      for (size_t i = 0; i < row.size(); ++i) {
        auto it = column_names().find(folded(row[i]));
        if (it == column_names().end()) continue;
        if (at[it->second] >= 0)
          throw InputError(file, number, "expected each column once in the header, but " + snippet(row[i]) + " is there twice");
        at[it->second] = static_cast<int>(i);
        needed = std::max(needed, i + 1);
      }
      for (Column c : {ADevice, APort, BDevice, BPort})
        if (at[c] < 0)
          throw InputError(file, number, std::string("expected a header naming the columns ") + kHeader +
                                             " (and optionally a_type, b_type, width, speed), found " + snippet(m));
      header = true;
      continue;
    }
    if (row.size() < needed)
      throw InputError(file, number, "expected " + std::to_string(needed) + " cells as the header has, found " +
                                         std::to_string(row.size()));
    auto cell = [&](Column c) { return at[c] < 0 ? std::string() : row[at[c]]; };
    PlannedCable cable;
    cable.a = parse_end(cell(ADevice), cell(APort), parse_type(cell(AType), file, number), "first", file, number);
    cable.b = parse_end(cell(BDevice), cell(BPort), parse_type(cell(BType), file, number), "second", file, number);
    // One device is a switch or a host throughout: a port read as the other kind is a typo.
    for (const PlanEnd* e : {&cable.a, &cable.b}) {
      auto [it, fresh] = role.emplace(e->device, std::pair{e->switch_end, number});
      if (!fresh && it->second.first != e->switch_end)
        throw InputError(file, number, "expected " + e->device + "'s port as a " +
                                           (it->second.first ? "switch port (17, P17, 1/2), as on line "
                                                             : "host's HCA (mlx5_0, HCA-1), as on line ") +
                                           std::to_string(it->second.second) + ", found " + snippet(e->port));
    }
    cable.width = parse_width(cell(Width), file, number);
    cable.speed = parse_speed(cell(Speed), file, number);
    cable.line = number;
    plan.cables.push_back(std::move(cable));
  }
  if (!header) throw InputError(file, 0, std::string("expected a cable list with a header naming ") + kHeader + ", found no lines");
  return plan;
}

std::string cable_list_text(const CablePlan& plan, const std::string& comment) {
  std::string out = "# " + comment + "\n";
  out += "a_device,a_type,a_port,b_device,b_type,b_port,width,speed\n";
  for (const PlannedCable& c : plan.cables) {
    for (const PlanEnd* e : {&c.a, &c.b})
      out += csv_cell(e->device) + "," + (e->switch_end ? "switch" : "host") + "," + csv_cell(e->port) + ",";
    out += (c.width ? std::to_string(c.width) + "x" : "") + "," +
           (c.speed != LinkSpeed::Unknown ? to_string(c.speed) : "") + "\n";
  }
  return out;
}

}  // namespace slurmtopo

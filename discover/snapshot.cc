// Snapshot JSON: written with keys in a fixed order (ordered_json, indent 1) so the same
// fabric always gives the same bytes; read strictly, since a snapshot is what every later
// command trusts instead of the fabric itself. Errors name the line: nlohmann reports a byte
// offset for syntax errors, and for schema errors a second, position-tracking SAX pass finds
// the line of the offending value (only on the error path, so reading stays one DOM parse).
#include "discover/snapshot.h"

#include <algorithm>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "base/input_error.h"
#include "base/json_fields.h"
#include "base/version.h"

namespace slurmtopo {
namespace {

using nlohmann::json;
using nlohmann::ordered_json;

constexpr const char* kFormat = "slurmtopo-snapshot";
// Version 2 added each fabric's "routes" (forwarding tables). Version 3 added each cable end's
// "speed_supported" and "width_supported" (what its PortInfo says it can train), written only
// where known and optional in it. A snapshot is written at the lowest version that holds it:
// without tables or supported rates, version 1. Version 4 added each fabric's "captured" (when
// the input says the fabric was captured: Fabric::captured), written only where known. All carry "slurmtopo_version" (the writer)
// since 0.1.0; a snapshot without it still reads.
constexpr int kVersion = 1;
constexpr int kVersionRoutes = 2;
constexpr int kVersionSupported = 3;
constexpr int kVersionCaptured = 4;
// Version 5 added each fabric's "counters" (discover fabric --counters: Fabric::counters),
// written only where read.
constexpr int kVersionCounters = 5;
constexpr int kVersionNewest = kVersionCounters;

// An LFT as two lower-case hex digits per LID from LID 0 ("ff" = no port): compact, exact, and
// one JSON string per switch instead of thousands of array lines.
std::string lft_hex(const std::vector<uint8_t>& table) {
  std::string out;
  out.reserve(table.size() * 2);
  for (uint8_t port : table) {
    out.push_back("0123456789abcdef"[port >> 4]);
    out.push_back("0123456789abcdef"[port & 15]);
  }
  return out;
}

std::string guid_string(uint64_t guid) { return "0x" + guid_hex(guid); }

ordered_json end_json(const LinkEnd& end) {
  ordered_json j;
  j["guid"] = guid_string(end.guid);
  j["port"] = end.port;
  j["port_guid"] = guid_string(end.port_guid);
  j["lid"] = end.lid;
  if (end.speed_supported != LinkSpeed::Unknown) j["speed_supported"] = to_string(end.speed_supported);
  if (end.width_supported) j["width_supported"] = end.width_supported;
  return j;
}

bool has_supported(const Fabric& f) {
  return std::any_of(f.links.begin(), f.links.end(), [](const Link& l) {
    return l.a.speed_supported != LinkSpeed::Unknown || l.a.width_supported || l.b.speed_supported != LinkSpeed::Unknown ||
           l.b.width_supported;
  });
}

// "counters": {"source", "form", "read_at", "interval_s", "failed_queries", "ports": [{"guid",
// "port", "lid", "values": {name: n} (non-zero ones), "unread": [names], "at_max": [names],
// "per_second": {name: rate} (counters with a value and a rate)}]}.
ordered_json counters_json(const CounterReadings& r) {
  ordered_json j;
  j["source"] = r.source;
  j["form"] = r.form;
  j["read_at"] = r.read_at;
  j["interval_s"] = r.interval_s;
  j["failed_queries"] = r.failed_queries;
  ordered_json& ports = j["ports"] = ordered_json::array();
  for (const PortCounters& p : r.ports) {
    ordered_json e;
    e["guid"] = guid_string(p.guid);
    e["port"] = p.port;
    e["lid"] = p.lid;
    ordered_json values = ordered_json::object(), rates = ordered_json::object();
    ordered_json unread = ordered_json::array(), at_max = ordered_json::array();
    for (size_t i = 0; i < kPortCounterCount; ++i) {
      const auto c = static_cast<PortCounter>(i);
      if (!p.has(c)) {
        unread.push_back(to_string(c));
        continue;
      }
      if (p[c] == 0) continue;
      values[to_string(c)] = p[c];
      if (p.maxed(c)) at_max.push_back(to_string(c));
      if (p.has_rate(c)) rates[to_string(c)] = p.per_second[i];
    }
    if (!values.empty()) e["values"] = std::move(values);
    if (!unread.empty()) e["unread"] = std::move(unread);
    if (!at_max.empty()) e["at_max"] = std::move(at_max);
    if (!rates.empty()) e["per_second"] = std::move(rates);
    ports.push_back(std::move(e));
  }
  return j;
}

ordered_json fabric_json(const Fabric& fabric) {
  ordered_json f;
  f["source"] = fabric.source;
  f["name"] = fabric.name;
  if (!fabric.captured.empty()) f["captured"] = fabric.captured;
  ordered_json& nodes = f["nodes"] = ordered_json::array();
  for (const auto& n : fabric.nodes) {
    ordered_json j;
    j["kind"] = to_string(n.kind);
    j["guid"] = guid_string(n.guid);
    j["sysimgguid"] = guid_string(n.sysimgguid);
    j["description"] = n.description;
    j["num_ports"] = n.num_ports;
    j["lid"] = n.lid;
    j["vendor_id"] = n.vendor_id;
    j["device_id"] = n.device_id;
    j["seen_only_as_peer"] = n.seen_only_as_peer;
    // Only when set, so that snapshots of the fabrics that have node GUIDs stay as they were.
    if (n.guid_from_port) j["guid_from_port"] = true;
    nodes.push_back(std::move(j));
  }
  ordered_json& links = f["links"] = ordered_json::array();
  for (const auto& l : fabric.links) {
    ordered_json j;
    j["a"] = end_json(l.a);
    j["b"] = end_json(l.b);
    j["width"] = l.width;
    j["speed"] = to_string(l.speed);
    links.push_back(std::move(j));
  }
  f["partial"] = fabric.partial;
  if (!fabric.routes.empty()) {
    ordered_json& routes = f["routes"] = ordered_json::array();
    for (const auto& [guid, table] : fabric.routes.by_switch) {
      ordered_json r;
      r["switch"] = guid_string(guid);
      r["lft"] = lft_hex(table);
      routes.push_back(std::move(r));
    }
  }
  if (!fabric.counters.form.empty()) f["counters"] = counters_json(fabric.counters);
  return f;
}

// LIDs above 0xBFFF are multicast; a node or port holds a unicast one, 0 until the SM assigns it.
constexpr int64_t kLastUnicastLid = 0xBFFF;

// ---- reading ----------------------------------------------------------------------------

NodeKind read_kind(const JsonFields& r) {
  std::string kind = r.string("kind");
  for (NodeKind k : {NodeKind::Switch, NodeKind::Ca, NodeKind::Router})
    if (kind == to_string(k)) return k;
  throw JsonSchemaError{r.at("kind"), "\"kind\" to be \"Switch\", \"Ca\" or \"Rt\", not \"" + kind + "\""};
}

bool valid_width(int64_t w) { return w == 0 || w == 1 || w == 2 || w == 4 || w == 8 || w == 12; }

LinkSpeed read_speed(const JsonFields& r, const char* key) {
  const std::string speed = r.string(key);
  const LinkSpeed s = parse_link_speed(speed);
  if (s == LinkSpeed::Unknown && speed != to_string(LinkSpeed::Unknown))
    throw JsonSchemaError{r.at(key), std::string("\"") + key + "\" to be SDR..XDR or \"unknown\", not \"" + speed + "\""};
  return s;
}

LinkEnd read_end(const json& j, const json::json_pointer& at, int version) {
  JsonFields r = version >= kVersionSupported
                     ? JsonFields(j, at, {"guid", "port", "port_guid", "lid", "speed_supported", "width_supported"}, version)
                     : JsonFields(j, at, {"guid", "port", "port_guid", "lid"}, kVersion);
  LinkEnd end;
  end.guid = r.guid("guid");
  end.port = static_cast<int>(r.integer("port", 1, 255));  // port 0 is a switch's own, never cabled
  end.port_guid = r.guid("port_guid");
  end.lid = static_cast<uint16_t>(r.integer("lid", 0, kLastUnicastLid));
  if (j.contains("speed_supported")) end.speed_supported = read_speed(r, "speed_supported");
  if (j.contains("width_supported")) {
    end.width_supported = static_cast<int>(r.integer("width_supported", 0, 12));
    if (!valid_width(end.width_supported))
      throw JsonSchemaError{r.at("width_supported"), "\"width_supported\" to be 1, 2, 4, 8 or 12 lanes (0: unknown), not " +
                                                         std::to_string(end.width_supported)};
  }
  return end;
}

void reject_duplicate_nodes(const std::vector<FabricNode>& nodes, const json::json_pointer& at) {
  std::vector<std::pair<uint64_t, size_t>> order;  // (guid, index in the file)
  order.reserve(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) order.emplace_back(nodes[i].guid, i);
  std::sort(order.begin(), order.end());
  for (size_t i = 1; i < order.size(); ++i)
    if (order[i].first == order[i - 1].first)
      throw JsonSchemaError{at / order[i].second / "guid",
                        "each node once, but " + guid_string(order[i].first) + " appears twice"};
}

// "routes": [{"switch": "0x<guid>", "lft": "<2 hex digits per LID>"}], switches listed in "nodes".
void read_routes(const JsonFields& r, Fabric& fabric) {
  const json& routes = r.get("routes");
  if (!routes.is_array()) throw JsonSchemaError{r.at("routes"), "\"routes\" to be an array"};
  for (size_t i = 0; i < routes.size(); ++i) {
    JsonFields e(routes[i], r.at("routes") / i, {"switch", "lft"}, kVersionRoutes);
    const uint64_t guid = e.guid("switch");
    const FabricNode* node = fabric.find(guid);
    if (!node || node->kind != NodeKind::Switch)
      throw JsonSchemaError{e.at("switch"), "a switch listed in \"nodes\", not " + guid_string(guid)};
    if (fabric.routes.by_switch.count(guid))
      throw JsonSchemaError{e.at("switch"), "one table per switch, but " + guid_string(guid) + " has two"};
    const std::string hex = e.string("lft");
    std::vector<uint8_t> table(hex.size() / 2);
    bool ok = hex.size() % 2 == 0 && hex.size() <= 2 * 65536;
    for (size_t k = 0; ok && k < hex.size(); ++k) {
      const char c = hex[k];
      const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
      ok = d >= 0;
      table[k / 2] = static_cast<uint8_t>(table[k / 2] << 4 | (d & 15));
    }
    if (!ok) throw JsonSchemaError{e.at("lft"), "\"lft\" to be two lower-case hex digits per LID"};
    fabric.routes.by_switch.emplace(guid, std::move(table));
  }
}

// A counter name as libibmad spells it, at `at`.
PortCounter read_counter_name(const std::string& name, const json::json_pointer& at) {
  const auto c = find_port_counter(name);
  if (!c || name != to_string(*c))
    throw JsonSchemaError{at, "a port counter name (SymbolErrorCounter, ..., PortXmitWait), not \"" + name + "\""};
  return *c;
}

CounterReadings read_counters(const json& j, const json::json_pointer& at) {
  JsonFields r(j, at, {"source", "form", "read_at", "interval_s", "failed_queries", "ports"}, kVersionCounters, true);
  CounterReadings out;
  out.source = r.string("source");
  out.form = r.string("form");
  if (out.form.empty()) throw JsonSchemaError{r.at("form"), "\"form\" to name how the counters were read"};
  out.read_at = r.string("read_at");
  const json& interval = r.get("interval_s");
  if (!interval.is_number() || interval.get<double>() < 0)
    throw JsonSchemaError{r.at("interval_s"), "\"interval_s\" to be a number of seconds >= 0"};
  out.interval_s = interval.get<double>();
  out.failed_queries = static_cast<int>(r.integer("failed_queries", 0, 1 << 30));
  const json& ports = r.array("ports");
  for (size_t i = 0; i < ports.size(); ++i) {
    const json::json_pointer pat = r.at("ports") / i;
    JsonFields e(ports[i], pat, {"guid", "port", "lid", "values", "unread", "at_max", "per_second"}, kVersionCounters);
    PortCounters p;
    p.guid = e.guid("guid");
    p.port = static_cast<int>(e.integer("port", 0, 255));
    p.lid = static_cast<uint16_t>(e.integer("lid", 0, kLastUnicastLid));
    for (size_t k = 0; k < kPortCounterCount; ++k) p.set(static_cast<PortCounter>(k), 0, 64);
    auto names = [&](const char* key) {
      std::vector<PortCounter> out;
      if (!ports[i].contains(key)) return out;
      const json& list = e.array(key);
      for (size_t k = 0; k < list.size(); ++k) {
        if (!list[k].is_string()) throw JsonSchemaError{e.at(key) / k, "a port counter name"};
        out.push_back(read_counter_name(list[k].get<std::string>(), e.at(key) / k));
      }
      return out;
    };
    for (PortCounter c : names("unread")) p.read &= ~(1u << static_cast<int>(c));
    if (ports[i].contains("values")) {
      const json& values = e.get("values");
      if (!values.is_object()) throw JsonSchemaError{e.at("values"), "\"values\" to be an object"};
      for (const auto& [name, v] : values.items()) {
        const PortCounter c = read_counter_name(name, e.at("values") / name);
        if (!v.is_number_unsigned()) throw JsonSchemaError{e.at("values") / name, "a whole number >= 0"};
        p.value[static_cast<size_t>(c)] = v.get<uint64_t>();
      }
    }
    for (PortCounter c : names("at_max")) p.at_max |= 1u << static_cast<int>(c);
    if (ports[i].contains("per_second")) {
      const json& rates = e.get("per_second");
      if (!rates.is_object()) throw JsonSchemaError{e.at("per_second"), "\"per_second\" to be an object"};
      for (const auto& [name, v] : rates.items()) {
        const PortCounter c = read_counter_name(name, e.at("per_second") / name);
        if (!v.is_number()) throw JsonSchemaError{e.at("per_second") / name, "a number"};
        p.rated |= 1u << static_cast<int>(c);
        p.per_second[static_cast<size_t>(c)] = v.get<double>();
      }
    }
    out.ports.push_back(std::move(p));
  }
  return out;
}

Fabric read_fabric(const json& j, const json::json_pointer& at, int version) {
  JsonFields r = version >= kVersionCounters
                     ? JsonFields(j, at, {"source", "name", "captured", "nodes", "links", "partial", "routes", "counters"},
                                  version)
                 : version >= kVersionCaptured
                     ? JsonFields(j, at, {"source", "name", "captured", "nodes", "links", "partial", "routes"}, version)
                 : version >= kVersionRoutes
                     ? JsonFields(j, at, {"source", "name", "nodes", "links", "partial", "routes"}, version)
                     : JsonFields(j, at, {"source", "name", "nodes", "links", "partial"}, version);
  Fabric fabric;
  fabric.source = r.string("source");
  fabric.name = r.string("name");
  if (j.contains("captured")) fabric.captured = r.string("captured");

  const json& nodes = r.array("nodes");
  for (size_t i = 0; i < nodes.size(); ++i) {
    JsonFields n(nodes[i], r.at("nodes") / i,
                  {"kind", "guid", "sysimgguid", "description", "num_ports", "lid", "vendor_id",
                   "device_id", "seen_only_as_peer", "guid_from_port"}, kVersion);
    FabricNode node;
    node.kind = read_kind(n);
    node.guid = n.guid("guid");
    node.sysimgguid = n.guid("sysimgguid");
    node.description = n.string("description");
    node.num_ports = static_cast<int>(n.integer("num_ports", node.kind == NodeKind::Switch ? 1 : 0, 255));
    node.lid = static_cast<uint16_t>(n.integer("lid", 0, kLastUnicastLid));
    node.vendor_id = static_cast<uint32_t>(n.integer("vendor_id", 0, 0xffffff));
    node.device_id = static_cast<uint32_t>(n.integer("device_id", 0, 0xffff));
    node.seen_only_as_peer = n.boolean("seen_only_as_peer");
    node.guid_from_port = nodes[i].contains("guid_from_port") && n.boolean("guid_from_port");
    fabric.nodes.push_back(std::move(node));
  }
  reject_duplicate_nodes(fabric.nodes, r.at("nodes"));
  std::sort(fabric.nodes.begin(), fabric.nodes.end(),
            [](const FabricNode& x, const FabricNode& y) { return x.guid < y.guid; });

  const json& links = r.array("links");
  for (size_t i = 0; i < links.size(); ++i) {
    JsonFields l(links[i], r.at("links") / i, {"a", "b", "width", "speed"}, kVersion);
    Link link;
    link.a = read_end(l.get("a"), l.at("a"), version);
    link.b = read_end(l.get("b"), l.at("b"), version);
    for (const auto* end : {&link.a, &link.b})
      if (!fabric.find(end->guid))
        throw JsonSchemaError{l.at(end == &link.a ? "a" : "b"),
                          "a cable end on a listed node, but " + guid_string(end->guid) + " is not in \"nodes\""};
    link.width = static_cast<int>(l.integer("width", 0, 12));
    if (link.width != 0 && link.width != 1 && link.width != 2 && link.width != 4 && link.width != 8 && link.width != 12)
      throw JsonSchemaError{l.at("width"), "\"width\" to be 1, 2, 4, 8 or 12 lanes (0: unknown), not " +
                                               std::to_string(link.width)};
    std::string speed = l.string("speed");
    link.speed = parse_link_speed(speed);
    if (link.speed == LinkSpeed::Unknown && speed != to_string(LinkSpeed::Unknown))
      throw JsonSchemaError{l.at("speed"), "\"speed\" to be SDR..XDR or \"unknown\", not \"" + speed + "\""};
    fabric.links.push_back(link);
  }

  const json& partial = r.array("partial");
  for (size_t i = 0; i < partial.size(); ++i) {
    if (!partial[i].is_string()) throw JsonSchemaError{r.at("partial") / i, "a string"};
    fabric.partial.push_back(partial[i].get<std::string>());
  }
  normalize(fabric);
  if (j.contains("routes")) read_routes(r, fabric);
  if (j.contains("counters")) fabric.counters = read_counters(r.get("counters"), r.at("counters"));
  return fabric;
}

Snapshot read_snapshot(const json& root) {
  JsonFields r(root, json::json_pointer(), {"format", "version", "fabrics"}, kVersion);
  if (r.string("format") != kFormat)
    throw JsonSchemaError{r.at("format"), std::string("\"format\": \"") + kFormat + "\""};
  const json& version = r.get("version");
  if (!version.is_number_integer() || version.get<int64_t>() < kVersion || version.get<int64_t>() > kVersionNewest)
    throw JsonSchemaError{r.at("version"), "snapshot format version " + std::to_string(kVersion) + " to " +
                                           std::to_string(kVersionNewest) + ", not " + version.dump()};
  const int v = static_cast<int>(version.get<int64_t>());
  Snapshot snapshot;
  const json& fabrics = r.array("fabrics");
  for (size_t i = 0; i < fabrics.size(); ++i) snapshot.fabrics.push_back(read_fabric(fabrics[i], r.at("fabrics") / i, v));
  return snapshot;
}

}  // namespace

std::string snapshot_to_json(const Snapshot& snapshot) {
  ordered_json root;
  root["format"] = kFormat;
  const bool routes = std::any_of(snapshot.fabrics.begin(), snapshot.fabrics.end(),
                                  [](const Fabric& f) { return !f.routes.empty(); });
  const bool supported = std::any_of(snapshot.fabrics.begin(), snapshot.fabrics.end(), has_supported);
  const bool captured = std::any_of(snapshot.fabrics.begin(), snapshot.fabrics.end(),
                                    [](const Fabric& f) { return !f.captured.empty(); });
  const bool counters = std::any_of(snapshot.fabrics.begin(), snapshot.fabrics.end(),
                                    [](const Fabric& f) { return !f.counters.form.empty(); });
  root["version"] = counters   ? kVersionCounters
                    : captured  ? kVersionCaptured
                    : supported ? kVersionSupported
                    : routes    ? kVersionRoutes
                                : kVersion;
  root[kSlurmtopoVersionKey] = slurmtopo_version();
  ordered_json& fabrics = root["fabrics"] = ordered_json::array();
  for (const auto& f : snapshot.fabrics) fabrics.push_back(fabric_json(f));
  // Descriptions come from the fabric and may be any bytes; invalid UTF-8 becomes U+FFFD
  // rather than making the snapshot unwritable.
  return root.dump(1, ' ', false, json::error_handler_t::replace) + "\n";
}

Snapshot snapshot_from_json(std::string_view text, const std::string& file) {
  const json root = parse_json_text(text, file);
  try {
    return read_snapshot(root);
  } catch (const JsonSchemaError& e) {
    throw schema_input_error(text, file, e);
  }
}

bool looks_like_snapshot(std::string_view head) {
  size_t first = head.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && head[first] == '{' &&
         head.find(kFormat) != std::string_view::npos;
}

}  // namespace slurmtopo

// site.yaml -> SiteConfig. Everything is checked here, with the YAML line, so that a typo
// fails before any fabric is read rather than as a silently ignored setting.
#include "discover/site_config.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <regex>
#include <set>
#include <stdexcept>

#include "base/files.h"
#include "base/input_error.h"
#include "base/numbers.h"
#include "base/regex.h"
#include "base/yaml_fields.h"
#include "slurm/hostlist.h"

namespace slurmtopo {
namespace {

constexpr const char* kValidKeys =
    "host_regex, exclude_hosts, exclude_regex, expected_link, expected_uplinks_per_leaf, "
    "group_name_regex, default_host_names, counter_thresholds";

using SiteFields = YamlFields;

// ECMAScript, as graph/ compiles it; `groups` is the least number of capture groups.
std::string regex(const SiteFields& r, const YAML::Node& v, const std::string& key, unsigned groups) {
  const std::string text = r.text(v, key);
  try {
    const std::regex re = compile_regex(text);
    if (re.mark_count() < groups)
      r.fail(v, "expected `" + key + "` to have a capture group `(...)`: group 1 is the name");
  } catch (const std::regex_error& e) {
    r.fail(v, "expected `" + key + "` to be a valid regular expression (ECMAScript): " + std::string(e.what()));
  }
  return text;
}

int parse_width(const SiteFields& r, const YAML::Node& at, const std::string& text) {
  static const std::set<std::string> kWidths{"1", "2", "4", "8", "12"};
  if (!kWidths.count(text)) r.fail(at, "expected `expected_link` width 1, 2, 4, 8 or 12, not `" + text + "`");
  return std::stoi(text);
}

LinkSpeed parse_speed(const SiteFields& r, const YAML::Node& at, std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  const LinkSpeed speed = parse_link_speed(text);
  if (speed == LinkSpeed::Unknown)
    r.fail(at, "expected `expected_link` speed SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR or "
               "XDR, not `" + text + "`");
  return speed;
}

// `{width: 4, speed: NDR}` or the way ibnetdiscover prints it, "4xNDR".
void expected_link(const SiteFields& r, const YAML::Node& v, SiteConfig& site) {
  if (v.IsScalar()) {
    const std::string text = v.Scalar();
    const size_t x = text.find_first_of("xX");
    if (x == std::string::npos || x == 0)
      r.fail(v, "expected `expected_link` as `4xNDR` or `{width: 4, speed: NDR}`");
    site.expected_width = parse_width(r, v, text.substr(0, x));
    site.expected_speed = parse_speed(r, v, text.substr(x + 1));
    return;
  }
  if (!v.IsMap()) r.fail(v, "expected `expected_link` as `4xNDR` or `{width: 4, speed: NDR}`");
  for (const auto& kv : v) {
    const std::string key = r.text(kv.first, "expected_link");
    if (key == "width")
      site.expected_width = parse_width(r, kv.second, r.text(kv.second, "width"));
    else if (key == "speed")
      site.expected_speed = parse_speed(r, kv.second, r.text(kv.second, "speed"));
    else
      r.fail(kv.first, "expected `expected_link` keys width, speed; not `" + key + "`");
  }
}

std::vector<std::string> hostlists(const SiteFields& r, const YAML::Node& v) {
  std::vector<std::string> out = r.strings(v, "exclude_hosts");
  size_t i = 0;
  for (const YAML::Node& item : v) {
    try {
      expand_hostlist(out[i++]);
    } catch (const std::invalid_argument& e) {
      r.fail(item, std::string("expected `exclude_hosts` items to be Slurm hostlists: ") + e.what());
    }
  }
  return out;
}

// One threshold: decimal or 0x hex, 64 bits wide as the counters are (PortCountersExtended), up
// to the largest the thresholds hold; a counter's total only has to be above it to fire.
int64_t counter_threshold(const SiteFields& r, const YAML::Node& v, const std::string& key) {
  constexpr uint64_t kMax = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  const std::optional<uint64_t> n = v.IsScalar() ? parse_uint64(v.Scalar()) : std::nullopt;
  if (!n || *n > kMax)
    r.fail(v, "expected `" + key + "` to be a whole number >= 0 (at most " + std::to_string(kMax) + "), or off");
  return static_cast<int64_t>(*n);
}

// `{SymbolErrorCounter: 50, VL15Dropped: off}`: libibmad's counter names, as ibqueryerrors'
// threshold file spells them; a whole number, or off to never judge that counter. Each counter
// once: of two lines, which one the admin meant is not ours to guess.
void counter_thresholds(const SiteFields& r, const YAML::Node& v, SiteConfig& site) {
  std::string names;
  for (const PortCounterName& n : port_counter_names()) names += (names.empty() ? "" : ", ") + std::string(n.name);
  if (!v.IsMap()) r.fail(v, "expected `counter_thresholds` as a map of counter name to a number or off");
  std::map<size_t, int> first_line;  // counter → the line that named it
  for (const auto& kv : v) {
    const std::string key = r.text(kv.first, "counter_thresholds");
    const auto c = find_port_counter(key);
    if (!c || key != to_string(*c))
      r.fail(kv.first, "expected `counter_thresholds` keys among " + names + "; not `" + key + "`");
    const size_t i = static_cast<size_t>(*c);
    if (const auto [at, added] = first_line.emplace(i, yaml_line(kv.first)); !added)
      r.fail(kv.first, "expected `counter_thresholds` to name each counter once, but `" + key +
                           "` is also at line " + std::to_string(at->second));
    if (kv.second.IsScalar() && kv.second.Scalar() == "off")
      site.counter_thresholds[i] = -1;
    else if (kv.second.IsNull())  // `Name:` with nothing: yaml-cpp marks the null after the line
      r.fail(kv.first, "expected `" + key + "` to be a whole number >= 0 (at most " +
                           std::to_string(std::numeric_limits<int64_t>::max()) + "), or off");
    else
      site.counter_thresholds[i] = counter_threshold(r, kv.second, key);
  }
}

using Setter = std::function<void(const SiteFields&, const YAML::Node&, SiteConfig&)>;

const std::map<std::string, Setter>& setters() {
  static const std::map<std::string, Setter> kSetters{
      {"host_regex", [](const SiteFields& r, const YAML::Node& v,
                        SiteConfig& s) { s.host_regex = regex(r, v, "host_regex", 1); }},
      {"exclude_hosts",
       [](const SiteFields& r, const YAML::Node& v, SiteConfig& s) { s.exclude_hosts = hostlists(r, v); }},
      {"exclude_regex",
       [](const SiteFields& r, const YAML::Node& v, SiteConfig& s) {
         s.exclude_regex = r.strings(v, "exclude_regex");
         size_t i = 0;
         for (const YAML::Node& item : v) regex(r, item, "exclude_regex[" + std::to_string(i++) + "]", 0);
       }},
      {"expected_link", expected_link},
      {"counter_thresholds", counter_thresholds},
      {"default_host_names",
       [](const SiteFields& r, const YAML::Node& v, SiteConfig& s) {
         s.default_host_names = r.strings(v, "default_host_names");
       }},
      {"expected_uplinks_per_leaf",
       [](const SiteFields& r, const YAML::Node& v, SiteConfig& s) {
         s.expected_uplinks_per_leaf = r.count(v, "expected_uplinks_per_leaf");
       }},
      {"group_name_regex",
       [](const SiteFields& r, const YAML::Node& v, SiteConfig& s) {
         // Empty keeps grouping by name off.
         const std::string text = r.text(v, "group_name_regex");
         s.group_name_regex = text.empty() ? text : regex(r, v, "group_name_regex", 1);
       }},
  };
  return kSetters;
}

}  // namespace

SiteConfig load_site_config(const std::string& path) {
  const YAML::Node root = load_yaml(read_file(path, "the site config"), path);
  const SiteFields reader(path);
  SiteConfig site;
  site.source = path;
  if (root.IsNull()) return site;  // empty file: all defaults
  if (!root.IsMap()) reader.fail(root, std::string("expected a map with keys ") + kValidKeys);

  std::set<std::string> seen;
  for (const auto& kv : root) {
    const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "";
    const auto setter = setters().find(key);
    if (setter == setters().end())
      reader.fail(kv.first, "unknown key `" + key + "`; expected one of " + kValidKeys);
    if (!seen.insert(key).second) reader.fail(kv.first, "expected `" + key + "` only once");
    if (kv.second.IsNull()) continue;  // `key:` with nothing keeps the default
    setter->second(reader, kv.second, site);
  }
  return site;
}

}  // namespace slurmtopo

// site.yaml: every setting, the defaults, and errors that name the YAML line.
#include "discover/site_config.h"

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "base/input_error.h"

using slurmtopo::default_counter_thresholds;
using slurmtopo::InputError;
using slurmtopo::LinkSpeed;
using slurmtopo::load_site_config;
using slurmtopo::PortCounter;
using slurmtopo::SiteConfig;
namespace fs = std::filesystem;

namespace {

const fs::path kData = fs::path(SLURMTOPO_SOURCE_DIR) / "tests/data/site";

struct Scratch {
  fs::path dir = fs::temp_directory_path() / ("slurmtopo-site-" + std::to_string(getpid()));
  Scratch() { fs::create_directories(dir); }
  ~Scratch() { fs::remove_all(dir); }
  std::string write(const std::string& text) const {
    const fs::path p = dir / "site.yaml";
    std::ofstream(p) << text;
    return p.string();
  }
};

InputError error_of(const std::string& path) {
  try {
    load_site_config(path);
  } catch (const InputError& e) {
    return e;
  }
  FAIL("no InputError for " << path);
  return InputError("", 0, "");
}

// A site.yaml that must be refused: at this line, saying this.
struct Bad {
  const char* yaml;
  int line;
  const char* says;
};

void check_refused(const Scratch& s, const Bad& bad) {
  const std::string yaml = bad.yaml;
  CAPTURE(yaml);
  const std::string path = s.write(bad.yaml);
  const InputError e = error_of(path);
  CHECK(e.file() == path);
  CHECK(e.line() == bad.line);
  CHECK(std::string(e.what()).find(bad.says) != std::string::npos);
}

}  // namespace

TEST_CASE("load_site_config: the documented example") {
  const SiteConfig site = load_site_config((kData / "site.yaml").string());
  CHECK(site.source == (kData / "site.yaml").string());
  CHECK(site.host_regex == R"(^(\S+) HCA-\d+)");
  CHECK(site.exclude_hosts == std::vector<std::string>{"storage[01-08]", "login[1-2],ufm01"});
  CHECK(site.exclude_regex == std::vector<std::string>{"^localhost$"});
  CHECK(site.expected_width == 4);
  CHECK(site.expected_speed == LinkSpeed::NDR);
  CHECK(site.expected_uplinks_per_leaf == 18);
  CHECK(site.group_name_regex == R"(^(.*)-IBLEAF-\d+)");
  CHECK(site.default_host_names == std::vector<std::string>{"golden-image"});
  CHECK(site.counter_thresholds[static_cast<size_t>(PortCounter::SymbolErrorCounter)] == 50);
  CHECK(site.counter_thresholds[static_cast<size_t>(PortCounter::PortXmitWait)] == 100000);
  CHECK(site.counter_thresholds[static_cast<size_t>(PortCounter::VL15Dropped)] == -1);
}

TEST_CASE("load_site_config: an empty file keeps the defaults") {
  const SiteConfig site = load_site_config((kData / "empty.yaml").string());
  const SiteConfig defaults;
  CHECK(site.host_regex == defaults.host_regex);
  CHECK(site.exclude_hosts.empty());
  CHECK(site.expected_width == 0);
  CHECK(site.expected_speed == LinkSpeed::Unknown);
  CHECK(site.expected_uplinks_per_leaf == 0);
  CHECK(site.group_name_regex.empty());
}

TEST_CASE("load_site_config: short forms") {
  const Scratch s;
  SiteConfig site = load_site_config(s.write("expected_link: 4xNDR\n"));
  CHECK(site.expected_width == 4);
  CHECK(site.expected_speed == LinkSpeed::NDR);
  site = load_site_config(s.write("expected_link: 2xhdr\nexclude_hosts:\n"));
  CHECK(site.expected_width == 2);
  CHECK(site.expected_speed == LinkSpeed::HDR);
  CHECK(site.exclude_hosts.empty());  // `key:` with no value keeps the default
  site = load_site_config(s.write("expected_link: {speed: EDR}\n"));
  CHECK(site.expected_width == 0);
  CHECK(site.expected_speed == LinkSpeed::EDR);
}

TEST_CASE("load_site_config: errors carry the YAML line and say what was expected") {
  const Scratch s;
  for (const Bad& bad : {
           Bad{"host_regex: '(\\S+)'\nexclude_host: [a]\n", 2,
               "unknown key `exclude_host`; expected one of host_regex, exclude_hosts, "
               "exclude_regex, expected_link, expected_uplinks_per_leaf, group_name_regex"},
           Bad{"host_regex: '^\\S+'\n", 1, "`host_regex` to have a capture group"},
           Bad{"\n\nhost_regex: '^(\\S+'\n", 3, "`host_regex` to be a valid regular expression"},
           Bad{"exclude_regex:\n  - ok\n  - '[z-a]'\n", 3, "`exclude_regex[1]` to be a valid"},
           Bad{"\nhost_regex: '^(\\S+)\\77777777777777777777'\n", 2,
               "valid regular expression (ECMAScript): back reference `777777777777...` at character 8 "
               "has 20 digits; at most 5"},
           Bad{"group_name_regex: 'leaf'\n", 1, "`group_name_regex` to have a capture group"},
           Bad{"exclude_hosts: n[1-2]\n", 1, "`exclude_hosts` to be a list of strings"},
           Bad{"exclude_hosts:\n  - n[2-1]\n", 2, "Slurm hostlists: hostlist `n[2-1]`"},
           Bad{"exclude_hosts:\n  - {a: 1}\n", 2, "every item of `exclude_hosts` to be a string"},
           Bad{"expected_link: {width: 3, speed: NDR}\n", 1, "width 1, 2, 4, 8 or 12, not `3`"},
           Bad{"expected_link: {width: 4, speed: FAST}\n", 1, "speed SDR, DDR"},
           Bad{"expected_link:\n  width: 4\n  lanes: 4\n", 3, "keys width, speed; not `lanes`"},
           Bad{"expected_link: NDR\n", 1, "`4xNDR` or `{width: 4, speed: NDR}`"},
           Bad{"expected_link: [4, NDR]\n", 1, "`4xNDR` or `{width: 4, speed: NDR}`"},
           Bad{"expected_uplinks_per_leaf: many\n", 1, "whole number >= 0"},
           Bad{"expected_uplinks_per_leaf: -2\n", 1, "whole number >= 0"},
           Bad{"expected_uplinks_per_leaf: 1.5\n", 1, "whole number >= 0"},
           Bad{"host_regex: [a, b]\n", 1, "`host_regex` to be a string"},
           Bad{"host_regex: '(a)'\nhost_regex: '(b)'\n", 2, "`host_regex` only once"},
           Bad{"- a\n- b\n", 1, "a map with keys host_regex"},
           Bad{"host_regex: '(a)'\n\nexclude_hosts: [a, b\n", 4, "expected YAML: end of sequence"},
       })
    check_refused(s, bad);
  CHECK(error_of((s.dir / "missing.yaml").string()).line() == 0);
}

TEST_CASE("site config: default_host_names extends the list of names that say nothing") {
  Scratch s;
  const SiteConfig site = load_site_config(s.write("default_host_names: [golden-image, node]\n"));
  CHECK(site.default_host_names == std::vector<std::string>{"golden-image", "node"});
  CHECK(error_of(s.write("default_host_names: golden-image\n")).line() == 1);
}

TEST_CASE("site config: counter_thresholds replaces the thresholds of the counters it names, off never judges one") {
  Scratch s;
  auto at = [](const SiteConfig& site, PortCounter c) { return site.counter_thresholds[static_cast<size_t>(c)]; };
  const SiteConfig defaults = load_site_config(s.write("host_regex: '(\\S+)'\n"));
  CHECK(defaults.counter_thresholds == default_counter_thresholds());
  CHECK(at(defaults, PortCounter::SymbolErrorCounter) == 10);
  CHECK(at(defaults, PortCounter::PortXmitWait) == -1);  // not judged unless the site says

  const SiteConfig site = load_site_config(s.write(
      "counter_thresholds:\n  SymbolErrorCounter: 50\n  PortXmitWait: 100000\n  LinkDownedCounter: off\n"
      "  VL15Dropped: 0\n"));
  CHECK(at(site, PortCounter::SymbolErrorCounter) == 50);
  CHECK(at(site, PortCounter::PortXmitWait) == 100000);
  CHECK(at(site, PortCounter::LinkDownedCounter) == -1);
  CHECK(at(site, PortCounter::VL15Dropped) == 0);  // any drop counts
  // The counters it does not name keep infiniband-diags' defaults.
  CHECK(at(site, PortCounter::PortRcvErrors) == 10);
  CHECK(at(site, PortCounter::PortXmitDiscards) == 100);

  // The flow form, and `counter_thresholds:` with nothing keeps every default.
  const SiteConfig flow = load_site_config(s.write("counter_thresholds: {PortRcvErrors: off, PortXmitDiscards: 7}\n"));
  CHECK(at(flow, PortCounter::PortRcvErrors) == -1);
  CHECK(at(flow, PortCounter::PortXmitDiscards) == 7);
  CHECK(load_site_config(s.write("counter_thresholds:\n")).counter_thresholds == default_counter_thresholds());
}

TEST_CASE("site config: counter_thresholds errors carry the YAML line and say what was expected") {
  Scratch s;
  for (const Bad& bad : {
           // An unknown counter: the list of libibmad's names, and what was given.
           Bad{"host_regex: '(a)'\ncounter_thresholds:\n  SymbolErrorCounter: 5\n  SymbolErrors: 5\n", 4,
               "expected `counter_thresholds` keys among SymbolErrorCounter, LinkErrorRecoveryCounter, "
               "LinkDownedCounter, PortRcvErrors, "},
           Bad{"counter_thresholds:\n  SymbolErrors: 5\n", 2, "; not `SymbolErrors`"},
           // ibdiagnet's keys name the same counters, but site.yaml spells them as ibqueryerrors does.
           Bad{"counter_thresholds:\n  symbol_error_counter: 5\n", 2, "; not `symbol_error_counter`"},
           // A data counter is no error counter.
           Bad{"counter_thresholds:\n  PortXmitData: 5\n", 2, "; not `PortXmitData`"},
           Bad{"counter_thresholds:\n  SymbolErrorCounter: -1\n", 2,
               "expected `SymbolErrorCounter` to be a whole number >= 0"},
           Bad{"counter_thresholds:\n\n  PortRcvErrors: many\n", 3, "expected `PortRcvErrors` to be a whole number >= 0"},
           Bad{"counter_thresholds:\n  PortRcvErrors: 2.5\n", 2, "expected `PortRcvErrors` to be a whole number >= 0"},
           Bad{"counter_thresholds:\n  PortRcvErrors: [1]\n", 2, "expected `PortRcvErrors` to be a whole number >= 0"},
           Bad{"counter_thresholds: 10\n", 1, "expected `counter_thresholds` as a map of counter name to a number or off"},
           Bad{"counter_thresholds: [SymbolErrorCounter]\n", 1, "as a map of counter name to a number or off"},
       })
    check_refused(s, bad);
}

TEST_CASE("site config: counter_thresholds are 64 bits wide, as the counters are") {
  Scratch s;
  auto at = [](const SiteConfig& site, PortCounter c) { return site.counter_thresholds[static_cast<size_t>(c)]; };
  const SiteConfig site = load_site_config(s.write(
      "counter_thresholds:\n  PortXmitWait: 5000000000\n  SymbolErrorCounter: 9223372036854775807\n"
      "  PortRcvErrors: 0x100000000\n  LinkDownedCounter: '2147483648'\n"));
  CHECK(at(site, PortCounter::PortXmitWait) == 5000000000LL);
  CHECK(at(site, PortCounter::SymbolErrorCounter) == 9223372036854775807LL);
  CHECK(at(site, PortCounter::PortRcvErrors) == 0x100000000LL);
  CHECK(at(site, PortCounter::LinkDownedCounter) == 2147483648LL);

  for (const Bad& bad : {
           // Beyond what a threshold holds: say so rather than wrap or saturate.
           Bad{"counter_thresholds:\n  PortXmitWait: 9223372036854775808\n", 2,
               "expected `PortXmitWait` to be a whole number >= 0 (at most 9223372036854775807), or off"},
           Bad{"counter_thresholds:\n  PortXmitWait: 18446744073709551616\n", 2, "(at most 9223372036854775807)"},
           Bad{"counter_thresholds:\n  PortXmitWait: -5000000000\n", 2, "expected `PortXmitWait` to be a whole number >= 0"},
           Bad{"counter_thresholds:\n  PortXmitWait: 1e9\n", 2, "expected `PortXmitWait` to be a whole number >= 0"},
           Bad{"counter_thresholds:\n  PortXmitWait: Off\n", 2, "or off"},
           Bad{"counter_thresholds:\n  PortXmitWait:\n", 2, "expected `PortXmitWait` to be a whole number >= 0"},
       })
    check_refused(s, bad);
}

TEST_CASE("site config: a counter named twice in counter_thresholds is refused, naming the first line") {
  Scratch s;
  InputError e = error_of(s.write(
      "host_regex: '(\\S+)'\ncounter_thresholds:\n  SymbolErrorCounter: 50\n  PortRcvErrors: 5\n"
      "  SymbolErrorCounter: off\n"));
  CHECK(e.line() == 5);
  CHECK(std::string(e.what()).ends_with(
      ":5: expected `counter_thresholds` to name each counter once, but `SymbolErrorCounter` is also at line 3"));
  // The flow form: both on one line.
  e = error_of(s.write("counter_thresholds: {PortXmitWait: 1, PortXmitWait: 2}\n"));
  CHECK(e.line() == 1);
  CHECK(std::string(e.what()).find("but `PortXmitWait` is also at line 1") != std::string::npos);
}

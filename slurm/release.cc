#include "slurm/release.h"

#include <algorithm>
#include <charconv>

#include "base/input_error.h"

namespace slurmtopo {

SlurmRelease parse_slurm_release(std::string_view text) {
  const SlurmRelease v = parse_release_number(text);
  require_known(v, "--slurm-version " + std::string(text));
  return v;
}

SlurmRelease parse_release_number(std::string_view text) {
  SlurmRelease v;
  auto dot = text.find('.');
  auto number = [](std::string_view s, int& out) {
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && end == s.data() + s.size() && !s.empty() && s.size() <= 2;
  };
  if (dot == std::string_view::npos || !number(text.substr(0, dot), v.year) ||
      !number(text.substr(dot + 1), v.month) || v.month < 1 || v.month > 12 || v.year < 17)
    throw InputError("--slurm-version", 0,
                     "expected a Slurm release as YY.MM (e.g. 22.05, 24.11, 25.11), not \"" + std::string(text) + "\"");
  return v;
}

const std::vector<SlurmRelease>& known_releases() {
  static const std::vector<SlurmRelease> known = {{22, 5},  {23, 2},  {23, 11}, {24, 5},
                                                  {24, 11}, {25, 5},  {25, 11}, {26, 5}};
  return known;
}

void require_known(SlurmRelease v, const std::string& how) {
  const auto& known = known_releases();
  if (std::find(known.begin(), known.end(), v) != known.end()) return;
  std::string list;
  for (const SlurmRelease& k : known) list += (list.empty() ? "" : ", ") + to_string(k);
  throw InputError("--slurm-version", 0,
                   "Slurm " + to_string(v) + " (" + how + ") is not a release slurmtopo knows: it knows " + list +
                       (v < known.front() ? "; the files it writes need one of those"
                                          : "; pass the newest of those that your release still reads, with --slurm-version, "
                                            "after checking its release notes"));
}

std::string release_line(const TargetRelease& t) { return "Slurm " + to_string(t.release) + " (" + t.how + ")"; }

TargetRelease requested_release(const std::string& text) {
  return {parse_slurm_release(text), "--slurm-version " + text, false};
}

std::string to_string(SlurmRelease v) {
  return std::to_string(v.year) + (v.month < 10 ? ".0" : ".") + std::to_string(v.month);
}

CoreRule core_rule(SlurmRelease v) {
  if (v >= SlurmRelease{25, 11}) return CoreRule::OneSocketOrAll;
  if (v >= SlurmRelease{24, 11}) return CoreRule::WholeSockets;
  return CoreRule::AsIs;
}

const char* describe(CoreRule rule) {
  switch (rule) {
    case CoreRule::AsIs: return "any cores";
    case CoreRule::WholeSockets: return "each socket fully or not at all";
    case CoreRule::OneSocketOrAll: return "exactly one whole socket or all cores";
  }
  return "?";
}

SlurmRelease introduced_in(TopologyForm form) {
  switch (form) {
    case TopologyForm::TreeConf: return {17, 2};
    case TopologyForm::BlockConf: return {23, 11};
    case TopologyForm::BlockSizes: return {24, 5};
    case TopologyForm::Yaml: return {25, 5};
    case TopologyForm::PartitionTopology: return {25, 5};
  }
  return {};
}

const char* describe(TopologyForm form) {
  switch (form) {
    case TopologyForm::TreeConf: return "topology.conf for topology/tree";
    case TopologyForm::BlockConf: return "topology/block";
    case TopologyForm::BlockSizes: return "BlockSizes=";
    case TopologyForm::Yaml: return "topology.yaml";
    case TopologyForm::PartitionTopology: return "a partition's Topology=";
  }
  return "?";
}

void require_release(SlurmRelease have, TopologyForm form, const std::string& where, const std::string& how) {
  const SlurmRelease added = introduced_in(form);
  if (have >= added) return;
  throw InputError(where, 0,
                   std::string(describe(form)) + " needs Slurm " + to_string(added) + " or later (added in " +
                       to_string(added) + "); the files are for Slurm " + to_string(have) + " (" + how + ")");
}

bool blocks_may_have_gaps(SlurmRelease v) { return v >= SlurmRelease{25, 5}; }

SlurmVersion selection_rules(SlurmRelease release) {
  // Any release the admin runs maps to the newest modelled behaviour at or before it: 23.02
  // and 23.11 select nodes as 22.05 does; 24.05 stands for 24.05.3 and later (24.11, 25.05).
  if (release >= SlurmRelease{26, 5}) return SlurmVersion::V26_05;
  if (release >= SlurmRelease{25, 11}) return SlurmVersion::V25_11;
  if (release >= SlurmRelease{24, 5}) return SlurmVersion::V24_05;
  return SlurmVersion::V22_05;
}

SlurmVersion parse_slurm_version(const std::string& text) { return selection_rules(parse_slurm_release(text)); }

std::string to_string(SlurmVersion version) {
  switch (version) {
    case SlurmVersion::V22_05: return "22.05";
    case SlurmVersion::V24_05: return "24.05";
    case SlurmVersion::V25_11: return "25.11";
    case SlurmVersion::V26_05: return "26.05";
  }
  return "?";
}

}  // namespace slurmtopo

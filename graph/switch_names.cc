#include "graph/switch_names.h"

#include <cctype>
#include <map>

#include "discover/fabric.h"

namespace slurmtopo {

namespace {
constexpr size_t kMaxSwitchName = 64;  // slurmctld 24.11+ rejects longer names
constexpr size_t kMaxTrailingDigits = 18;

bool factory_default(std::string_view d) {
  // Unconfigured switches all say the same thing; a name from it would collide or mislead.
  return d.empty() || d.find("Mellanox Technologies") != std::string_view::npos ||
         d.find("Infiniscale") != std::string_view::npos;
}
}  // namespace

std::string slurm_safe_name(std::string_view text) {
  std::string out;
  bool dash = false;
  for (char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-') {
      if (c == '-' && dash) continue;
      out += c;
      dash = c == '-';
    } else if (!out.empty() && !dash) {
      out += '-';
      dash = true;
    }
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  size_t digits = 0;
  while (digits < out.size() && std::isdigit(static_cast<unsigned char>(out[out.size() - 1 - digits])))
    ++digits;
  // Slurm's hostlist parser overflows on a trailing number of 20+ digits.
  if (digits > kMaxTrailingDigits) out += "-x";
  return out;
}

std::string switch_name_from_description(std::string_view d) {
  // Mellanox/NVIDIA managed switches: "MF0;<hostname>:<model>[/<module>]/U1".
  if (d.substr(0, 4) == "MF0;") {
    std::string_view rest = d.substr(4);
    size_t colon = rest.find(':');
    std::string name(rest.substr(0, colon));
    if (colon != std::string_view::npos) {
      std::string_view model = rest.substr(colon + 1);
      // Director modules (spine "S01", line "L01") share one hostname: keep them apart.
      size_t slash = model.find('/');
      if (slash != std::string_view::npos) {
        std::string_view module = model.substr(slash + 1);
        size_t end = module.find('/');
        if (end != std::string_view::npos && end > 0 &&
            (module[0] == 'S' || module[0] == 'L') && module.substr(0, end) != "U1")
          name += "-" + std::string(module.substr(0, end));
      }
    }
    return slurm_safe_name(name);
  }
  if (factory_default(d)) return "";
  return slurm_safe_name(d);
}

std::vector<std::string> name_switches(const std::vector<SwitchNameInput>& switches) {
  std::vector<std::string> names;
  names.reserve(switches.size());
  std::map<std::string, int> uses;
  for (const auto& s : switches) {
    names.push_back(switch_name_from_description(s.description));
    if (names.back().size() > kMaxSwitchName) names.back().clear();
    if (!names.back().empty()) ++uses[names.back()];
  }
  for (size_t i = 0; i < switches.size(); ++i)
    if (names[i].empty() || uses[names[i]] > 1) names[i] = "sw-" + guid_hex(switches[i].guid);
  return names;
}

}  // namespace slurmtopo

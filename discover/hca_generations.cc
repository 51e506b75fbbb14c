#include "discover/hca_generations.h"

#include <algorithm>
#include <cctype>
#include <set>

#include "base/input_error.h"
#include "discover/synthetic_fabric.h"
#include "slurm/hostlist.h"

namespace slurmtopo {
namespace {

constexpr const char* kOption = "--hca-generation";

// One ConnectX per speed, from discover/device_ids.h: the model a host of that generation has.
struct Model {
  LinkSpeed speed;
  uint32_t device_id;
};
constexpr Model kModels[] = {
    {LinkSpeed::QDR, 0x673c},  // ConnectX-2 MT26428
    {LinkSpeed::FDR, 0x1003},  // ConnectX-3
    {LinkSpeed::EDR, 0x1017},  // ConnectX-5
    {LinkSpeed::HDR, 0x101b},  // ConnectX-6
    {LinkSpeed::NDR, 0x1021},  // ConnectX-7
    {LinkSpeed::XDR, 0x1023},  // ConnectX-8
};

std::string upper(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return s;
}

}  // namespace

uint32_t hca_device_for(LinkSpeed speed) {
  for (const Model& m : kModels)
    if (m.speed == speed) return m.device_id;
  return 0;
}

HcaGeneration parse_hca_generation(const std::string& spec) {
  const size_t colon = spec.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == spec.size())
    throw InputError(kOption, 0, "expected 'HOSTLIST:SPEED' (e.g. 'gpu[001-004]:EDR'), got '" + spec + "'");
  HcaGeneration g;
  g.hosts = expand_hostlist_at(spec.substr(0, colon), kOption);
  g.speed = parse_link_speed(upper(spec.substr(colon + 1)));
  if (!hca_device_for(g.speed))
    throw InputError(kOption, 0, "expected a speed QDR, FDR, EDR, HDR, NDR or XDR after ':', got '" + spec.substr(colon + 1) + "'");
  return g;
}

void apply_hca_generations(Fabric& fabric, const std::vector<HcaGeneration>& generations) {
  for (const HcaGeneration& g : generations) {
    const std::set<std::string> hosts(g.hosts.begin(), g.hosts.end());
    std::set<std::string> found;
    std::set<uint64_t> hcas;
    for (FabricNode& n : fabric.nodes) {
      if (!is_synthetic_host_hca(n)) continue;
      const std::string host = n.description.substr(0, n.description.find(' '));
      if (!hosts.count(host)) continue;
      n.device_id = hca_device_for(g.speed);
      hcas.insert(n.guid);
      found.insert(host);
    }
    for (const std::string& h : g.hosts)
      if (!found.count(h)) throw InputError(kOption, 0, "no host named '" + h + "'");
    for (Link& l : fabric.links)
      if ((hcas.count(l.a.guid) || hcas.count(l.b.guid)) && l.speed > g.speed) l.speed = g.speed;
  }
}

}  // namespace slurmtopo

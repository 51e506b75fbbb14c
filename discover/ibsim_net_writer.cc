#include "discover/ibsim_net_writer.h"

#include <stdexcept>
#include <string>

#include "discover/ibnetdiscover_writer.h"

namespace slurmtopo {
namespace {

bool ibsim_speed(LinkSpeed s) {
  switch (s) {
    case LinkSpeed::SDR: case LinkSpeed::DDR: case LinkSpeed::QDR: case LinkSpeed::FDR10:
    case LinkSpeed::FDR: case LinkSpeed::EDR: case LinkSpeed::HDR:
      return true;
    default:
      return false;
  }
}

std::string end_name(const Fabric& f, const LinkEnd& e) {
  const FabricNode* n = f.find(e.guid);
  return (n ? "\"" + n->description + "\"" : "0x" + guid_hex(e.guid)) + "[" + std::to_string(e.port) + "]";
}

}  // namespace

void write_ibsim_net(const Fabric& fabric, std::ostream& out) {
  for (const Link& l : fabric.links) {
    const std::string cable = end_name(fabric, l.a) + " - " + end_name(fabric, l.b);
    if (l.width != 1 && l.width != 2 && l.width != 4 && l.width != 8 && l.width != 12)
      throw std::invalid_argument("cable " + cable + " has no known width; ibsim needs 1x, 2x, 4x, 8x or 12x");
    if (!ibsim_speed(l.speed))
      throw std::invalid_argument("cable " + cable + " runs " + to_string(l.speed) +
                                  ", which ibsim 0.10 cannot emulate (SDR to HDR only): generate with --speed HDR or lower");
  }
  Fabric copy = fabric;
  for (FabricNode& n : copy.nodes) {
    if (n.description.find('"') != std::string::npos)
      throw std::invalid_argument("node 0x" + guid_hex(n.guid) + " has a '\"' in its description, which ibsim cannot read");
    n.seen_only_as_peer = false;
  }
  out << "# ibsim net file (ibnetdiscover topology text; serve it with `ibsim -s FILE`)\n";
  write_ibnetdiscover_text(copy, out);
}

}  // namespace slurmtopo

// ibsim net files: the ibnetdiscover text ibsim reads, with a block for every node and only
// widths and speeds ibsim can emulate. (That ibsim serves them as written is proven by
// tests/integration/ibsim_discovery_test.sh.)
#include <doctest/doctest.h>

#include <sstream>
#include <stdexcept>
#include <string>

#include "discover/ibnetdiscover_text.h"
#include "discover/ibsim_net_writer.h"
#include "discover/synthetic_fabric.h"

using namespace slurmtopo;

namespace {
std::string net_of(const Fabric& f) {
  std::ostringstream out;
  write_ibsim_net(f, out);
  return out.str();
}
const Link* cable(const Fabric& f, const std::string& a, const std::string& b) {
  for (const Link& l : f.links) {
    const FabricNode *x = f.find(l.a.guid), *y = f.find(l.b.guid);
    if ((x->description.find(a) != std::string::npos && y->description.find(b) != std::string::npos) ||
        (x->description.find(b) != std::string::npos && y->description.find(a) != std::string::npos))
      return &l;
  }
  return nullptr;
}
}  // namespace

TEST_CASE("ibsim net: degraded and missing cables survive, and it reads back as the same fabric") {
  Fabric f = generate_fattree({.levels = 2, .radix = 8, .speed = LinkSpeed::HDR});
  apply_faults(f, {.remove_cables = {{"leaf004", "spine03"}},
                   .degrade_cables = {{"leaf002", "spine01", 1}, {"leaf003", "spine02", 0, LinkSpeed::EDR}}});
  const std::string net = net_of(f);
  CHECK(net.rfind("# ibsim net file", 0) == 0);
  Fabric back = parse_ibnetdiscover_text(net, "fabric.net");
  CHECK(back.links.size() == f.links.size());
  CHECK(back.nodes.size() == f.nodes.size());
  REQUIRE(cable(back, "leaf002", "spine01"));
  CHECK(cable(back, "leaf002", "spine01")->width == 1);
  CHECK(cable(back, "leaf003", "spine02")->speed == LinkSpeed::EDR);
  CHECK(cable(back, "leaf004", "spine03") == nullptr);
  // ibsim sets the enabled width per end: a degraded cable must say so on both ends.
  size_t ends = 0;
  for (size_t at = 0; (at = net.find("1xHDR", at)) != std::string::npos; ++at) ++ends;
  CHECK(ends == 2);
  CHECK(net_of(f) == net);
}

TEST_CASE("ibsim net: a node seen only as a cable's far end still gets its block") {
  Fabric f = generate_fattree({.levels = 2, .radix = 8, .hosts = 4, .speed = LinkSpeed::EDR});
  f.nodes.back().seen_only_as_peer = true;
  std::string block = f.nodes.back().kind == NodeKind::Switch ? "\"S-" : "\"H-";
  block += guid_hex(f.nodes.back().guid);
  block += "\"\t";
  CHECK(net_of(f).find(block) != std::string::npos);
}

TEST_CASE("ibsim net: speeds ibsim 0.10 cannot emulate, unknown widths and quotes are refused") {
  CHECK_THROWS_WITH_AS(net_of(generate_fattree({.levels = 2, .radix = 8, .hosts = 4})),
                       doctest::Contains("NDR, which ibsim 0.10 cannot emulate"), std::invalid_argument);
  Fabric f = generate_fattree({.levels = 2, .radix = 8, .hosts = 4, .speed = LinkSpeed::HDR});
  Fabric unknown = f;
  unknown.links.front().width = 0;
  CHECK_THROWS_WITH_AS(net_of(unknown), doctest::Contains("no known width"), std::invalid_argument);
  Fabric quoted = f;
  quoted.nodes.front().description = "gpu\"001";
  CHECK_THROWS_AS(net_of(quoted), std::invalid_argument);
}

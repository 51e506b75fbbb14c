// A CA known only by a port GUID is named from a map keyed by node GUIDs, by the port GUID
// rules of ConnectX and ibsim, and never after a different node (discover/port_owner.h).
#include "discover/port_owner.h"

#include <doctest/doctest.h>

#include <set>

using namespace slurmtopo;

namespace {
NameMap map_of(std::initializer_list<std::pair<const uint64_t, std::string>> entries) {
  NameMap m;
  m.by_guid = entries;
  return m;
}
bool nothing_taken(uint64_t) { return false; }
}  // namespace

TEST_CASE("port owner: the port GUID itself first (a map keyed by port GUIDs, ConnectX port 1)") {
  const NameMap m = map_of({{0x1000, "gpu001"}, {0x0fff, "gpu000"}});
  const auto hit = lookup_port_owner(m, 0x1000, 1, nothing_taken);
  REQUIRE(hit);
  CHECK(hit->guid == 0x1000);
  CHECK(hit->name == "gpu001");
}

TEST_CASE("port owner: ibsim's node + port, and ConnectX's port 2 = node + 1") {
  const NameMap m = map_of({{0x100000, "gpu001"}});
  REQUIRE(lookup_port_owner(m, 0x100001, 1, nothing_taken));  // ibsim port 1
  CHECK(lookup_port_owner(m, 0x100001, 1, nothing_taken)->name == "gpu001");
  CHECK(lookup_port_owner(m, 0x100001, 2, nothing_taken)->guid == 0x100000);  // ConnectX port 2
  CHECK(lookup_port_owner(m, 0x100002, 2, nothing_taken)->guid == 0x100000);  // ibsim port 2
  // Never further below than the port number allows.
  CHECK_FALSE(lookup_port_owner(m, 0x100002, 1, nothing_taken));
  CHECK_FALSE(lookup_port_owner(m, 0x100005, 2, nothing_taken));
  CHECK_FALSE(lookup_port_owner(m, 0, 1, nothing_taken));  // no GUID below 0
}

TEST_CASE("port owner: a switch GUID just below an HCA's port GUID does not name the HCA") {
  // The map names switch 0x200000 (ibnetdiscover maps name switches too); the HCA whose port 1
  // GUID is 0x200001 is not in the map: it stays unnamed rather than taking the switch's name.
  const NameMap m = map_of({{0x200000, "leaf01"}});
  const std::set<uint64_t> present = {0x200000};
  auto taken = [&](uint64_t g) { return present.count(g) > 0; };
  CHECK_FALSE(lookup_port_owner(m, 0x200001, 1, taken));
  // Nor does it look past another node: port 2's candidates stop at the switch.
  const NameMap m2 = map_of({{0x1ffffe, "gpu009"}});
  CHECK_FALSE(lookup_port_owner(m2, 0x200000 + 1, 3, taken));
}

#include "graph/switch_names.h"

#include <doctest/doctest.h>

using namespace slurmtopo;

TEST_CASE("switch names: managed switches use the host name inside the description") {
  CHECK(switch_name_from_description("MF0;A09-P1-IBLEAF-04-04:MQM9701/U1") == "A09-P1-IBLEAF-04-04");
  CHECK(switch_name_from_description("MF0;switch-de779e:SX6012/U1") == "switch-de779e");
}

TEST_CASE("switch names: director modules sharing a host name stay apart") {
  CHECK(switch_name_from_description("MF0;rmd70-0101-0908-01ib1-A:MCS8500/L01/U1") == "rmd70-0101-0908-01ib1-A-L01");
  CHECK(switch_name_from_description("MF0;rmd70-0101-0908-01ib1-A:MCS8500/S01/U1") == "rmd70-0101-0908-01ib1-A-S01");
}

TEST_CASE("switch names: characters Slurm's hostlist parser trips on are replaced") {
  CHECK(slurm_safe_name("Voltaire 4036 # 4036-8C5C") == "Voltaire-4036-4036-8C5C");
  CHECK(slurm_safe_name("sw[1],x") == "sw-1-x");
  // A trailing number of 20 digits overflows Slurm's hostlist suffix.
  CHECK(slurm_safe_name("s12345678901234567890") == "s12345678901234567890-x");
}

TEST_CASE("switch names: factory descriptions and duplicates fall back to the GUID") {
  auto names = name_switches({{0x8f10500200b50, "Voltaire 4036 - 36 QDR ports switch"},
                              {0x8f10500108098, "Voltaire 4036 - 36 QDR ports switch"},
                              {0x2c90200417670, "Infiniscale-IV Mellanox Technologies"},
                              {0x1, "MF0;leaf01:MQM9700/U1"}});
  CHECK(names == std::vector<std::string>{"sw-0008f10500200b50", "sw-0008f10500108098",
                                          "sw-0002c90200417670", "leaf01"});
}

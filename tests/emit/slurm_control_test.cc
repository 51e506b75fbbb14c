// Reading scontrol's answers: the names in `show topology` and `show nodes --oneliner`.
#include "emit/slurm_control.h"

#include <doctest/doctest.h>

using namespace slurmtopo;

TEST_CASE("scontrol_values: the names in `scontrol show topology` and `show nodes --oneliner`") {
  const std::string topo =
      "SwitchName=leaf01 Level=0 LinkSpeed=1 Nodes=gpu[01-04]\nSwitchName=spine Level=1 LinkSpeed=1 Switches=leaf01\n";
  CHECK(scontrol_values(topo, "SwitchName") == std::vector<std::string>{"leaf01", "spine"});
  CHECK(scontrol_values("NodeName=a Arch=x86_64 CoresPerSocket=1\nNodeName=b Arch=x86_64\n", "NodeName") ==
        std::vector<std::string>{"a", "b"});
  CHECK(scontrol_values("OtherNodeName=x", "NodeName").empty());
}

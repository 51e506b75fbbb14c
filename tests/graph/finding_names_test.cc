#include <doctest/doctest.h>

#include "graph/finding_names.h"

using namespace slurmtopo;

TEST_CASE("finding names: the names in a finding, ports and hostlists undone") {
  CHECK(finding_names("su1-rail3[5] - dgx005 mlx5_3") == std::vector<std::string>{"su1-rail3", "dgx005", "mlx5_3"});
  CHECK(finding_names("dgx[001-003]") == std::vector<std::string>{"dgx001", "dgx002", "dgx003"});
  CHECK(finding_names("factory-default node description on su3-rail6") ==
        std::vector<std::string>{"factory-default", "node", "description", "on", "su3-rail6"});
}

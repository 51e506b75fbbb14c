#include "base/text.h"

#include <doctest/doctest.h>

using namespace slurmtopo;

TEST_CASE("counted: singular for one, plural otherwise") {
  CHECK(counted(1, "leaf", "leaves") == "1 leaf");
  CHECK(counted(0, "leaf", "leaves") == "0 leaves");
  CHECK(counted(2, "switch", "switches") == "2 switches");
}

#include "graph/unit_names.h"

#include <doctest/doctest.h>

using namespace slurmtopo;

TEST_CASE("unit names: rail leaves of a unit take their common word prefix") {
  CHECK(unit_name({"su1-rail0", "su1-rail1", "su1-rail7"}, "") == "su1");
  CHECK(unit_name({"A09-P1-IBLEAF-01-01", "A09-P1-IBLEAF-01-02"}, "") == "A09-P1-IBLEAF-01");
}

TEST_CASE("unit names: words shared by every member stay, varying ones become x") {
  // DGX SuperPOD leaves are named <row>-<pod>-IBLEAF-<rail>-<unit>: the unit is the last word.
  CHECK(unit_name({"A09-P1-IBLEAF-01-01", "A09-P1-IBLEAF-02-01", "A09-P1-IBLEAF-04-01"}, "") == "A09-P1-IBLEAF-x-01");
  CHECK(unit_name({"A10-P1-IBSPINE-02", "B10-P1-IBSPINE-09"}, "") == "P1-IBSPINE");
}

TEST_CASE("unit names: one member keeps its name, no common word falls back to the first") {
  CHECK(unit_name({"leaf07"}, "") == "leaf07");
  CHECK(unit_name({"leaf01", "leaf02"}, "") == "leaf01-x2");
}

TEST_CASE("unit names: the site's group regex wins when every member agrees") {
  CHECK(unit_name({"r1-su3-l0", "r2-su3-l1"}, R"((su\d+))") == "su3");
  CHECK(unit_name({"r1-su3-l0", "r2-su4-l1"}, R"((su\d+))") == "r1-su3-l0-x2");
}

TEST_CASE("unit names: a stem shared by three quarters of the members names the unit") {
  CHECK(unit_name({"stor-leaf01", "su1-rail0", "su1-rail1", "su1-rail2"}, "") == "su1");
  CHECK(unit_name({"a-1", "a-2", "b-1", "b-2"}, "") == "a-1-x4");
}

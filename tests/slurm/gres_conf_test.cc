#include "slurm/gres_conf.h"

#include <doctest/doctest.h>

using namespace slurmtopo;

TEST_CASE("gres.conf reader: parsing keeps line numbers, expands NodeName and File ranges") {
  ParsedGres p = parse_gres_conf("\nNodeName=n[1-2] Name=gpu File=/dev/nvidia[0-1] Count=2\n", "g");
  REQUIRE(p.errors.empty());
  REQUIRE(p.lines.size() == 1);
  CHECK(p.lines[0].line == 2);
  CHECK(p.lines[0].nodes == std::vector<std::string>{"n1", "n2"});
  CHECK(p.lines[0].files == std::vector<std::string>{"/dev/nvidia0", "/dev/nvidia1"});
}

TEST_CASE("gres.conf reader: a syntax error is collected with its line, the other lines still read") {
  ParsedGres p = parse_gres_conf("NodeName=n1 Name=gpu File=/dev/nvidia0\nNodeName=n1 Name=gpu File\n", "g");
  REQUIRE(p.errors.size() == 1);
  CHECK(p.errors[0].line == 2);
  CHECK(p.errors[0].file == "g");
  CHECK(p.lines.size() == 1);
}

TEST_CASE("slurm.conf NodeName reader: GresTypes and Gres= counts by name and type") {
  ParsedNodes p = parse_node_conf("GresTypes=gpu\nNodeName=n[1-2] Sockets=2 CoresPerSocket=4 Gres=gpu:h100:8\n", "s");
  REQUIRE(p.errors.empty());
  CHECK(p.gres_types == std::vector<std::string>{"gpu"});
  REQUIRE(p.lines.size() == 1);
  CHECK(p.lines[0].nodes == std::vector<std::string>{"n1", "n2"});
  CHECK(p.lines[0].cores_per_socket == 4);
  REQUIRE(p.lines[0].gres.size() == 1);
  CHECK(p.lines[0].gres[0] == std::pair<std::string, long>{"gpu:h100", 8});
}

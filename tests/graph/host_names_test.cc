#include "graph/host_names.h"

#include <doctest/doctest.h>

using namespace slurmtopo;

namespace {
const std::regex kFirstWord(R"(^(\S+))");
}

TEST_CASE("host names: first word is the host, the rest the rail") {
  HcaIdentity id = identify_hca("a08-p1-dgx-04-c01 mlx5_5", kFirstWord, "");
  CHECK(id.host == "a08-p1-dgx-04-c01");
  CHECK(id.rail == "mlx5_5");
  CHECK(id.unresolved.empty());
}

TEST_CASE("host names: factory descriptions and localhost are never host names") {
  CHECK(identify_hca("MT4129 ConnectX7   Mellanox Technologies", kFirstWord, "").host.empty());
  CHECK(identify_hca("MT25408 ConnectX Mellanox Technologies", kFirstWord, "").unresolved ==
        "factory-default node description");
  HcaIdentity local = identify_hca("localhost HCA-6", kFirstWord, "");
  CHECK(local.host.empty());
  CHECK(local.unresolved == "node description says localhost");
  CHECK(identify_hca("", kFirstWord, "").unresolved == "empty node description");
}

TEST_CASE("host names: a name map wins over a factory description") {
  HcaIdentity id = identify_hca("MT25408 ConnectX Mellanox Technologies", kFirstWord, "sl390lin5");
  CHECK(id.host == "sl390lin5");
  CHECK(id.rail.empty());
}

TEST_CASE("host names: a site regex picks the host out of a longer description") {
  std::regex re(R"(^node:(\w+)\b)");
  CHECK(identify_hca("node:gpu17 port1", re, "").host == "gpu17");
  CHECK(identify_hca("gpu17 port1", re, "").unresolved == "host regex does not match");
}

TEST_CASE("host names: names Slurm cannot use are unresolved") {
  CHECK(identify_hca("gpu[1] mlx5_0", kFirstWord, "").host.empty());
  CHECK(identify_hca("gpu,001 mlx5_0", kFirstWord, "").host.empty());
  CHECK(identify_hca("gpu001 mlx5_0", kFirstWord, "").host == "gpu001");
}

TEST_CASE("host names: SHARP aggregation nodes are recognised") {
  CHECK(is_aggregation_node("Mellanox Technologies Aggregation Node"));
  CHECK_FALSE(is_aggregation_node("gpu001 mlx5_0"));
}

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

TEST_CASE("host names: a name map's value is a node description, and the host rule applies to it") {
  // ibnetdiscover and OpenSM put the map's value where the description goes.
  HcaIdentity id = identify_hca("MT4129 ConnectX7   Mellanox Technologies", kFirstWord, "gpu017 HCA-1");
  CHECK(id.host == "gpu017");
  CHECK(id.rail == "HCA-1");
  CHECK(id.unresolved.empty());
  // A site regex written for descriptions picks the host out of the mapped value too.
  std::regex re(R"(^node:(\w+)\b)");
  CHECK(identify_hca("MT4129 ConnectX7   Mellanox Technologies", re, "node:gpu18 mlx5_2").host == "gpu18");
  // A map giving the host alone keeps the HCA's name from the fabric's description.
  HcaIdentity bare = identify_hca("localhost HCA-3", kFirstWord, "gpu019");
  CHECK(bare.host == "gpu019");
  CHECK(bare.rail == "HCA-3");
  // The mapped value is judged like a description: a distribution default is no host name.
  CHECK(identify_hca("gpu020 mlx5_0", kFirstWord, "ubuntu mlx5_0").host.empty());
}

TEST_CASE("host names: distribution-default host names are unresolved like localhost") {
  for (const char* d : {"ubuntu mlx5_0", "debian HCA-1", "rocky mlx5_3", "(none) mlx5_0"}) {
    CAPTURE(d);
    HcaIdentity id = identify_hca(d, kFirstWord, "");
    CHECK(id.host.empty());
    CHECK(id.unresolved.find("default host name") != std::string::npos);
  }
  // A site's own list extends it.
  std::set<std::string> site = distribution_default_host_names();
  site.insert("golden-image");
  CHECK(identify_hca("golden-image mlx5_0", kFirstWord, "").host == "golden-image");
  CHECK(identify_hca("golden-image mlx5_0", kFirstWord, "", site).host.empty());
}

TEST_CASE("host names: a description whose host number no hostlist can hold is unresolved, not a crash later") {
  HcaIdentity id = identify_hca("cn99999999999999999999 HCA-1", kFirstWord, "");
  CHECK(id.host.empty());
  CHECK(id.unresolved == "'cn99999999999999999999' is not a valid Slurm node name");
}

TEST_CASE("host names: the default rule read without the regex engine says what ^(\\S+) says") {
  const std::set<std::string>& placeholders = distribution_default_host_names();
  for (const char* d : {"a08-p1-dgx-04-c01 mlx5_5", "gpu001\tHCA-1", "gpu001\vHCA-1", "gpu001\fx", "host", "",
                        "   ", "  gpu7   mlx5_0  ", "MT4129 ConnectX7   Mellanox Technologies", "localhost HCA-6",
                        "ubuntu mlx5_0", "bad/name HCA-1", "cn99999999999999999999 HCA-1", "x\xc3\xa9y mlx5_1"})
    for (const char* mapped : {"", "gpu017 HCA-1", "gpu018", "  "}) {
      CAPTURE(d);
      CAPTURE(mapped);
      const HcaIdentity engine = identify_hca(d, &kFirstWord, mapped, placeholders);
      const HcaIdentity fast = identify_hca(d, nullptr, mapped, placeholders);
      CHECK(fast.host == engine.host);
      CHECK(fast.rail == engine.rail);
      CHECK(fast.unresolved == engine.unresolved);
    }
}

// `slurmtopo discover fabric` as an admin runs it on a machine without InfiniBand: a clear
// error and nothing written. (The sweep itself runs against ibsim in
// tests/integration/ibsim_discovery_test.sh, where the simulator provides the HCA.)
#include <doctest/doctest.h>

#include <cstdlib>

#include "tests/cli/cli_test_support.h"
#include "tests/skip.h"

using slurmtopo::testing::run;
using slurmtopo::testing::Scratch;

TEST_CASE("slurmtopo discover fabric: no usable HCA is exit 2, names the port, writes nothing") {
  if (std::getenv("LD_PRELOAD")) {
    slurmtopo::testing::skip("LD_PRELOAD is set (a simulated HCA may answer)");
    return;
  }
  Scratch s;
  const auto r = run("discover fabric --ca no_such_hca0 --port 1 --save " + s.path("cluster.json"));
  CHECK(r.code == 2);
  CHECK(r.output.find("live:no_such_hca0/1") != std::string::npos);
  CHECK(r.output.find("cannot open the InfiniBand port") != std::string::npos);
  CHECK_FALSE(s.exists("cluster.json"));
}

TEST_CASE("slurmtopo discover fabric: --routes FILE is read before the sweep, option ranges are checked") {
  Scratch s;
  const auto missing = run("discover fabric --routes " + s.path("missing.fts"));
  CHECK(missing.code == 2);
  CHECK(missing.output.find("missing.fts: cannot open the forwarding table dump") != std::string::npos);
  const auto bad = run("discover fabric --routes " + s.write("bad.fts", "0x0001 001\n"));
  CHECK(bad.code == 2);
  CHECK(bad.output.find("bad.fts:1: a LID entry outside a switch's table") != std::string::npos);
  CHECK(run("discover fabric --timeout-ms 0").code == 2);
  CHECK(run("discover fabric --max-hops 99").code == 2);
}

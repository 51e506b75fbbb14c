// Values are checked alike in every command (cli/option_values.h): a number out of range reads
// "OPTION: expected a whole number of at least 1, got '0'" (never a double's limits to 300
// digits), and a mistyped word gets the nearest valid one. Exit 2, as for any bad input.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "tests/cli/cli_test_support.h"

using slurmtopo::testing::run;

namespace {
const std::string kFabric = " --fabric " + std::string(SLURMTOPO_SOURCE_DIR) + "/samples/fattree-2level.topo";

bool has(const slurmtopo::testing::Run& r, const std::string& text) { return r.output.find(text) != std::string::npos; }
}  // namespace

TEST_CASE("option values: place -N 0 says the range in words, as whatif's -N does") {
  const auto r = run("place" + kFabric + " --nodes x -N 0");
  CHECK(r.code == 2);
  CHECK(has(r, "--count: expected a whole number of at least 1, got '0'"));
  CHECK(r.output.size() < 200);  // no 1.79769e+308 spelled out
  CHECK_FALSE(has(r, "000000000000"));
}

TEST_CASE("option values: every command's numbers read alike, whole numbers and ranges") {
  struct Case {
    std::string args, said;
  };
  for (const Case& c : std::vector<Case>{
           {"whatif" + kFabric + " -N 8 --samples 0", "--samples: expected a whole number of at least 1, got '0'"},
           {"whatif" + kFabric + " -N 8 --samples 2.5", "--samples: expected a whole number of at least 1, got '2.5'"},
           {"generate fattree --radix 2", "--radix: expected a whole number from 4 to 128, got '2'"},
           {"generate fattree --hosts -3", "--hosts: expected a whole number of at least 0, got '-3'"},
           {"generate fattree --oversubscription 20", "--oversubscription: expected a number from 1 to 16, got '20'"},
           {"discover fabric --port 999", "--port: expected a whole number from 0 to 254, got '999'"},
           {"apply" + kFabric + " --verify-timeout 0", "--verify-timeout: expected a whole number from 1 to 3600, got '0'"},
           {"place" + kFabric + " --nodes x -N 99999999999999999999", "expected a whole number of at least 1"},
       }) {
    INFO(c.args);
    const auto r = run(c.args);
    CHECK(r.code == 2);
    CHECK(has(r, c.said));
  }
}

TEST_CASE("option values: a mistyped word is answered with the nearest valid one") {
  auto r = run("emit topology" + kFabric + " --plugin blok");
  CHECK(r.code == 2);
  CHECK(has(r, "--plugin: expected tree or block, got 'blok'; did you mean block?"));
  r = run("emit topology" + kFabric + " --format yml");
  CHECK(r.code == 2);
  CHECK(has(r, "--format: expected conf or yaml, got 'yml'; did you mean yaml?"));
  r = run("generate fattree --speed ndx");
  CHECK(r.code == 2);
  CHECK(has(r, "did you mean NDR?"));
  r = run("generate fattree --speed ndr -o -");  // any case, turned into the listed word
  CHECK(r.code == 0);
  // Was an internal error (exit 1, std::bad_array_new_length) from deep in the run.
  r = run("whatif" + kFabric + " -N 2 --routing ftre");
  CHECK(r.code == 2);
  CHECK(has(r, "--routing: expected minhop, ftree or adaptive (any case), got 'ftre'; did you mean ftree?"));
  r = run("simulate" + kFabric + " --profile h100-ndr --nodes cn001 --algo rign");
  CHECK(r.code == 2);
  CHECK(has(r, "did you mean ring?"));
  r = run("completion fish");
  CHECK(r.code == 2);
  CHECK(has(r, "expected bash or zsh (any case), got 'fish'"));
  CHECK_FALSE(has(r, "did you mean"));  // nothing is near it
}

TEST_CASE("option values: help with a wrong command word names the nearest, or lists them all") {
  auto r = run("help emti");
  CHECK(r.code == 2);
  CHECK(has(r, "did you mean emit?"));
  r = run("help bogus");
  CHECK(r.code == 2);
  CHECK(has(r, "not 'bogus'"));
  CHECK(has(r, "inspect, emit"));
}

TEST_CASE("option values: a one-letter option is suggested only for the same letter in the other case") {
  auto r = run("inspect" + kFabric + " -n");
  CHECK(r.code == 2);
  CHECK_FALSE(has(r, "did you mean -h"));
  CHECK(has(r, "unknown option '-n' of `slurmtopo inspect`"));
  r = run("place" + kFabric + " --nodes 'n[1-4]' -n 2");
  CHECK(r.code == 2);
  CHECK(has(r, "did you mean -N?"));
}

#include <doctest/doctest.h>

#include <filesystem>
#include <sstream>

#include "base/files.h"
#include "base/input_error.h"
#include "commission_fixture.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;

TEST_CASE("report write: each rendering asked for, the verdict lines, and the exit code") {
  const auto dir = std::filesystem::temp_directory_path() / "slurmtopo_report_write_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  CommissionOutputs o{(dir / "r.html").string(), (dir / "r.json").string(), (dir / "r.md").string()};
  std::ostringstream out;
  CHECK(write_commission(superpod_report(), o, out) == 4);
  CHECK(out.str().rfind("verdict: fail\n", 0) == 0);
  CHECK(read_file(o.json) == commission_json(superpod_report()));
  CHECK(read_file(o.markdown) == commission_markdown(superpod_report()));
  CHECK(read_file(o.html).rfind("<!DOCTYPE html>", 0) == 0);
  std::ostringstream quiet;
  CHECK(write_commission(fattree_report(), CommissionOutputs{"", o.json, ""}, quiet) == 0);
  CHECK(std::filesystem::exists(o.json + ".bak"));  // the previous report kept
  CHECK_THROWS_AS(write_commission(fattree_report(), CommissionOutputs{}, quiet), InputError);
  std::filesystem::remove_all(dir);
}

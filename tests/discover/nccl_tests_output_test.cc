// nccl-tests stdout, read back: fixtures built from nccl-tests' own format strings
// (tests/data/nccl/README.md says which tag and file each follows; values illustrative), and
// short texts inline for the forms and the errors.
#include "discover/nccl_tests_output.h"

#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "base/files.h"
#include "base/input_error.h"

using namespace slurmtopo;

namespace {

const std::string kData = SLURMTOPO_SOURCE_DIR "/tests/data/nccl/";

std::vector<NcclTestsRun> read_fixture(const std::string& name) {
  return parse_nccl_tests_output(read_file(kData + name), kData + name);
}

const NcclTestsRow* row_of(const NcclTestsRun& run, double bytes) {
  for (const NcclTestsRow& r : run.rows)
    if (r.bytes == bytes) return &r;
  return nullptr;
}

// Every printed busbw is algbw × the collective's factor, each rounded to its own 2 decimals.
void check_bus_factor(const NcclTestsRun& run) {
  const double f = nccl_tests_bus_factor(run.collective, run.ranks());
  REQUIRE(f > 0);
  for (const NcclTestsRow& r : run.rows) {
    for (const NcclTestsFigures* h : {&r.out_of_place, &r.in_place}) {
      INFO(run.source << ":" << r.line);
      CHECK(std::abs(h->busbw_gbs - h->algbw_gbs * f) <= 0.006 * f + 0.006);
      // algbw is the size over the time, bytes / 1e9 / seconds: within algbw's rounding and the
      // time's (2 decimals, or fewer when width-fitted past 10 ms).
      if (h->time_us > 0) CHECK(std::abs(h->algbw_gbs - r.bytes / (h->time_us * 1e3)) <= 0.006 + 1e-3 * h->algbw_gbs);
    }
  }
}

constexpr double k8GiB = 8589934592.0;

}  // namespace

TEST_CASE("2 nodes x 8 H100 over MPI: all 16 ranks, the 8 GiB row and the average") {
  const auto runs = read_fixture("all_reduce_perf-2x8-h100.out");
  REQUIRE(runs.size() == 1);
  const NcclTestsRun& r = runs[0];
  CHECK(r.line == 1);
  CHECK(r.label.empty());
  CHECK(r.collective == "all_reduce");
  CHECK(r.version == "2.19.6");
  CHECK(r.nccl_library == 22809);
  CHECK(r.threads == 1);
  CHECK(r.gpus == 1);
  CHECK(r.min_bytes == 8);
  CHECK(r.max_bytes == k8GiB);
  CHECK(r.warmup_iters == 1);
  CHECK(r.iters == 20);
  CHECK_FALSE(r.cpu_time);
  REQUIRE(r.ranks() == 16);
  const char* bus[] = {"0000:1b:00", "0000:43:00", "0000:52:00", "0000:61:00",
                       "0000:9d:00", "0000:c3:00", "0000:d1:00", "0000:df:00"};
  for (int i = 0; i < 16; ++i) {
    const NcclTestsDevice& d = r.devices[static_cast<size_t>(i)];
    CAPTURE(i);
    CHECK(d.rank == i);
    CHECK(d.group == 0);
    CHECK(d.host == (i < 8 ? "gpu-017" : "gpu-018"));
    CHECK(d.device == i % 8);
    CHECK(d.bus_id == bus[i % 8]);
    CHECK(d.name == "NVIDIA H100 80GB HBM3");
    CHECK(d.line == 6 + i);
  }
  CHECK(r.devices[0].pid == 41235);
  CHECK(r.devices[15].pid == 38817);
  REQUIRE(r.rows.size() == 31);  // 8 B .. 8 GiB, step 2(factor)
  CHECK(r.rows.front().bytes == 8);
  CHECK(r.rows.front().count == 2);
  CHECK(r.rows.front().type == "float");
  CHECK(r.rows.front().redop == "sum");
  CHECK(r.rows.front().root == -1);
  const NcclTestsRow& big = r.rows.back();
  CHECK(big.bytes == k8GiB);
  CHECK(big.count == 2147483648L);
  CHECK(big.out_of_place.time_us == doctest::Approx(43028.3));  // width-fitted: one decimal
  CHECK(big.out_of_place.algbw_gbs == doctest::Approx(199.63));
  CHECK(big.out_of_place.busbw_gbs == doctest::Approx(374.31));
  CHECK(big.in_place.busbw_gbs == doctest::Approx(366.55));
  CHECK(big.out_of_place.nwrong == 0);
  CHECK(big.in_place.nwrong == 0);
  CHECK_FALSE(big.out_of_place.per_iteration);
  CHECK(big.timestamp.empty());
  CHECK(big.line == 56);
  REQUIRE(r.avg_busbw_gbs);
  CHECK(*r.avg_busbw_gbs == doctest::Approx(132.168));
  CHECK(r.out_of_bounds == 0);
  CHECK(r.complete);
  check_bus_factor(r);
}

TEST_CASE("the same run with NCCL_DEBUG=INFO lines interleaved reads the same") {
  const auto plain = read_fixture("all_reduce_perf-2x8-h100.out");
  const auto runs = read_fixture("all_reduce_perf-2x8-h100-nccl-debug.out");
  REQUIRE(runs.size() == 1);
  REQUIRE(plain.size() == 1);
  const NcclTestsRun& r = runs[0];
  CHECK(r.complete);
  REQUIRE(r.ranks() == 16);
  REQUIRE(r.rows.size() == plain[0].rows.size());
  for (size_t i = 0; i < r.rows.size(); ++i) {
    CHECK(r.rows[i].bytes == plain[0].rows[i].bytes);
    CHECK(r.rows[i].out_of_place.busbw_gbs == plain[0].rows[i].out_of_place.busbw_gbs);
    CHECK(r.rows[i].in_place.time_us == plain[0].rows[i].in_place.time_us);
  }
  for (int i = 0; i < 16; ++i) {
    CHECK(r.devices[static_cast<size_t>(i)].host == plain[0].devices[static_cast<size_t>(i)].host);
    CHECK(r.devices[static_cast<size_t>(i)].bus_id == plain[0].devices[static_cast<size_t>(i)].bus_id);
  }
  CHECK(*r.avg_busbw_gbs == doctest::Approx(132.168));
  check_bus_factor(r);
}

TEST_CASE("v2.13.0 form: no version line, no Group, [0x07] bus ids, the collective from the file's name") {
  const auto runs = read_fixture("all_gather_perf-v2.13-a100.out");
  REQUIRE(runs.size() == 1);
  const NcclTestsRun& r = runs[0];
  CHECK(r.collective == "all_gather");
  CHECK(r.version.empty());
  CHECK(r.nccl_library == 0);
  CHECK(r.gpus == 8);
  CHECK(r.warmup_iters == 5);
  REQUIRE(r.ranks() == 8);
  CHECK(r.devices[0].host == "gpu-003");
  CHECK(r.devices[0].group == 0);
  CHECK(r.devices[0].pid == 20817);
  CHECK(r.devices[0].bus_id == "0000:07:00");
  CHECK(r.devices[7].bus_id == "0000:bd:00");
  CHECK(r.devices[7].device == 7);
  CHECK(r.devices[7].name == "NVIDIA A100-SXM4-80GB");
  REQUIRE(r.rows.size() == 23);  // 1 KiB .. 4 GiB
  const NcclTestsRow& big = r.rows.back();
  CHECK(big.bytes == 4294967296.0);
  CHECK(big.count == 134217728);  // all_gather prints each rank's elements
  CHECK(big.redop == "none");
  CHECK(big.out_of_place.time_us == 16580);  // "%7.0f" past 10 ms
  CHECK(big.out_of_place.busbw_gbs == doctest::Approx(226.66));
  CHECK(*r.avg_busbw_gbs == doctest::Approx(110.026));
  CHECK(r.complete);
  check_bus_factor(r);
}

TEST_CASE("two runs in one file: all_reduce then reduce_scatter, each whole") {
  const auto runs = read_fixture("two-runs-2x8-h100.out");
  REQUIRE(runs.size() == 2);
  CHECK(runs[0].collective == "all_reduce");
  CHECK(runs[1].collective == "reduce_scatter");
  CHECK(runs[0].line == 2);
  CHECK(runs[1].line == 48);
  for (const NcclTestsRun& r : runs) {
    CHECK(r.complete);
    CHECK(r.ranks() == 16);
    CHECK(r.rows.size() == 14);  // 1 MiB .. 8 GiB
    check_bus_factor(r);
  }
  CHECK(*runs[0].avg_busbw_gbs == doctest::Approx(288.26));
  CHECK(*runs[1].avg_busbw_gbs == doctest::Approx(250.922));
  const NcclTestsRow* rs = row_of(runs[1], k8GiB);
  REQUIRE(rs);
  CHECK(rs->count == 134217728);  // each rank's share
  CHECK(rs->out_of_place.busbw_gbs == doctest::Approx(351.98));
}

TEST_CASE("a non-MPI build on 2 tasks under srun -l: one single-node run per label") {
  const auto runs = read_fixture("all_reduce_perf-srun-l-2tasks.out");
  REQUIRE(runs.size() == 2);
  CHECK(runs[0].label == "0");
  CHECK(runs[1].label == "1");
  CHECK(runs[0].line == 1);
  CHECK(runs[1].line == 5);
  const char* hosts[] = {"gpu-017", "gpu-018"};
  for (size_t t = 0; t < 2; ++t) {
    const NcclTestsRun& r = runs[t];
    CAPTURE(t);
    CHECK(r.version == "2.18.3");
    CHECK(r.gpus == 8);
    CHECK(r.complete);
    REQUIRE(r.ranks() == 8);  // each task is its own 8-GPU test, not one 16-rank run
    for (const NcclTestsDevice& d : r.devices) CHECK(d.host == hosts[t]);
    CHECK(r.devices[0].rank == 0);
    CHECK(r.rows.size() == 14);
    check_bus_factor(r);
  }
  CHECK(row_of(runs[0], k8GiB)->out_of_place.busbw_gbs == doctest::Approx(469.58));
  CHECK(row_of(runs[1], k8GiB)->in_place.busbw_gbs == doctest::Approx(460.06));
  CHECK(*runs[0].avg_busbw_gbs == doctest::Approx(384.601));
  CHECK(*runs[1].avg_busbw_gbs == doctest::Approx(380.035));
  CHECK(runs[0].devices[3].line == 14);
  CHECK(runs[1].devices[3].line == 21);
}

TEST_CASE("a run cut mid-table keeps its rows and says it is incomplete") {
  const auto runs = read_fixture("all_reduce_perf-2x8-h100-truncated.out");
  REQUIRE(runs.size() == 1);
  const NcclTestsRun& r = runs[0];
  CHECK_FALSE(r.complete);
  CHECK_FALSE(r.avg_busbw_gbs);
  CHECK(r.ranks() == 16);
  REQUIRE(r.rows.size() == 27);  // up to 512 MiB; the half-written 1 GiB line is dropped
  CHECK(r.rows.back().bytes == 536870912.0);
  CHECK(r.rows.back().out_of_place.busbw_gbs == doctest::Approx(370.84));
  check_bus_factor(r);
}

namespace {

const std::string kHeader =
    "# nccl-tests version 2.19.6 nccl-headers=22809 nccl-library=22809\n"
    "# Collective test starting: broadcast_perf\n"
    "# nThread 1 nGpus 2 minBytes 1048576 maxBytes 2097152 step: 2(factor) warmup iters: 5 iters: 50 agg iters: 1 "
    "validation: 0 graph: 0 unalign: 0\n"
    "#\n"
    "# Using devices\n"
    "#  Rank  0 Group  0 Pid   1001 on      gpu-1 device  0 [0000:1B:00] NVIDIA H100 80GB HBM3\n"
    "#  Rank  1 Group  0 Pid   1001 on      gpu-1 device  1 [0000:43:00] NVIDIA H100 80GB HBM3\n"
    "#\n";

const std::string kColumns =
    "#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw   busbw  #wrong \n";

}  // namespace

TEST_CASE("#wrong N/A, width-fitted figures and a header line with any padding") {
  const std::string text = kHeader + kColumns +
                           "     1048576        262144     float    none       0    1e+03    1.05    1.05    N/A  1.2e+04    0.09    0.09    N/A\n"
                           "     2097152        524288     float    none       0       12     175     175    N/A     12.5  167.77  167.77    N/A\n"
                           "# Out of bounds values : 3 FAILED\n"
                           "# Avg bus bandwidth : 85.7 OK\n";
  const auto runs = parse_nccl_tests_output(text, "job.out");
  REQUIRE(runs.size() == 1);
  const NcclTestsRun& r = runs[0];
  CHECK(r.collective == "broadcast");
  CHECK(r.iters == 50);
  CHECK(r.devices[0].bus_id == "0000:1b:00");  // lower case, as sysfs writes it
  REQUIRE(r.rows.size() == 2);
  CHECK(r.rows[0].root == 0);
  CHECK(r.rows[0].out_of_place.time_us == 1000);
  CHECK(r.rows[0].in_place.time_us == 12000);
  CHECK(r.rows[0].out_of_place.nwrong == -1);
  CHECK(r.rows[0].in_place.nwrong == -1);
  CHECK(r.rows[1].out_of_place.busbw_gbs == 175);
  CHECK(r.out_of_bounds == 3);
  CHECK(*r.avg_busbw_gbs == doctest::Approx(85.7));
  CHECK(r.complete);
}

TEST_CASE("-C 1, -S 1 and -I 1 columns are read by the header's names") {
  const std::string text =
      kHeader +
      "#       size         count      type   redop    root  cputime   algbw   busbw  #wrong    i_min    i_max    i_p99    i_cv%"
      "  cputime   algbw   busbw  #wrong    i_min    i_max    i_p99    i_cv%           timestamp\n"
      "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)     (us)     (us)      (%)"
      "     (us)  (GB/s)  (GB/s)             (us)     (us)     (us)      (%)   %Y-%m-%d %H:%M:%S\n"
      "     1048576        262144     float    none       0    10.50   99.86   99.86       0     9.80    12.10    12.00     4.20"
      "    10.40  100.82  100.82       0     9.70    11.90    11.80     3.90  2025-06-01 12:00:00\n";
  const auto runs = parse_nccl_tests_output(text, "x.out");
  REQUIRE(runs.size() == 1);
  const NcclTestsRun& r = runs[0];
  CHECK(r.cpu_time);
  CHECK_FALSE(r.complete);
  REQUIRE(r.rows.size() == 1);
  const NcclTestsRow& row = r.rows[0];
  CHECK(row.out_of_place.time_us == doctest::Approx(10.5));
  CHECK(row.in_place.busbw_gbs == doctest::Approx(100.82));
  REQUIRE(row.out_of_place.per_iteration);
  REQUIRE(row.in_place.per_iteration);
  CHECK(row.out_of_place.per_iteration->p99_us == doctest::Approx(12.0));
  CHECK(row.in_place.per_iteration->min_us == doctest::Approx(9.7));
  CHECK(row.in_place.per_iteration->cv_pct == doctest::Approx(3.9));
  CHECK(row.timestamp == "2025-06-01 12:00:00");
}

TEST_CASE("a bad line inside a run is an error naming file and line") {
  SUBCASE("a row with a non-number") {
    const std::string text = kHeader + kColumns +
                             "     1048576        262144     float    none       0    10.00  104.86  1O4.86       0    10.00  104.86  104.86       0\n";
    try {
      parse_nccl_tests_output(text, "job.out");
      FAIL("no error");
    } catch (const InputError& e) {
      CHECK(e.line() == 10);
      CHECK(std::string(e.what()).find("job.out:10: expected a number for busbw (out-of-place)") == 0);
    }
  }
  SUBCASE("a row short of fields") {
    const std::string text = kHeader + kColumns + "     1048576        262144     float    none       0    10.00  104.86\n#\n";
    CHECK_THROWS_WITH_AS(parse_nccl_tests_output(text, "job.out"), doctest::Contains("job.out:10: expected 13 fields"),
                         InputError);
  }
  SUBCASE("a device line without its bus id") {
    const std::string text = "# nThread 1 nGpus 1 minBytes 8 maxBytes 8 step: 2(factor) warmup iters: 1 iters: 1\n"
                             "# Using devices\n"
                             "#  Rank  0 Group  0 Pid   1001 on      gpu-1 device  0 NVIDIA H100 80GB HBM3\n";
    CHECK_THROWS_WITH_AS(parse_nccl_tests_output(text, "a.out"), doctest::Contains("a.out:3: expected \"#  Rank R Group"),
                         InputError);
  }
  SUBCASE("an unknown column name") {
    const std::string text = kHeader + "#       size         count      type   redop    root     time   algbw   speed\n";
    CHECK_THROWS_WITH_AS(parse_nccl_tests_output(text, "a.out"), doctest::Contains("a.out:9: expected the table's column names"),
                         InputError);
  }
  SUBCASE("an average that is no number") {
    const std::string text = kHeader + "# Avg bus bandwidth    : fast\n";
    CHECK_THROWS_WITH_AS(parse_nccl_tests_output(text, "a.out"), doctest::Contains("a.out:9: expected a number after"),
                         InputError);
  }
  SUBCASE("an nThread line without its numbers") {
    CHECK_THROWS_WITH_AS(parse_nccl_tests_output("# nThread one nGpus 1\n", "a.out"),
                         doctest::Contains("a.out:1: expected a whole number after \"nThread\""), InputError);
  }
}

TEST_CASE("a half-written last line is dropped only when it is the very last and has no newline") {
  const std::string rows = kHeader + kColumns +
                           "     1048576        262144     float    none       0    10.00  104.86  104.86       0    10.00  104.86  104.86       0\n"
                           "     2097152        524288     float    none       0    19.90  105.";
  const auto runs = parse_nccl_tests_output(rows, "cut.out");
  REQUIRE(runs.size() == 1);
  CHECK(runs[0].rows.size() == 1);
  CHECK_FALSE(runs[0].complete);
  // The same line followed by a newline was printed that way: an error.
  CHECK_THROWS_AS(parse_nccl_tests_output(rows + "\n", "cut.out"), InputError);
  // A last line that is whole without its newline is kept.
  const std::string whole = kHeader + kColumns +
                            "     1048576        262144     float    none       0    10.00  104.86  104.86       0    10.00  104.86  104.86       0";
  CHECK(parse_nccl_tests_output(whole, "w.out")[0].rows.size() == 1);
}

TEST_CASE("text with no run is no error, and lines outside a run are not read") {
  CHECK(parse_nccl_tests_output("", "empty.out").empty());
  CHECK(parse_nccl_tests_output("srun: error: gpu-017: task 0: Exited with exit code 1\n"
                                "     1048576  this is not a row\n"
                                "# Avg bus bandwidth : nothing\n",
                                "job.out")
            .empty());
  CHECK_FALSE(looks_like_nccl_tests_output("gpu-017:1:1 [0] NCCL INFO NCCL version 2.21.5+cuda12.4\n"));
  CHECK(looks_like_nccl_tests_output("srun: job 42 queued\n 3: # nThread 1 nGpus 8 minBytes 8\n"));
  CHECK(looks_like_nccl_tests_output(read_file(kData + "all_gather_perf-v2.13-a100.out")));
  CHECK(looks_like_nccl_tests_output("# nccl-tests version 2.19.6 nccl-headers=22809 nccl-library=22809\n"));
}

TEST_CASE("a header without the version line starts its run at Collective test starting") {
  const std::string text =
      "# Collective test starting: sendrecv_perf\n"
      "# nThread 1 nGpus 1 minBytes 8 maxBytes 8 step: 2(factor) warmup iters: 1 iters: 1 agg iters: 1 validation: 1 graph: 0\n"
      "#\n"
      "# Collective test starting: alltoall_perf\n"
      "# nThread 1 nGpus 1 minBytes 8 maxBytes 8 step: 1048576(bytes) warmup iters: 1 iters: 1 agg iters: 1 validation: 1 graph: 0\n";
  const auto runs = parse_nccl_tests_output(text, "all_reduce_perf.out");
  REQUIRE(runs.size() == 2);
  CHECK(runs[0].collective == "sendrecv");  // the header's name wins over the file's
  CHECK(runs[1].collective == "alltoall");
  CHECK(runs[1].line == 4);
}

TEST_CASE("bus factors as nccl-tests' GetBw functions compute them") {
  CHECK(nccl_tests_bus_factor("all_reduce", 16) == doctest::Approx(1.875));
  CHECK(nccl_tests_bus_factor("all_reduce", 8) == doctest::Approx(1.75));
  CHECK(nccl_tests_bus_factor("all_reduce", 1) == 0);
  CHECK(nccl_tests_bus_factor("reduce_scatter", 16) == doctest::Approx(0.9375));
  CHECK(nccl_tests_bus_factor("all_gather", 8) == doctest::Approx(0.875));
  CHECK(nccl_tests_bus_factor("alltoall", 4) == doctest::Approx(0.75));
  CHECK(nccl_tests_bus_factor("broadcast", 16) == 1);
  CHECK(nccl_tests_bus_factor("reduce", 16) == 1);
  CHECK(nccl_tests_bus_factor("sendrecv", 2) == 1);
  CHECK(nccl_tests_bus_factor("bogus", 16) == 0);
  CHECK(nccl_tests_bus_factor("all_reduce", 0) == 0);
}

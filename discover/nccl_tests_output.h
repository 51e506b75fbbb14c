// Reader for nccl-tests' stdout (all_reduce_perf and the other *_perf programs, v2.13–v2.19):
// the header, the `# Using devices` lines (each rank's host, CUDA device and bus id: the
// placement that was measured), the size table with its out-of-place and in-place halves, and
// the average bus bandwidth. Formats: ../shared/reference/nccl-evidence.md §1.
//
// A file may hold several runs one after another (a job script running each collective, or a
// non-MPI build started once per task, which prints one whole run per process). Lines that are
// not nccl-tests' own (NCCL_DEBUG=INFO lines, which NCCL prints to the same stdout; srun's and
// the shell's) are skipped. `srun -l` labels ("  3: ") are taken off, and the lines of each label
// are read as their own stream, so interleaved tasks still give whole runs. A run cut short
// (no `# Avg bus bandwidth` line) keeps the rows it has and says it is incomplete. The file's
// last line, when no '\n' ends it, was cut while being written (a job killed at its time limit):
// if it does not read as a whole line of its kind it is dropped, not an error; a whole one is kept.
//
// The table's columns are taken from its header line (`#  size  count ... #wrong`), so `-C 1`
// (`cputime`), `-S 1` (a `timestamp` after the in-place half: two words, date and time) and
// `-I 1` (`i_min i_max i_p99 i_cv%` after each half, v2.19.2+) are read; a row before any header
// line is read with the plain 13 columns.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace slurmtopo {

// `#  Rank  0 Group  0 Pid  41235 on    gpu-017 device  0 [0000:1b:00] NVIDIA H100 80GB HBM3`
struct NcclTestsDevice {
  int rank = 0;
  int group = 0;            // 0 before v2.13.4, which has no Group
  long pid = 0;
  std::string host;         // as printed: cut at the first '.'
  int device = 0;           // the CUDA ordinal in that process
  std::string bus_id;       // "0000:1b:00" (v2.14.1+); "0000:1b:00" too from the older `[0x1b]`
  std::string name;         // "NVIDIA H100 80GB HBM3"
  int line = 0;
};

// `-I 1` (v2.19.2+): the half's per-iteration times, i_min i_max i_p99 (µs) and i_cv% (%).
struct NcclTestsIterationStats {
  double min_us = 0, max_us = 0, p99_us = 0, cv_pct = 0;
};

// One half of a row. nwrong -1 where nccl-tests printed N/A (-c 0).
struct NcclTestsFigures {
  double time_us = 0;
  double algbw_gbs = 0;
  double busbw_gbs = 0;
  long nwrong = -1;
  std::optional<NcclTestsIterationStats> per_iteration;  // with `-I 1` only
};

struct NcclTestsRow {
  double bytes = 0;          // nccl-tests' size: the whole buffer
  long count = 0;            // elements
  std::string type;          // "float"
  std::string redop;         // "sum", "none"
  int root = -1;
  NcclTestsFigures out_of_place, in_place;
  std::string timestamp;     // `-S 1` (v2.17.6+): "2025-06-01 12:00:00"; "" without
  int line = 0;
};

struct NcclTestsRun {
  std::string source;        // the file
  int line = 0;              // where the run's header starts
  std::string label;         // the `srun -l` label its lines carried, "" without
  // The collective, as nccl-tests names its program without "_perf": "all_reduce",
  // "all_gather", "reduce_scatter", "broadcast", "reduce", "alltoall", "sendrecv", ...
  // From `# Collective test starting:` (v2.16.7+), else from the file's name
  // (".../all_reduce_perf.out"), else "".
  std::string collective;
  std::string version;       // "2.19.6" from `# nccl-tests version`, "" before v2.17.4
  int nccl_library = 0;      // 22809 from `nccl-library=`, 0 where not printed
  int threads = 1, gpus = 1; // `# nThread 1 nGpus 1`: per process
  double min_bytes = 0, max_bytes = 0;
  int iters = 0, warmup_iters = 0;
  bool cpu_time = false;     // the header names the time columns `cputime` (-C 1, v2.17.3+)
  std::vector<NcclTestsDevice> devices;  // rank order as printed
  std::vector<NcclTestsRow> rows;        // size order as printed
  std::optional<double> avg_busbw_gbs;   // `# Avg bus bandwidth`
  long out_of_bounds = 0;                // `# Out of bounds values : N FAILED|OK`
  bool complete = false;                 // the `# Avg bus bandwidth` line was there
  // Ranks in the run: the devices listed (an MPI build lists every rank).
  int ranks() const { return static_cast<int>(devices.size()); }
};

// Every run in the text, in file order. `file` names it in errors and in each run's source.
// InputError(file, line, what was expected) for a line inside a run's header or table that is
// not of nccl-tests' form (a device line without its fields, a row with a non-number where a
// number goes or not the header's number of fields: inside a run, a line whose first word is a
// whole number is taken for a row); a text with no run at all is not an error (an empty
// vector: the caller says what it looked for). Lines outside a run are never an error.
std::vector<NcclTestsRun> parse_nccl_tests_output(std::string_view text, const std::string& file);

// True when the first lines hold an nccl-tests header (`# nThread`, `# nccl-tests version`,
// `# Collective test starting`), with or without srun labels.
bool looks_like_nccl_tests_output(std::string_view head);

// busbw / algbw for a collective on n ranks, nccl-tests' factors (src/<coll>.cu *GetBw):
// all_reduce 2(n-1)/n; reduce_scatter, all_gather, alltoall (n-1)/n; broadcast, reduce,
// sendrecv 1. 0 for a collective it does not know.
double nccl_tests_bus_factor(const std::string& collective, int ranks);

}  // namespace slurmtopo

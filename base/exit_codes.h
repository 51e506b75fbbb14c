// slurmtopo's exit codes, one set for every command. Each command's --help (and man page, EXIT
// STATUS) lists the ones it uses and what they mean there; docs/exit-codes.md has the table.
//   0  done: the file written, the check passed, the job placed
//   1  internal error (a bug: an unexpected exception), never bad input
//   2  bad input, or a file Slurm would refuse: nothing written, nothing changed
//   3  done as far as it could, look before relying on it: report WARN, a partial sweep, a job
//      that cannot start now, an apply rolled back
//   4  the cluster fails a check: report FAIL, apply over --max-anomalies
#pragma once

namespace slurmtopo::exit_code {

inline constexpr int kOk = 0;
inline constexpr int kInternalError = 1;
inline constexpr int kBadInput = 2;
inline constexpr int kAttention = 3;
inline constexpr int kFails = 4;

}  // namespace slurmtopo::exit_code

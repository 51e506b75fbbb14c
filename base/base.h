// base/: what every stage needs.
//   input_error.h   InputError: bad input named by file and line (the CLI exits 2)
//   exit_codes.h    the exit codes every command shares (0 done, 1 bug, 2 bad input, 3 look, 4 fails)
//   files.h         reading a whole file, "-" = stdout, write_output
//   atomic_write.h  temp file + rename, the previous file kept as .bak
//   json_fields.h   strict reading of slurmtopo's JSON (every key known, errors on their line)
//   json_line.h     the line of a JSON value, for those errors
//   lines.h         a text cut into numbered lines
//   malloc_tuning.h keep freed memory for reuse (a prediction's arrays fault in once, not per solve)
//   nearest_word.h  the valid word a typo was meant to be (did you mean ...?)
//   numbers.h       whole numbers as typed on a command line
//   regex.h         compiling a pattern an admin typed, refusing what libstdc++ would overflow on
//   shell_quote.h   a word as the shell reads it back (the scripts slurmtopo writes)
//   text.h          counts in messages: "1 leaf", "2 leaves"
//   version.h       slurmtopo's version (CMake's project VERSION)
//   yaml_fields.h   strict reading of slurmtopo's YAML (site.yaml, hardware profiles)
#pragma once

#include "base/atomic_write.h"
#include "base/exit_codes.h"
#include "base/files.h"
#include "base/input_error.h"
#include "base/json_fields.h"
#include "base/json_line.h"
#include "base/lines.h"
#include "base/malloc_tuning.h"
#include "base/nearest_word.h"
#include "base/numbers.h"
#include "base/regex.h"
#include "base/shell_quote.h"
#include "base/text.h"
#include "base/version.h"
#include "base/yaml_fields.h"

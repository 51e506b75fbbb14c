// Writing what Slurm reads: never a half-written file, and the previous one kept as .bak.
#pragma once

#include <string>

namespace slurmtopo {

enum class WriteResult { Written, Unchanged };

// Writes `content` to a temp file beside `path`, flushes it to disk, keeps the current file
// as `path.bak`, then renames the temp file over `path`. Throws InputError on failure,
// leaving `path` as it was.
WriteResult atomic_write(const std::string& path, const std::string& content);

}  // namespace slurmtopo

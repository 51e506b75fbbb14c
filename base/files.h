// Reading the files slurmtopo is handed and writing what it produces, one way everywhere:
// a file that cannot be read is an InputError naming it, and an output of "-" (or none) is
// stdout for every command.
#pragma once

#include <string>
#include <string_view>

namespace slurmtopo {

// The whole file, bytes as they are. InputError(path, 0, "cannot read[ WHAT]: <reason>").
// `what` says what the file was for ("the hardware profile"), so the error reads as the
// user's mistake rather than ours.
std::string read_file(const std::string& path, std::string_view what = {});

// InputError when `path` is a directory, a FIFO or a socket: a directory reads as empty and a
// FIFO blocks the run until someone writes to it, so both are named before anything is read
// (read_file does this; readers that stream a file call it first). /dev/stdin stays readable.
void expect_readable_kind(const std::string& path, std::string_view what = {});

// The file's content in `content` and true, or false when it cannot be opened (absent).
bool read_file_if_exists(const std::string& path, std::string& content);

// "-" and "" mean stdout.
bool is_stdout(const std::string& output);

// `text` to stdout (is_stdout) or atomically to the file (base/atomic_write.h).
void write_output(const std::string& output, const std::string& text);

}  // namespace slurmtopo

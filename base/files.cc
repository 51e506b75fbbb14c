#include "base/files.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

#include "base/atomic_write.h"
#include "base/input_error.h"

namespace slurmtopo {

void expect_readable_kind(const std::string& path, std::string_view what) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return;  // the open below reports why
  const char* kind = S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) && path.rfind("/dev/", 0) != 0 ? "a FIFO"
                   : S_ISSOCK(st.st_mode) ? "a socket" : nullptr;
  if (!kind) return;
  std::string expected = "expected a file";
  if (!what.empty()) expected += " (" + std::string(what) + ")";
  throw InputError(path, 0, std::string("is ") + kind + ": " + expected);
}

std::string read_file(const std::string& path, std::string_view what) {
  expect_readable_kind(path, what);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::string msg = "cannot read";
    if (!what.empty()) msg += " " + std::string(what);
    throw InputError(path, 0, msg + ": " + std::strerror(errno));
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool read_file_if_exists(const std::string& path, std::string& content) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  content = ss.str();
  return true;
}

bool is_stdout(const std::string& output) { return output.empty() || output == "-"; }

void write_output(const std::string& output, const std::string& text) {
  if (is_stdout(output)) std::cout << text << std::flush;
  else atomic_write(output, text);
}

}  // namespace slurmtopo

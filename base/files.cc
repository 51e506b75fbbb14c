#include "base/files.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>

#include "base/atomic_write.h"
#include "base/input_error.h"

namespace slurmtopo {

std::string read_file(const std::string& path, std::string_view what) {
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

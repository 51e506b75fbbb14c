// The one exception type of slurmtopo: bad input, named by file and line.
#pragma once

#include <stdexcept>
#include <string>

namespace slurmtopo {

// Thrown for anything a user handed us that we cannot use. The CLI prints what() and exits 2
// before anything is written. line 0 means "the file as a whole".
class InputError : public std::runtime_error {
 public:
  InputError(std::string file, int line, const std::string& expected)
      : std::runtime_error(format(file, line, expected)),
        file_(std::move(file)), line_(line) {}

  const std::string& file() const { return file_; }
  int line() const { return line_; }

 private:
  static std::string format(const std::string& file, int line, const std::string& msg) {
    return line > 0 ? file + ":" + std::to_string(line) + ": " + msg : file + ": " + msg;
  }
  std::string file_;
  int line_;
};

}  // namespace slurmtopo

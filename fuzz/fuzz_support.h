// What every harness asserts: a reader given any bytes either returns a value or throws
// InputError (the error the CLI turns into "file:line: expected ...", exit 2). Anything else —
// a crash, a sanitizer report, another exception type — is a finding.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "base/input_error.h"

namespace slurmtopo::fuzz {

inline std::string_view as_text(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Calls `read`, accepting only InputError as failure.
template <typename Read>
void expect_value_or_input_error(Read&& read) {
  try {
    read();
  } catch (const InputError&) {
  }
}

// For readers that take a path: the bytes in a file of this process's own, removed after.
class TempFile {
 public:
  TempFile(const uint8_t* data, size_t size, const char* suffix) {
    // Same length whatever the pid, so the path's length cannot steer the fuzzer's coverage.
    char pid[16];
    std::snprintf(pid, sizeof pid, "%010d", static_cast<int>(getpid()));
    path_ = std::string("/tmp/slurmtopo-fuzz-") + pid + suffix;
    FILE* f = std::fopen(path_.c_str(), "wb");
    if (!f) std::abort();
    if (size) std::fwrite(data, 1, size, f);
    std::fclose(f);
  }
  ~TempFile() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace slurmtopo::fuzz

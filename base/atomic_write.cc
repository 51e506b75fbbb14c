#include "base/atomic_write.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

#include "base/files.h"
#include "base/input_error.h"

namespace slurmtopo {

namespace {
void fail(const std::string& path, const std::string& what) {
  throw InputError(path, 0, what + ": " + std::strerror(errno));
}

void write_all(const std::string& path, const std::string& content) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail(path, "cannot create");
  size_t done = 0;
  while (done < content.size()) {
    ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      ::close(fd);
      ::unlink(path.c_str());
      fail(path, "cannot write");
    }
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    ::unlink(path.c_str());
    fail(path, "cannot flush");
  }
}
}  // namespace

WriteResult atomic_write(const std::string& path, const std::string& content) {
  std::string current;
  const bool exists = read_file_if_exists(path, current);
  if (exists && current == content) return WriteResult::Unchanged;
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  write_all(tmp, content);
  if (exists) {
    // The backup is written the same careful way, so a crash never leaves a torn .bak either.
    const std::string bak = path + ".bak";
    const std::string bak_tmp = bak + ".tmp." + std::to_string(::getpid());
    write_all(bak_tmp, current);
    if (std::rename(bak_tmp.c_str(), bak.c_str()) != 0) {
      ::unlink(bak_tmp.c_str());
      ::unlink(tmp.c_str());
      fail(bak, "cannot keep the previous file");
    }
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    ::unlink(tmp.c_str());
    fail(path, "cannot replace");
  }
  return WriteResult::Written;
}

}  // namespace slurmtopo

#include "base/atomic_write.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fcntl.h>
#include <unistd.h>

#include "base/files.h"
#include "base/input_error.h"

namespace slurmtopo {

namespace {
void fail(const std::string& path, const std::string& what) {
  throw InputError(path, 0, what + ": " + std::strerror(errno));
}

// Writes `content` to a new file that becomes `path` only when complete. Where the file system
// supports O_TMPFILE (ext4, xfs, btrfs, tmpfs) the file has no name until then, so a run killed
// mid-write (SIGKILL, OOM, power) leaves nothing behind, not even a temp file.
void write_all(const std::string& path, const std::string& content, const std::string& shown) {
  const std::string dir = [&] {
    const size_t slash = path.rfind('/');
    return slash == std::string::npos ? std::string(".") : slash == 0 ? std::string("/") : path.substr(0, slash);
  }();
  bool anonymous = true;
  int fd = ::open(dir.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
  if (fd < 0) {
    anonymous = false;
    fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  }
  if (fd < 0) fail(shown, "cannot create");
  auto give_up = [&](const std::string& what) {
    const int saved = errno;
    ::close(fd);
    if (!anonymous) ::unlink(path.c_str());
    errno = saved;
    fail(shown, what);
  };
  size_t done = 0;
  while (done < content.size()) {
    ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      give_up("cannot write");
    }
    done += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0) give_up("cannot flush");
  if (anonymous) {
    const std::string self = "/proc/self/fd/" + std::to_string(fd);
    if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, path.c_str(), AT_SYMLINK_FOLLOW) != 0)
      give_up("cannot create");
  }
  if (::close(fd) != 0) {
    ::unlink(path.c_str());
    fail(shown, "cannot flush");
  }
}
// A run killed between naming its complete temp file and the rename leaves `path.tmp.PID`
// behind (the target itself is always whole). The next write removes those whose process is gone.
void remove_stale_temps(const std::string& path) {
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  const std::string prefix = (slash == std::string::npos ? path : path.substr(slash + 1)) + ".tmp.";
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    const std::string pid = name.substr(prefix.size());
    if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) continue;
    if (std::to_string(::getpid()) != pid && !std::filesystem::exists("/proc/" + pid)) std::filesystem::remove(e.path(), ec);
  }
}

}  // namespace

WriteResult atomic_write(const std::string& path, const std::string& content) {
  std::string current;
  const bool exists = read_file_if_exists(path, current);
  if (exists && current == content) return WriteResult::Unchanged;
  remove_stale_temps(path);
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  write_all(tmp, content, path);
  if (exists) {
    // The backup is written the same careful way, so a crash never leaves a torn .bak either.
    const std::string bak = path + ".bak";
    const std::string bak_tmp = bak + ".tmp." + std::to_string(::getpid());
    write_all(bak_tmp, current, bak);
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

// `--fabric FILE`: which saved form a file is, decided by its content (the first 4 KiB),
// never by its name, since dumps travel as .txt, .out, .topo, .topofile or no extension.
#include "discover/fabric_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>

#include "base/input_error.h"
#include "discover/ibnd_cache.h"
#include "discover/iblinkinfo_text.h"
#include "discover/ibnetdiscover_noise.h"
#include "discover/ibnetdiscover_ports_text.h"
#include "discover/ibnetdiscover_text.h"
#include "discover/refused_forms.h"
#include "discover/snapshot.h"
#include "discover/terminal_capture.h"

namespace slurmtopo {
namespace {

constexpr size_t kHeadBytes = 4096;
constexpr const char* kKnownFormats =
    "an ibnetdiscover dump, iblinkinfo output, libibnetdisc cache or slurmtopo snapshot";

// Closes on every path out, including the InputError ones.
class File {
 public:
  explicit File(const std::string& path) : path_(path), fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
    if (fd_ < 0) fail_errno("cannot open");
    struct stat st;
    if (::fstat(fd_, &st) == 0 && S_ISDIR(st.st_mode)) throw InputError(path_, 0, "cannot read: it is a directory");
  }
  ~File() { ::close(fd_); }
  File(const File&) = delete;
  File& operator=(const File&) = delete;

  // The whole file, mapped when it is a regular file: a large dump is read once by the kernel
  // into the page cache and parsed in place, with no copy into the heap (on a 5 MiB dump the
  // copy and its page faults were a tenth of `emit topology`). Pipes, /proc files and empty
  // files are read.
  class Whole {
   public:
    explicit Whole(File& f) {
      struct stat st;
      if (::fstat(f.fd_, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
        void* p = ::mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE | MAP_POPULATE, f.fd_, 0);
        if (p != MAP_FAILED) {
          map_ = p;
          size_ = static_cast<size_t>(st.st_size);
          return;
        }
      }
      read_ = f.read(SIZE_MAX);
    }
    ~Whole() {
      if (map_) ::munmap(map_, size_);
    }
    Whole(const Whole&) = delete;
    Whole& operator=(const Whole&) = delete;
    std::string_view text() const {
      return map_ ? std::string_view(static_cast<const char*>(map_), size_) : std::string_view(read_);
    }

   private:
    void* map_ = nullptr;
    size_t size_ = 0;
    std::string read_;
  };

  // Up to `limit` bytes from the start; the whole file when limit is SIZE_MAX.
  std::string read(size_t limit) {
    std::string data;
    struct stat st;
    if (::fstat(fd_, &st) == 0 && st.st_size > 0) data.reserve(std::min<size_t>(limit, st.st_size));
    char buf[1 << 16];
    while (data.size() < limit) {
      ssize_t n = ::read(fd_, buf, std::min(sizeof buf, limit - data.size()));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) fail_errno("cannot read");
      if (n == 0) break;
      data.append(buf, static_cast<size_t>(n));
    }
    return data;
  }

 private:
  [[noreturn]] void fail_errno(const char* what) const {
    throw InputError(path_, 0, std::string(what) + ": " + std::strerror(errno));
  }
  std::string path_;
  int fd_;
};

// Text has no NUL and few control characters; a cache or random bytes have many.
bool looks_binary(std::string_view head) {
  size_t control = std::count_if(head.begin(), head.end(), [](char c) {
    auto u = static_cast<unsigned char>(c);
    return u == 0 || (u < 0x20 && c != '\n' && c != '\r' && c != '\t' && c != '\f' && c != '\v');
  });
  return head.find('\0') != std::string_view::npos || control * 20 > head.size();
}

// True when every complete line of the head is blank or -s progress: a large fabric's
// progress fills the first 4 KiB, and the output proper comes after it.
bool only_progress(std::string_view head) {
  size_t start = 0;
  for (size_t nl; (nl = head.find('\n', start)) != std::string_view::npos; start = nl + 1) {
    std::string_view line = head.substr(start, nl - start);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    if (!line.empty() && !is_ibnetdiscover_progress(line)) return false;
  }
  return start > 0;
}

// What the text forms are told apart by: any -s progress, then the first 4 KiB after it.
std::string_view detection_head(std::string_view text) {
  size_t start = 0;
  while (start < text.size()) {
    const size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) break;
    std::string_view line = text.substr(start, nl - start);
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    if (!line.empty() && !is_ibnetdiscover_progress(line)) break;
    start = nl + 1;
  }
  return text.substr(0, start + kHeadBytes);
}

// The text forms, told apart by their first lines; `head` is past any terminal framing.
FabricFormat detect_text(std::string_view head, const std::string& path) {
  if (auto refused = refused_fabric_form(head)) throw InputError(path, refused->line, refused->message);
  if (looks_like_ibnetdiscover_ports(head)) return FabricFormat::IbnetdiscoverPorts;
  if (looks_like_iblinkinfo(head)) return FabricFormat::Iblinkinfo;
  if (looks_like_ibnetdiscover_text(head)) return FabricFormat::IbnetdiscoverText;
  if (head.find_first_not_of(" \t\r\n") == std::string_view::npos)
    throw InputError(path, 0, std::string("empty file (only blank lines): expected ") + kKnownFormats);
  throw InputError(path, 0, std::string("not ") + kKnownFormats);
}

// The label shown for the fabric: the file name without extension, in characters that are
// safe in Slurm names, report ids and file names.
std::string fabric_name(const std::string& path) {
  std::string name = std::filesystem::path(path).stem().string();
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') c = '_';
  return name.empty() ? "fabric" : name;
}

FabricFormat detect(const std::string& head, const std::string& path) {
  if (head.empty()) throw InputError(path, 0, std::string("empty file: expected ") + kKnownFormats);
  if (looks_like_ibnd_cache(head)) return FabricFormat::IbndCache;
  if (looks_like_snapshot(head)) return FabricFormat::Snapshot;
  if (looks_binary(head))
    throw InputError(path, 0, std::string("binary data, not ") + kKnownFormats);
  std::optional<std::string> unframed = strip_terminal_capture(head, false);
  std::string_view text = unframed ? std::string_view(*unframed) : std::string_view(head);
  if (!only_progress(text)) return detect_text(text, path);
  // -s on a large fabric: judge by what follows the progress, wherever it starts.
  const std::string whole = File(path).read(SIZE_MAX);
  unframed = strip_terminal_capture(whole, false);
  return detect_text(detection_head(unframed ? std::string_view(*unframed) : std::string_view(whole)), path);
}

}  // namespace

FabricFormat detect_fabric_format(const std::string& path) {
  return detect(File(path).read(kHeadBytes), path);
}

Fabric parse_fabric_text(std::string_view text, const std::string& file) {
  std::optional<std::string> unframed = strip_terminal_capture(text, true);
  if (unframed) text = *unframed;
  switch (detect_text(detection_head(text), file)) {
    case FabricFormat::IbnetdiscoverPorts: return parse_ibnetdiscover_ports_text(text, file);
    case FabricFormat::Iblinkinfo: return parse_iblinkinfo_text(text, file);
    default: return parse_ibnetdiscover_text(text, file);
  }
}

std::vector<Fabric> load_fabric_file(const std::string& path) {
  std::vector<Fabric> fabrics;
  FabricFormat format = detect_fabric_format(path);
  switch (format) {
    case FabricFormat::IbndCache:
      fabrics.push_back(load_ibnd_cache(path));
      break;
    case FabricFormat::IbnetdiscoverText:
    case FabricFormat::IbnetdiscoverPorts:
    case FabricFormat::Iblinkinfo: {
      File file(path);
      fabrics.push_back(parse_fabric_text(File::Whole(file).text(), path));
      break;
    }
    case FabricFormat::Snapshot: {
      File file(path);
      fabrics = snapshot_from_json(File::Whole(file).text(), path).fabrics;
      break;
    }
  }
  for (auto& fabric : fabrics) {
    // A snapshot's fabrics keep the names they were captured under (several may share the
    // file); the single-fabric formats are named after the file.
    if (format == FabricFormat::Snapshot && !fabric.name.empty()) continue;
    fabric.source = path;
    fabric.name = fabric_name(path);
  }
  return fabrics;
}

}  // namespace slurmtopo

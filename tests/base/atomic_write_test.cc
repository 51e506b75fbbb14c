#include "base/atomic_write.h"

#include <doctest/doctest.h>

#include <filesystem>

#include "base/files.h"
#include "base/input_error.h"

using namespace slurmtopo;
namespace fs = std::filesystem;

namespace {
struct TempDir {
  fs::path path;
  TempDir() {
    char tmpl[] = "/tmp/slurmtopo-test-XXXXXX";
    path = mkdtemp(tmpl);
  }
  ~TempDir() { fs::remove_all(path); }
};
}  // namespace

TEST_CASE("atomic write: keeps the previous file as .bak and leaves no temp file") {
  TempDir dir;
  std::string file = (dir.path / "topology.conf").string();
  CHECK(atomic_write(file, "one\n") == WriteResult::Written);
  CHECK(atomic_write(file, "two\n") == WriteResult::Written);
  std::string now, bak;
  REQUIRE(read_file_if_exists(file, now));
  REQUIRE(read_file_if_exists(file + ".bak", bak));
  CHECK(now == "two\n");
  CHECK(bak == "one\n");
  int entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir.path)) ++entries;
  CHECK(entries == 2);
}

TEST_CASE("atomic write: identical content is not rewritten") {
  TempDir dir;
  std::string file = (dir.path / "t.conf").string();
  atomic_write(file, "same\n");
  CHECK(atomic_write(file, "same\n") == WriteResult::Unchanged);
  CHECK_FALSE(fs::exists(file + ".bak"));
}

TEST_CASE("atomic write: an unwritable place is an InputError and the old file survives") {
  TempDir dir;
  CHECK_THROWS_AS(atomic_write((dir.path / "missing-dir" / "t.conf").string(), "x"), InputError);
}

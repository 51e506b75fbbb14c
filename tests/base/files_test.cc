#include "base/files.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

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

// What `write_output` sent to stdout.
std::string captured_stdout(const std::string& output, const std::string& text) {
  std::ostringstream captured;
  std::streambuf* old = std::cout.rdbuf(captured.rdbuf());
  write_output(output, text);
  std::cout.rdbuf(old);
  return captured.str();
}
}  // namespace

TEST_CASE("read_file: every byte, and an error naming the file and what it was for") {
  TempDir dir;
  const std::string file = (dir.path / "a.txt").string();
  std::ofstream(file, std::ios::binary) << std::string("x\0y\r\n", 5);
  CHECK(read_file(file) == std::string("x\0y\r\n", 5));
  try {
    read_file((dir.path / "absent").string(), "the hardware profile");
    FAIL("expected an InputError");
  } catch (const InputError& e) {
    CHECK(e.file() == (dir.path / "absent").string());
    CHECK(e.line() == 0);
    CHECK(std::string(e.what()).find("cannot read the hardware profile: No such file") != std::string::npos);
  }
}

TEST_CASE("read_file_if_exists: false for an absent file, content otherwise") {
  TempDir dir;
  std::string content = "untouched";
  CHECK_FALSE(read_file_if_exists((dir.path / "absent").string(), content));
  CHECK(content == "untouched");
  std::ofstream(dir.path / "b") << "b\n";
  CHECK(read_file_if_exists((dir.path / "b").string(), content));
  CHECK(content == "b\n");
}

TEST_CASE("write_output: '-' and no file are stdout, anything else is an atomic write") {
  TempDir dir;
  CHECK(is_stdout(""));
  CHECK(is_stdout("-"));
  CHECK_FALSE(is_stdout("./-"));
  CHECK(captured_stdout("-", "to stdout\n") == "to stdout\n");
  CHECK(captured_stdout("", "also\n") == "also\n");
  CHECK_FALSE(fs::exists("-"));
  const std::string file = (dir.path / "out.txt").string();
  CHECK(captured_stdout(file, "to the file\n").empty());
  CHECK(read_file(file) == "to the file\n");
}

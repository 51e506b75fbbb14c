// The default release: what `scontrol --version` prints, else 22.05.
#include "slurm/installed_release.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "base/input_error.h"

using namespace slurmtopo;

TEST_CASE("installed release: scontrol --version as each release prints it") {
  auto a = parse_scontrol_version("slurm 22.05.8\n");
  REQUIRE(a);
  CHECK(to_string(a->release) == "22.05");
  CHECK(a->printed == "slurm 22.05.8");
  auto b = parse_scontrol_version("slurm-wlm 24.11.5");
  REQUIRE(b);
  CHECK(to_string(b->release) == "24.11");
  CHECK_FALSE(parse_scontrol_version("bash: scontrol: command not found"));
  CHECK_FALSE(parse_scontrol_version(""));
}

TEST_CASE("installed release: --slurm-version wins and says so — a bad one is refused") {
  const TargetRelease t = target_release("25.05");
  CHECK(to_string(t.release) == "25.05");
  CHECK(t.how == "--slurm-version 25.05");
  CHECK_FALSE(t.defaulted);
  CHECK_THROWS_AS(target_release("25"), InputError);
  CHECK_THROWS_AS(target_release("27.11"), InputError);
  const TargetRelease d = target_release("");
  // Where Slurm is installed (the host's 22.05), what it says; else 22.05, said so.
  const char* path = std::getenv("PATH");
  const auto installed = installed_slurm_release(path ? path : "");
  if (installed) {
    CHECK(d.release == installed->release);
    CHECK(d.how == installed->printed);
    CHECK_FALSE(d.defaulted);
  } else {
    CHECK(d.defaulted);
    CHECK(to_string(d.release) == "22.05");
  }
}

TEST_CASE("installed release: found in the given PATH and started without a shell") {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "slurmtopo-release-test";
  std::filesystem::create_directories(dir / "a");
  std::filesystem::create_directories(dir / "b");
  auto script = [&](const std::filesystem::path& p, const std::string& body) {
    std::ofstream(p) << "#!/bin/sh\n" << body << "\n";
    std::filesystem::permissions(p, std::filesystem::perms::owner_all);
  };
  // scontrol fails without a configuration (as 22.05's does); slurmd, later on the path, answers.
  script(dir / "a/scontrol", "echo 'scontrol: error: resolve_ctls_from_dns_srv: res_nsearch error' >&2; exit 1");
  script(dir / "b/slurmd", "[ \"$1\" = -V ] && echo 'slurm 26.05.5'");
  const auto found = installed_slurm_release((dir / "a").string() + ":" + (dir / "b").string());
  REQUIRE(found);
  CHECK(to_string(found->release) == "26.05");
  CHECK(found->printed == "slurmd -V: slurm 26.05.5");
  CHECK_FALSE(installed_slurm_release((dir / "missing").string()));
  std::filesystem::remove_all(dir);
}

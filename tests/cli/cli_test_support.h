// Runs the real slurmtopo binary, as an admin would, in a scratch directory.
#pragma once

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/wait.h>

namespace slurmtopo::testing {

struct Run {
  int code = -1;
  std::string output;  // stdout and stderr together
};

// `env` prefixes the command, e.g. "PATH=/tmp/x/bin" (a fake scontrol, or no Slurm at all).
inline Run run(const std::string& args, const std::string& env = "") {
  Run r;
  std::string cmd = (env.empty() ? "" : "env " + env + " ") + std::string(SLURMTOPO_BINARY) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.output.append(buf.data(), n);
  int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

struct Scratch {
  std::filesystem::path dir;
  Scratch() {
    char tmpl[] = "/tmp/slurmtopo-cli-XXXXXX";
    dir = mkdtemp(tmpl);
  }
  ~Scratch() { std::filesystem::remove_all(dir); }
  std::string path(const std::string& name) const { return (dir / name).string(); }
  std::string write(const std::string& name, const std::string& content) const {
    std::ofstream(path(name), std::ios::binary) << content;
    return path(name);
  }
  std::string read(const std::string& name) const {
    std::ifstream in(path(name), std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
  }
  bool exists(const std::string& name) const { return std::filesystem::exists(path(name)); }
};

}  // namespace slurmtopo::testing

#include "emit/slurm_control.h"

#include <array>
#include <cstdio>
#include <sys/wait.h>

#include "base/shell_quote.h"

namespace slurmtopo {

namespace {

class Scontrol final : public SlurmControl {
 public:
  Scontrol(std::string conf, int timeout) : conf_(std::move(conf)), timeout_(timeout) {}

  std::optional<std::vector<std::string>> node_names() override {
    const auto out = show_nodes();
    if (!out) return std::nullopt;
    return scontrol_values(*out, "NodeName");
  }
  std::optional<std::string> show_nodes() override {
    std::string out;
    if (run("show nodes --oneliner", out) != 0) return std::nullopt;
    return out;
  }
  std::string reconfigure() override {
    std::string out;
    if (run("reconfigure", out) == 0) return "";
    return out.empty() ? "scontrol reconfigure failed" : out;
  }
  bool ping() override {
    std::string out;
    return run("ping", out) == 0 && out.find("is UP") != std::string::npos;
  }
  std::optional<std::vector<std::string>> switch_names() override {
    std::string out;
    if (run("show topology", out) != 0) return std::nullopt;
    return scontrol_values(out, "SwitchName");
  }

 private:
  // Exit status of scontrol ARGS (stdout and stderr in `out`); -1 if it could not run.
  int run(const std::string& args, std::string& out) const {
    std::string cmd = (conf_.empty() ? std::string() : "SLURM_CONF=" + shell_quote(conf_) + " ") + "timeout " +
                      std::to_string(timeout_) + " scontrol " + args + " 2>&1";
    FILE* p = popen(cmd.c_str(), "r");
    if (!p) return -1;
    std::array<char, 4096> buf;
    size_t n;
    while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
    const int status = pclose(p);
    while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  std::string conf_;
  int timeout_;
};

}  // namespace

std::unique_ptr<SlurmControl> make_scontrol(const std::string& slurm_conf, int timeout_seconds) {
  return std::make_unique<Scontrol>(slurm_conf, timeout_seconds);
}

std::vector<std::string> scontrol_values(const std::string& output, const std::string& key) {
  std::vector<std::string> out;
  const std::string needle = key + "=";
  for (size_t at = output.find(needle); at != std::string::npos; at = output.find(needle, at + 1)) {
    if (at > 0 && output[at - 1] != ' ' && output[at - 1] != '\n' && output[at - 1] != '\t') continue;
    const size_t start = at + needle.size();
    const size_t end = output.find_first_of(" \t\n", start);
    out.push_back(output.substr(start, end == std::string::npos ? std::string::npos : end - start));
  }
  return out;
}

}  // namespace slurmtopo

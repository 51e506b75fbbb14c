#include "emit/slurm_control.h"

#include <array>
#include <cstdio>
#include <sys/wait.h>

#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "base/shell_quote.h"
#include "slurm/hostlist.h"

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
    const auto out = show_topology();
    if (!out) return std::nullopt;
    return scontrol_values(*out, "SwitchName");
  }
  std::optional<std::string> show_topology() override {
    std::string out;
    if (run("show topology", out) != 0) return std::nullopt;
    return out;
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

namespace {

// `scontrol show topology` as topology.conf lines: each SwitchName= with its Nodes= and
// Switches= (scontrol prints "(null)" for none; a value that is no hostlist is kept as written).
ParsedTopology shown_topology(const std::string& text) {
  ParsedTopology out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const auto names = scontrol_values(line, "SwitchName");
    if (names.empty()) continue;
    TopologyLine s;
    s.name = names.front();
    for (const auto& [key, into] : {std::pair{"Nodes", &s.nodes}, std::pair{"Switches", &s.switches}})
      for (const auto& v : scontrol_values(line, key)) {
        if (v.empty() || v == "(null)") continue;
        try {
          for (auto& n : expand_hostlist(v)) into->push_back(std::move(n));
        } catch (const std::invalid_argument&) {
          into->push_back(v);
        }
      }
    out.switches.push_back(std::move(s));
  }
  return out;
}

// Per switch name: every node below it and its child switches, as sets to compare.
std::map<std::string, std::pair<std::set<std::string>, std::set<std::string>>> switch_table(const ParsedTopology& p) {
  const auto below = nodes_below(p);
  std::map<std::string, std::pair<std::set<std::string>, std::set<std::string>>> out;
  for (size_t i = 0; i < p.switches.size(); ++i)
    out.emplace(p.switches[i].name,
                std::pair{below[i], std::set<std::string>(p.switches[i].switches.begin(), p.switches[i].switches.end())});
  return out;
}

std::string listed(const std::set<std::string>& names) {
  return names.empty() ? "none" : compress_hostlist(std::vector<std::string>(names.begin(), names.end()));
}

}  // namespace

std::string topology_mismatch(const std::string& shown, const ParsedTopology& written) {
  // scontrol lists under a switch every node below it, topology.conf only its own: both sides
  // are compared with every node below each switch.
  const auto have = switch_table(shown_topology(shown)), want = switch_table(written);
  for (const auto& [name, w] : want) {
    auto it = have.find(name);
    if (it == have.end()) return name + ": in topology.conf, not shown by slurmctld";
    if (it->second.first != w.first)
      return name + ": slurmctld shows nodes " + listed(it->second.first) + ", topology.conf gives " + listed(w.first);
    if (it->second.second != w.second)
      return name + ": slurmctld shows child switches " + listed(it->second.second) + ", topology.conf gives " +
             listed(w.second);
  }
  for (const auto& [name, h] : have)
    if (!want.count(name)) return name + ": shown by slurmctld, no longer in topology.conf";
  return "";
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

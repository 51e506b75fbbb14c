#include "emit/node_file.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "base/files.h"
#include "base/input_error.h"
#include "base/text.h"
#include "emit/slurm_control.h"
#include "slurm/config_lines.h"
#include "slurm/hostlist.h"

namespace slurmtopo {

namespace fs = std::filesystem;

namespace {

// The keys whose values slurmtopo computes from the hardware (and Procs, CPUs' old name).
bool owned_key(std::string_view key) {
  for (const char* k : {"NodeName", "CPUs", "Procs", "Boards", "SocketsPerBoard", "Sockets", "CoresPerSocket",
                        "ThreadsPerCore", "RealMemory", "Gres"})
    if (iequals(key, k)) return true;
  return false;
}

// Key=Value words of a line; a double-quoted value may hold blanks (Reason="a b").
std::vector<std::string> words(std::string_view line) {
  std::vector<std::string> out;
  std::string word;
  bool quoted = false;
  for (char c : line) {
    if (c == '"') quoted = !quoted;
    if (!quoted && (c == ' ' || c == '\t')) {
      if (!word.empty()) out.push_back(std::move(word));
      word.clear();
      continue;
    }
    word += c;
  }
  if (!word.empty()) out.push_back(std::move(word));
  return out;
}

std::string key_of(const std::string& word) { return word.substr(0, word.find('=')); }

}  // namespace

std::string owned_node_file(const SlurmConf& conf, const std::string& slurm_conf) {
  const fs::path main = fs::weakly_canonical(slurm_conf);
  std::set<std::string> files;
  for (const auto& l : conf.node_lines) {
    if (fs::weakly_canonical(l.file) == main)
      throw InputError(slurm_conf, l.line,
                       "apply --what nodes replaces the file slurm.conf Includes for its NodeName lines, and this "
                       "slurm.conf has them inline: move every NodeName line to a file of their own (e.g. " +
                           (main.parent_path() / "nodes.conf").string() + "), put `Include " +
                           (main.parent_path() / "nodes.conf").string() +
                           "` where they were, and `scontrol reconfigure`");
    files.insert(l.file);
  }
  if (files.size() > 1) {
    std::string names;
    for (const auto& f : files) names += (names.empty() ? "" : ", ") + f;
    throw InputError(slurm_conf, 0, "apply --what nodes replaces one included file of NodeName lines; they are in " +
                                        std::to_string(files.size()) + " (" + names + "): put them in one");
  }
  const std::string file = *files.begin();
  for (const SlurmConfLine& line : read_slurm_conf_lines(read_file(file))) {
    const auto w = words(line.text);
    if (!w.empty() && !iequals(key_of(w.front()), "NodeName"))
      throw InputError(file, line.number,
                       "apply --what nodes replaces this file whole, and it holds more than NodeName lines (`" +
                           key_of(w.front()) + "`): move the other lines to slurm.conf or a file of their own");
  }
  return file;
}

std::map<std::string, std::string> kept_node_attributes(const std::string& text, const std::string& file) {
  std::map<std::string, std::string> out;
  std::vector<std::string> defaults;  // kept words of the last NodeName=DEFAULT line
  for (const SlurmConfLine& line : read_slurm_conf_lines(text)) {
    const auto w = words(line.text);
    if (w.empty() || !iequals(key_of(w.front()), "NodeName")) continue;
    const std::string names = w.front().substr(w.front().find('=') + 1);
    std::vector<std::string> kept;
    for (size_t i = 1; i < w.size(); ++i)
      if (!owned_key(key_of(w[i]))) kept.push_back(w[i]);
    if (iequals(names, "DEFAULT")) {
      defaults = kept;
      continue;
    }
    // A key on the line overrides the DEFAULT line's.
    std::vector<std::string> all;
    for (const auto& d : defaults)
      if (std::none_of(kept.begin(), kept.end(), [&](const std::string& k) { return iequals(key_of(k), key_of(d)); }))
        all.push_back(d);
    all.insert(all.end(), kept.begin(), kept.end());
    std::string joined;
    for (const auto& k : all) joined += (joined.empty() ? "" : " ") + k;
    for (const auto& n : expand_hostlist_at(names, file, line.number)) out[n] = joined;
  }
  return out;
}

std::vector<NodeLine> with_kept_attributes(std::vector<NodeLine> lines, const std::map<std::string, std::string>& kept) {
  for (NodeLine& l : lines) {
    // Groups in the order their first node comes, so alike nodes share a line.
    std::vector<std::pair<std::string, std::vector<std::string>>> groups;
    for (const auto& n : expand_hostlist(l.hostlist)) {
      const auto it = kept.find(n);
      const std::string attrs = it == kept.end() ? "" : it->second;
      auto g = std::find_if(groups.begin(), groups.end(), [&](const auto& x) { return x.first == attrs; });
      if (g == groups.end()) groups.push_back({attrs, {n}});
      else g->second.push_back(n);
    }
    l.kept.clear();
    if (groups.size() == 1 && groups.front().first.empty()) continue;
    for (auto& [attrs, names] : groups) l.kept.emplace_back(compress_hostlist(names), attrs);
  }
  return lines;
}

std::optional<std::string> node_change_refusal(const std::vector<std::string>& running,
                                               const std::vector<std::string>& planned,
                                               const std::vector<std::string>& gres_types, bool gpus) {
  const std::set<std::string> have(running.begin(), running.end()), will(planned.begin(), planned.end());
  std::vector<std::string> added, removed;
  for (const auto& n : planned)
    if (!have.count(n)) added.push_back(n);
  for (const auto& n : running)
    if (!will.count(n)) removed.push_back(n);
  const std::string restart =
      ": Slurm needs slurmctld and every slurmd restarted for that, not a reconfigure, so apply changes the "
      "attributes of the nodes slurmctld has and nothing else";
  if (!added.empty())
    return "the node lines would add " + counted(added.size(), "node", "nodes") + " the running slurmctld does not have (" +
           compress_hostlist(added) + ")" + restart + "; add them to the file by hand and restart";
  if (!removed.empty())
    return "the node lines would remove " + counted(removed.size(), "node", "nodes") + " the running slurmctld has (" +
           compress_hostlist(removed) + ": no node file describes them)" + restart +
           "; describe them (--nodes-dir, --node-class), or remove them by hand and restart";
  const bool gpu_type = std::any_of(gres_types.begin(), gres_types.end(), [](const std::string& t) { return iequals(t, "gpu"); });
  if (gpus && !gpu_type)
    return std::string("the node lines give nodes GPUs (Gres=gpu:...) and slurm.conf has no GresTypes=gpu: add it to "
                       "slurm.conf and restart slurmctld and every slurmd (a GresTypes change needs a restart)");
  return std::nullopt;
}

namespace {

// node -> its line of `scontrol show nodes --oneliner`
std::map<std::string, std::string> shown_nodes(const std::string& show_nodes) {
  std::map<std::string, std::string> shown;
  size_t at = 0;
  while (at < show_nodes.size()) {
    size_t nl = show_nodes.find('\n', at);
    if (nl == std::string::npos) nl = show_nodes.size();
    const std::string line = show_nodes.substr(at, nl - at);
    if (const auto names = scontrol_values(line, "NodeName"); !names.empty()) shown[names.front()] = line;
    at = nl + 1;
  }
  return shown;
}

}  // namespace

std::optional<std::string> cpu_change_refusal(const std::vector<NodeLine>& lines, const std::string& show_nodes) {
  const auto shown = shown_nodes(show_nodes);
  std::vector<std::string> changed;
  std::string example;
  for (const NodeLine& l : lines)
    for (const auto& n : expand_hostlist(l.hostlist)) {
      const auto it = shown.find(n);
      if (it == shown.end()) continue;
      const auto v = scontrol_values(it->second, "CPUTot");
      if (v.empty() || v.front() == std::to_string(l.cpus)) continue;
      if (changed.empty()) example = n + ": CPUs " + v.front() + " -> " + std::to_string(l.cpus);
      changed.push_back(n);
    }
  if (changed.empty()) return std::nullopt;
  return "the node lines change the CPU count of " + counted(changed.size(), "node", "nodes") + " (" +
         compress_hostlist(changed) + "; " + example +
         "): slurmctld refuses that on a reconfigure (\"require restart of the slurmctld daemon\"), so apply "
         "does not write it; put the new lines in place by hand and restart slurmctld and the slurmds";
}

std::string node_lines_mismatch(const std::vector<NodeLine>& lines, const std::string& show_nodes) {
  const auto shown = shown_nodes(show_nodes);
  for (const NodeLine& l : lines) {
    std::vector<std::pair<std::string, std::string>> want = {{"CPUTot", std::to_string(l.cpus)},
                                                             {"Sockets", std::to_string(l.sockets)}};
    if (l.real_memory) want.emplace_back("RealMemory", std::to_string(l.real_memory));
    const std::string gres = gres_spec(l);
    for (const auto& n : expand_hostlist(l.hostlist)) {
      const auto it = shown.find(n);
      if (it == shown.end()) return "`scontrol show nodes` lacks " + n;
      for (const auto& [key, value] : want) {
        const auto v = scontrol_values(it->second, key);
        if (v.empty() || v.front() != value)
          return "`scontrol show nodes` has " + n + " " + key + "=" + (v.empty() ? "" : v.front()) + ", the file " + value;
      }
      // Gres=gpu:h100:8(S:0-1) once slurmd registered, Gres=gpu:h100:8 before.
      const auto g = scontrol_values(it->second, "Gres");
      std::string have;
      if (!g.empty() && g.front() != "(null)")
        for (size_t i = 0, depth = 0; i < g.front().size(); ++i) {
          const char c = g.front()[i];
          depth += c == '(';
          if (!depth) have += c;
          depth -= c == ')' && depth;
        }
      if (have != gres) return "`scontrol show nodes` has " + n + " Gres=" + have + ", the file " + (gres.empty() ? "none" : gres);
    }
  }
  return "";
}

}  // namespace slurmtopo

// gres.conf and the NodeName= lines of slurm.conf, read the way slurmd reads them.
#include "slurm/gres_conf.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <stdexcept>

#include "base/numbers.h"
#include "slurm/config_lines.h"
#include "slurm/hostlist.h"
#include "slurm/ranges.h"

namespace slurmtopo {
namespace {

struct Pair {
  std::string key;  // lower case
  std::string value;
};

// key=value tokens separated by white space; values may be double-quoted.
bool split_pairs(const std::string& text, std::vector<Pair>& out, std::string& error) {
  size_t i = 0;
  while (true) {
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    if (i >= text.size()) return true;
    size_t eq = text.find('=', i);
    size_t space = text.find_first_of(" \t\r", i);
    if (eq == std::string::npos || (space != std::string::npos && space < eq)) {
      error = "expected key=value, found \"" + text.substr(i, space == std::string::npos ? std::string::npos : space - i) + "\"";
      return false;
    }
    Pair p{ascii_lower(text.substr(i, eq - i)), ""};
    i = eq + 1;
    if (i < text.size() && text[i] == '"') {
      size_t close = text.find('"', i + 1);
      if (close == std::string::npos) { error = "unterminated quote after " + p.key + "="; return false; }
      p.value = text.substr(i + 1, close - i - 1);
      i = close + 1;
    } else {
      size_t stop = text.find_first_of(" \t\r", i);
      p.value = text.substr(i, stop == std::string::npos ? std::string::npos : stop - i);
      i = stop == std::string::npos ? text.size() : stop;
    }
    out.push_back(std::move(p));
  }
}

// "-1,6,6,6" (Links=): order matters, no ranges.
bool parse_list(const std::string& s, std::vector<int>& out) {
  size_t pos = 0;
  while (true) {
    size_t comma = s.find(',', pos);
    long v = 0;
    if (!parse_long(std::string_view(s).substr(pos, comma == std::string::npos ? std::string::npos : comma - pos), v))
      return false;
    out.push_back(static_cast<int>(v));
    if (comma == std::string::npos) return true;
    pos = comma + 1;
  }
}

const std::set<std::string> kGresKeys = {"autodetect", "count", "cpus", "cores", "file", "files", "flags",
                                         "links", "link", "multiplefiles", "name", "type", "nodename"};

}  // namespace

ParsedGres parse_gres_conf(std::string_view text, const std::string& file) {
  ParsedGres out;
  out.file = file;
  for (const SlurmConfLine& l : read_slurm_conf_lines(text)) {
    std::vector<Pair> pairs;
    std::string error;
    auto fail = [&](const std::string& m) { out.errors.push_back({file, l.number, m}); };
    if (!split_pairs(l.text, pairs, error)) { fail(error); continue; }
    if (pairs.empty()) continue;
    if (pairs.front().key == "include") {
      out.errors.push_back({file, l.number, "Include is not followed by slurmtopo's check"});
      continue;
    }
    if (pairs.front().key != "nodename" && pairs.front().key != "name" && pairs.front().key != "autodetect") {
      fail("a gres.conf line starts with NodeName=, Name= or AutoDetect=, not " + pairs.front().key + "=");
      continue;
    }
    GresConfLine g;
    g.line = l.number;
    bool bad = false;
    for (const Pair& p : pairs) {
      if (!kGresKeys.count(p.key)) {
        fail("unknown key \"" + p.key + "\" (slurmd is fatal on it; there is no CoreCnt)");
        bad = true;
        continue;
      }
      try {
        if (p.key == "nodename") g.has_nodes = true, g.nodes = expand_hostlist(p.value);
        else if (p.key == "name") g.name = p.value;
        else if (p.key == "type") g.type = p.value;
        else if (p.key == "autodetect") g.autodetect = true;
        else if (p.key == "file" || p.key == "files" || p.key == "multiplefiles") {
          for (auto& f : expand_hostlist(p.value)) g.files.push_back(std::move(f));
        } else if (p.key == "cores" || p.key == "cpus") {
          g.has_cores = true;
          if (!parse_ranges(p.value, g.cores)) fail("Cores=" + p.value + ": expected core id ranges like 0-13,28-41"), bad = true;
        } else if (p.key == "links" || p.key == "link") {
          g.has_links = true;
          if (!parse_list(p.value, g.links)) fail("Links=" + p.value + ": expected a comma list of integers"), bad = true;
        } else if (p.key == "count") {
          g.has_count = true;
          if (!parse_long(p.value, g.count) || g.count < 0) fail("Count=" + p.value + ": expected a number"), bad = true;
        }
      } catch (const std::invalid_argument& e) {
        fail(e.what());
        bad = true;
      }
    }
    if (!bad) out.lines.push_back(std::move(g));
  }
  return out;
}

ParsedNodes parse_node_conf(std::string_view text, const std::string& file) {
  ParsedNodes out;
  out.file = file;
  NodeConfLine defaults;
  for (const SlurmConfLine& l : read_slurm_conf_lines(text)) {
    std::vector<Pair> pairs;
    std::string error;
    auto fail = [&](const std::string& m) { out.errors.push_back({file, l.number, m}); };
    if (!split_pairs(l.text, pairs, error)) {
      // Other slurm.conf lines (e.g. PartitionName with odd syntax) are not ours to judge.
      if (ascii_lower(l.text).find("nodename") != std::string::npos) fail(error);
      continue;
    }
    if (pairs.empty()) continue;
    if (pairs.front().key == "grestypes") {
      size_t pos = 0;
      const std::string& v = pairs.front().value;
      while (pos <= v.size()) {
        size_t comma = v.find(',', pos);
        out.gres_types.push_back(ascii_lower(v.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos)));
        if (comma == std::string::npos) break;
        pos = comma + 1;
      }
      continue;
    }
    if (pairs.front().key != "nodename") continue;
    NodeConfLine n = defaults;
    n.line = l.number;
    n.nodes.clear();
    bool is_default = ascii_lower(pairs.front().value) == "default";
    try {
      if (!is_default) n.nodes = expand_hostlist(pairs.front().value);
    } catch (const std::invalid_argument& e) {
      fail(e.what());
      continue;
    }
    for (size_t i = 1; i < pairs.size(); ++i) {
      const Pair& p = pairs[i];
      long v = 0;
      auto number = [&](auto& field) {
        if (!parse_long(p.value, v) || v < 0) fail(p.key + "=" + p.value + ": expected a number");
        else field = static_cast<std::remove_reference_t<decltype(field)>>(v);
      };
      if (p.key == "cpus" || p.key == "procs") number(n.cpus);
      else if (p.key == "sockets") number(n.sockets);
      else if (p.key == "corespersocket") number(n.cores_per_socket);
      else if (p.key == "threadspercore") number(n.threads_per_core);
      else if (p.key == "realmemory") number(n.real_memory);
      else if (p.key == "gres") {
        n.gres.clear();
        size_t pos = 0;
        while (pos <= p.value.size()) {
          size_t comma = p.value.find(',', pos);
          std::string item = p.value.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
          // name[:type][:count]; the count is the last field when it is a number.
          size_t last = item.rfind(':');
          long count = 1;
          std::string spec = item;
          if (last != std::string::npos && parse_long(item.substr(last + 1), count)) spec = item.substr(0, last);
          n.gres.emplace_back(ascii_lower(spec), count);
          if (comma == std::string::npos) break;
          pos = comma + 1;
        }
      }
    }
    if (is_default) defaults = n;
    else out.lines.push_back(std::move(n));
  }
  return out;
}

}  // namespace slurmtopo

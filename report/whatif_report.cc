#include "report/whatif_report.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>

#include "base/json_fields.h"
#include "base/text.h"
#include "base/version.h"

namespace slurmtopo {

namespace {

using json = nlohmann::ordered_json;

std::string fixed(const json& v, int decimals) {
  return v.is_number() ? fixed_decimals(v.get<double>(), decimals) : "-";
}

// + 0.0 turns a rounded -0 into 0: "-0.0 %" says a loss where there is none.
double round3(double x) { return std::round(x * 1000) / 1000 + 0.0; }

// The same busy state before and after, sample by sample: how the change spreads, so that an
// effect (every sample moves one way) reads apart from noise (as many better as worse), and
// the sample that changed most, with what limits it on each side and how many of its ring's
// flows the edit moved to other cables (simulate/whatif/route_changes.h). A change within ±0.1 % counts as none.
json paired_changes(const std::vector<json>& records, size_t s) {
  std::vector<double> changes;
  int better = 0, worse = 0, same = 0;
  const json* widest = nullptr;
  double widest_change = 0;
  for (const json& rec : records) {
    const json& j = rec["jobs"][s];
    const json &b = j["before"], &a = j["after"];
    if (!b["started"].get<bool>() || !a["started"].get<bool>() || !b["busbw_gbs"].is_number() ||
        !a["busbw_gbs"].is_number() || b["busbw_gbs"].get<double>() <= 0)
      continue;
    const double d = a["busbw_gbs"].get<double>() / b["busbw_gbs"].get<double>() - 1;
    changes.push_back(d);
    if (d > 0.001) ++better;
    else if (d < -0.001) ++worse;
    else ++same;
    if (!widest || std::abs(d) > std::abs(widest_change)) widest = &rec, widest_change = d;
  }
  json out = {{"samples", changes.size()}, {"better", better}, {"worse", worse}, {"same", same}};
  if (changes.empty()) return out;
  std::sort(changes.begin(), changes.end());
  auto at = [&](double q) { return round3(changes[static_cast<size_t>(q * static_cast<double>(changes.size() - 1) + 0.5)]); };
  out["p10"] = at(0.1);
  out["p50"] = at(0.5);
  out["p90"] = at(0.9);
  const json& j = (*widest)["jobs"][s];
  json w = {{"unit", (*widest)["unit"]},
            {"before_gbs", j["before"]["busbw_gbs"]},
            {"after_gbs", j["after"]["busbw_gbs"]},
            {"change", round3(widest_change)},
            {"bottleneck_before", j["before"].value("bottleneck", "")},
            {"bottleneck_after", j["after"].value("bottleneck", "")},
            {"same_hosts", j["before"]["hostlist"] == j["after"]["hostlist"]}};
  if (j.contains("flows")) {
    w["flows"] = j["flows"];
    w["flows_moved"] = j["flows_moved"];
  }
  out["widest"] = w;
  return out;
}

std::string percent(double x) {
  std::string t = fixed_decimals(x * 100, 1);
  if (t == "-0.0") t = "0.0";
  return (t[0] == '-' ? "" : "+") + t + " %";
}

// Per job size, before and after: placements started, mean busbw, how many span leaves/groups.
json edits_summary(const json& header, const std::vector<json>& records) {
  json sizes = json::array();
  const auto job_sizes = header["sizes"].get<std::vector<int>>();
  for (size_t s = 0; s < job_sizes.size(); ++s) {
    json row;
    row["job_nodes"] = job_sizes[s];
    double mean[2] = {0, 0};
    for (int side = 0; side < 2; ++side) {
      const char* key = side ? "after" : "before";
      int started = 0, costed = 0, leaves = 0, groups = 0;
      double sum = 0;
      for (const json& rec : records) {
        const json& p = rec["jobs"][s][key];
        if (!p["started"].get<bool>()) continue;
        ++started;
        leaves += p["leaves"].get<int>() > 1;
        groups += p["groups"].get<int>() > 1;
        if (p["busbw_gbs"].is_number()) {
          sum += p["busbw_gbs"].get<double>();
          ++costed;
        }
      }
      mean[side] = costed ? sum / costed : NAN;
      row[key] = {{"started", started},
                  {"mean_busbw_gbs", costed ? json(round3(mean[side])) : json(nullptr)},
                  {"span_leaves", leaves},
                  {"span_groups", groups}};
    }
    row["busbw_change"] = std::isfinite(mean[0]) && std::isfinite(mean[1]) && mean[0] > 0
                              ? json(round3(mean[1] / mean[0] - 1)) : json(nullptr);
    row["paired"] = paired_changes(records, s);
    sizes.push_back(row);
  }
  return {{"sizes", sizes}};
}

void print_header(std::ostream& out, const json& h) {
  out << "whatif (" << h["mode"].get<std::string>() << ") on " << h["nodes"].get<int>() << " nodes";
  if (h.contains("profile"))
    out << ", allreduce " << h["size"].get<std::string>() << " on profile " << h["profile"].get<std::string>();
  out << "\nSlurm places with the " << h["topology"].get<std::string>() << "\n";
  if (h.contains("slurm")) out << "node selection of " << h["slurm"].get<std::string>() << "\n";
  if (h.contains("warnings"))
    for (const auto& w : h["warnings"]) out << "warning: " << w.get<std::string>() << "\n";
  for (const auto& e : h["edits"]) out << "edit: " << e.get<std::string>() << "\n";
  if (h.contains("routing")) {
    const std::string before = h["routing"]["before"].get<std::string>();
    const std::string after = h["routing"].value("after", before);
    if (before == after) out << "routing: " << before << (h["routing"].contains("after") ? ", before and after" : "") << "\n";
    else out << "routing before: " << before << "\nrouting after:  " << after
             << "\nnote: the edit changed the routing engine; the figures after it are that engine's\n";
  }
  for (const auto& n : h["notes"]) out << "note: " << n.get<std::string>() << "\n";
}

void print_policies(std::ostream& out, const json& h, const std::vector<json>& records) {
  if (!h["busy"].get<std::string>().empty()) out << "busy: " << h["busy"].get<std::string>() << "\n";
  char line[512];
  for (const json& rec : records) {
    out << "\n" << rec["job_nodes"].get<int>() << "-node job\n";
    std::snprintf(line, sizeof line, "  %-12s %6s %6s %11s  %s\n", "policy", "leaves", "groups", "busbw GB/s", "nodes");
    out << line;
    for (const json& p : rec["policies"]) {
      if (!p["started"].get<bool>()) {
        std::snprintf(line, sizeof line, "  %-12s cannot start: %s\n", p["policy"].get<std::string>().c_str(),
                      p["reason"].get<std::string>().c_str());
      } else {
        std::snprintf(line, sizeof line, "  %-12s %6d %6d %11s  %s\n", p["policy"].get<std::string>().c_str(),
                      p["leaves"].get<int>(), p["groups"].get<int>(), fixed(p["busbw_gbs"], 2).c_str(),
                      p["hostlist"].get<std::string>().c_str());
      }
      out << line;
    }
  }
  out << "\nbest: the fewest leaves, then groups, the free nodes allow; random: seed "
      << h["seed"].get<uint64_t>() << "\n";
  bool refused = false;
  for (const json& rec : records)
    for (const json& p : rec["policies"]) refused |= p["started"].get<bool>() && !p["busbw_gbs"].is_number();
  if (refused)
    out << "busbw -: the placement cannot be simulated (a host without a cable on one of its rails?\n"
           "`slurmtopo simulate --nodes HOSTLIST` says why)\n";
}

void print_edits(std::ostream& out, const json& h, const json& summary) {
  if (!h["busy"].get<std::string>().empty()) out << "busy in every sample: " << h["busy"].get<std::string>() << "\n";
  out << "over " << h["samples"].get<int>() << " sampled busy states (seed " << h["seed"].get<uint64_t>() << ", 0-"
      << fixed_decimals(h["max_busy_share"].get<double>() * 100, 0) << " % of the nodes busy), Slurm's placement before -> after:\n";
  char line[512];
  std::snprintf(line, sizeof line, "%9s  %-13s %-23s %9s  %-13s %-13s\n", "job nodes", "started", "mean busbw GB/s",
                "change", ">1 leaf", ">1 group");
  out << line;
  for (const json& row : summary["sizes"]) {
    const json &b = row["before"], &a = row["after"];
    auto pair = [](const json& x, const json& y) { return x.dump() + " -> " + y.dump(); };
    const std::string busbw = fixed(b["mean_busbw_gbs"], 2) + " -> " + fixed(a["mean_busbw_gbs"], 2);
    std::string change = "-";
    if (row["busbw_change"].is_number()) {
      change = fixed_decimals(row["busbw_change"].get<double>() * 100, 1);
      if (change == "-0.0") change = "0.0";
      change = (change[0] == '-' ? "" : "+") + change + " %";
    }
    std::snprintf(line, sizeof line, "%9d  %-13s %-23s %9s  %-13s %-13s\n", row["job_nodes"].get<int>(),
                  pair(b["started"], a["started"]).c_str(), busbw.c_str(), change.c_str(),
                  pair(b["span_leaves"], a["span_leaves"]).c_str(), pair(b["span_groups"], a["span_groups"]).c_str());
    out << line;
  }
  out << "paired (each sample's busy state before and after; within 0.1 % is the same):\n";
  std::snprintf(line, sizeof line, "%9s  %7s %7s %7s  %s\n", "job nodes", "better", "worse", "same", "change p10 / median / p90");
  out << line;
  for (const json& row : summary["sizes"]) {
    const json& p = row["paired"];
    if (p["samples"].get<int>() == 0) continue;
    std::snprintf(line, sizeof line, "%9d  %7d %7d %7d  %s / %s / %s\n", row["job_nodes"].get<int>(), p["better"].get<int>(),
                  p["worse"].get<int>(), p["same"].get<int>(), percent(p["p10"].get<double>()).c_str(),
                  percent(p["p50"].get<double>()).c_str(), percent(p["p90"].get<double>()).c_str());
    out << line;
  }
  for (const json& row : summary["sizes"]) {
    const json& p = row["paired"];
    if (!p.contains("widest") || std::abs(p["widest"]["change"].get<double>()) < 0.001) continue;
    const json& w = p["widest"];
    out << "widest change, " << row["job_nodes"].get<int>() << " nodes: sample " << w["unit"].get<int>() << ", "
        << fixed(w["before_gbs"], 2) << " -> " << fixed(w["after_gbs"], 2) << " GB/s ("
        << percent(w["change"].get<double>()) << ")";
    if (!w["same_hosts"].get<bool>()) out << "; Slurm placed the job on other nodes after the edit";
    else if (w.contains("flows"))
      out << "; same nodes, " << w["flows_moved"].get<int>() << " of " << w["flows"].get<int>()
          << " flows between them (ring and tree partners) routed over other cables after the edit";
    out << "\n  bottleneck before: " << (w["bottleneck_before"].get<std::string>().empty() ? "-" : w["bottleneck_before"].get<std::string>())
        << "\n  bottleneck after:  " << (w["bottleneck_after"].get<std::string>().empty() ? "-" : w["bottleneck_after"].get<std::string>())
        << "\n";
  }
}

void print_replay(std::ostream& out, const json& h, const std::vector<json>& records) {
  const json& w = h["workload"];
  out << "replay of " << w["source"].get<std::string>() << ": " << w["jobs"].get<int>() << " jobs";
  if (w["skipped_unknown"].get<int>() || w["skipped_too_large"].get<int>())
    out << " (skipped: " << w["skipped_unknown"].get<int>() << " without size or run time, "
        << w["skipped_too_large"].get<int>() << " larger than the partition)";
  out << ", FCFS with EASY backfill (bf_max_job_test " << w["bf_max_job_test"].get<int>() << ")\n";
  char line[512];
  std::snprintf(line, sizeof line, "%-18s %8s %8s %8s %8s  %-27s %7s %6s %6s %10s\n", "variant", "started", "backfill",
                ">1 leaf", ">1 group", "slowdown p50/p90/p99/max", "slowed", "frag", "util", "mean wait");
  out << line;
  for (const json& rec : records) {
    const json& m = rec["metrics"];
    const json& s = m["slowdown"];
    const std::string slow = s["count"].get<int>() ? fixed(s["p50"], 2) + "/" + fixed(s["p90"], 2) + "/" +
                                                         fixed(s["p99"], 2) + "/" + fixed(s["max"], 2)
                                                   : "-";
    std::snprintf(line, sizeof line, "%-18s %8d %8d %8d %8d  %-27s %7d %6s %6s %9ss\n",
                  rec["variant"].get<std::string>().c_str(), m["started"].get<int>(), m["backfilled"].get<int>(),
                  m["span_leaves"].get<int>(), m["span_groups"].get<int>(), slow.c_str(), m["slowed"].get<int>(),
                  fixed(m["fragmentation"], 3).c_str(), fixed(m["utilisation"], 3).c_str(),
                  fixed(m["mean_wait_s"], 0).c_str());
    out << line;
  }
  bool busbw = false;
  for (const json& rec : records) busbw |= rec["metrics"]["busbw_gbs"]["count"].get<int>() > 0;
  if (busbw) {
    out << "predicted busbw of multi-node jobs, GB/s (mean, median):\n";
    for (const json& rec : records) {
      const json& b = rec["metrics"]["busbw_gbs"];
      std::snprintf(line, sizeof line, "  %-18s %9s %9s\n", rec["variant"].get<std::string>().c_str(),
                    fixed(b["mean"], 2).c_str(), fixed(b["p50"], 2).c_str());
      out << line;
    }
  }
  out << "slowdown: the best placement's predicted busbw / the job's, multi-node jobs; slowed: above 1.05;\n"
         "frag: time-weighted share of free nodes on partly busy leaves; util: node-seconds used / up\n";
}

}  // namespace

std::string whatif_report(const json& header, const std::vector<json>& records, bool as_json) {
  const std::string mode = header["mode"].get<std::string>();
  if (as_json) {
    json doc;
    doc[kSlurmtopoVersionKey] = slurmtopo_version();
    doc["run"] = header;
    if (mode == "edits") doc["summary"] = edits_summary(header, records);
    doc["records"] = records;
    return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  }
  std::ostringstream out;
  print_header(out, header);
  if (mode == "policies") print_policies(out, header, records);
  else if (mode == "edits") print_edits(out, header, edits_summary(header, records));
  else print_replay(out, header, records);
  return out.str();
}

std::string whatif_output(const WhatifResult& r, bool json) {
  if (r.shard) return shard_document(r.header, *r.shard, r.records).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  const MergedRun run = as_merged(r.header, r.records);
  return whatif_report(run.header, run.records, json);
}

UnitProgress terminal_progress_bar() {
  if (!isatty(STDERR_FILENO)) return {};
  auto shown = std::make_shared<int>(-1);
  return [shown](double done, int total) {
    const int pct = total > 0 ? static_cast<int>(100 * done / total) : 100;
    if (pct == *shown) return;
    *shown = pct;
    std::cerr << "\rwhatif [" << std::string(pct / 5, '#') << std::string(20 - pct / 5, '.') << "] " << pct << " %"
              << (pct >= 100 ? "\r                                 \r" : "") << std::flush;
  };
}

}  // namespace slurmtopo

// The Markdown summary for a ticket: the verdict, one line per check, the findings, the port
// counters (with --counters), and what changed since the baseline.
#include <sstream>

#include "base/text.h"
#include "graph/link_health.h"
#include "report/cabling_plan_summary.h"
#include "report/commission.h"
#include "report/commission_parts.h"
#include "report/measured_report.h"

namespace slurmtopo {

namespace {

// Markdown table cells: a '|' would end the cell, a newline the row.
std::string cell(std::string s) {
  std::string out;
  for (char ch : s) {
    if (ch == '|') out += "\\|";
    else if (ch == '\n') out += ' ';
    else out += ch;
  }
  return out;
}

std::string upper(Verdict v) {
  std::string s = to_string(v);
  for (auto& ch : s) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  return s;
}

}  // namespace

std::string commission_markdown(const CommissionReport& r) {
  std::ostringstream out;
  const Inventory& inv = r.inventory;
  out << "# Commissioning report" << (r.cluster.empty() ? "" : " for " + r.cluster) << ": " << upper(r.verdict)
      << "\n\n";
  out << inv.hosts << " hosts in " << inv.groups << " groups, " << inv.hcas << " HCAs, ";
  int switches = 0;
  for (const auto& l : inv.switches_by_level) switches += l.count;
  out << switches << " switches, " << inv.rails.size() << (inv.rails.size() == 1 ? " rail" : " rails");
  if (!inv.node_classes.empty())
    out << ", " << inv.node_classes.size() << (inv.node_classes.size() == 1 ? " node class" : " node classes");
  out << ".\n\n";
  if (!r.command.empty()) out << "`" << r.command << "`\n\n";
  for (const auto& [label, value] : provenance(r)) out << "- " << label << ": " << value << "\n";
  out << "\n| check | verdict | found | what was checked |\n|---|---|---|---|\n";
  for (const auto& c : r.checks)
    out << "| " << c.id << " | " << upper(c.verdict) << " | " << cell(c.found) << " | " << cell(c.what) << " |\n";
  out << "\n## Findings (" << r.findings.size() << ")\n\n";
  if (r.findings.empty()) out << "None.\n";
  else {
    out << "| severity | kind | subject | detail |\n|---|---|---|---|\n";
    for (const auto& f : r.findings)
      out << "| " << to_string(f.severity) << " | " << f.kind << " | " << cell(f.subject) << " | " << cell(f.detail)
          << " |\n";
  }
  // The port counters, where --counters gave them: each input, then the cable ends above their
  // thresholds (their findings are in the table above).
  if (!r.counter_sources.empty()) {
    out << "\n## Port counters\n\n";
    for (const CounterSource& s : r.counter_sources) out << "- " << counter_source_summary(s) << "\n";
    const std::vector<CableHealthRow> rows = cable_health_rows(r);
    if (rows.empty()) out << "\nNo cable end counts above its thresholds.\n";
    else {
      out << "\n| cable (this end first) | counters above their thresholds | read from |\n|---|---|---|\n";
      for (const auto& h : rows)
        out << "| " << cell(h.cable) << " | " << cell(h.counters) << " | " << cell(h.where) << " |\n";
    }
  }
  // The cabling plans, where --plan gave them: the line, per unit, then the switches a finding
  // names (the findings themselves are in the table above).
  for (const PlanSection& p : r.plans) {
    out << "\n## Cabling against the plan\n\n" << plan_summary_line(p.summary) << "\n";
    if (!p.units.empty()) {
      out << "\n| unit | switches | planned | as planned | findings |\n|---|---|---|---|---|\n";
      for (const PlanUnitRow& u : p.units)
        out << "| " << cell(u.unit) << " | " << u.switches << " | " << u.planned << " | " << u.present << " | "
            << u.findings << " |\n";
    }
    bool header = false;
    for (const PlanSwitchRow& s : p.switches) {
      if (!s.findings && s.present == s.planned) continue;
      if (!header) out << "\n| switch | unit | planned | as planned | findings |\n|---|---|---|---|---|\n";
      header = true;
      out << "| " << cell(s.name) << " | " << cell(s.unit) << " | " << s.planned << " | " << s.present << " | "
          << s.findings << " |\n";
    }
  }
  if (r.measured) {
    out << "\n## Measured against predicted\n\n" << r.measured->runs.size() << " nccl-tests "
        << (r.measured->runs.size() == 1 ? "run" : "runs") << " from " << r.measured->source << ", predicted with "
        << (r.measured->profile.empty() ? std::string("no profile") : "the " + r.measured->profile + " profile")
        << "; measured busbw is the better of out-of-place and in-place.\n";
    if (!r.measured->probe_steps.empty()) {
      out << "\n| probe step | kind | hosts | state | standing |\n|---|---|---|---|---|\n";
      for (const ProbeStep& s : r.measured->probe_steps) {
        out << "|";
        for (const std::string& c : probe_step_cells(s, r.measured->runs)) out << " " << cell(c) << " |";
        out << "\n";
      }
    }
    for (const RunComparison& run : r.measured->runs) {
      out << "\n### " << run.collective << " on " << run.hostlist << ", " << run.ranks << " GPUs (" << run.source
          << ")\n\n";
      if (!run.not_predicted.empty()) out << "Not predicted: " << run.not_predicted << "\n";
      if (!run.sizes.empty()) {
        out << "| size | measured GB/s | predicted GB/s | algorithm | prediction error | model claims | standing |\n"
               "|---|---|---|---|---|---|---|\n";
        for (const SizeCheck& z : run.sizes)
          out << "| " << format_size(z.bytes) << " | " << fixed_decimals(z.measured_gbs, 2) << " | "
              << fixed_decimals(z.predicted_gbs, 2) << " | " << z.algorithm << " | "
              << (z.prediction_error > 0 ? "+" : "") << fixed_decimals(z.prediction_error * 100, 1) << " % | "
              << (z.tolerance ? "±" + fixed_decimals(*z.tolerance * 100, 0) + " %" : std::string("-")) << " | "
              << to_string(z.standing) << " |\n";
      }
      for (const Cause& c : run.causes) out << "\n- evidence " << c.order << ": " << cell(c.detail);
      if (!run.causes.empty()) out << "\n";
    }
  }
  if (r.baseline) {
    const BaselineDiff& b = *r.baseline;
    out << "\n## Since " << b.source << "\n\n"
        << "- new: " << b.new_findings.size() << "\n- fixed: " << b.fixed.size() << "\n- still open: "
        << b.still_open.size() << "\n- hosts added " << b.hosts_added.size() << ", gone " << b.hosts_gone.size()
        << "\n- cables added " << b.cables_added.size() << ", gone " << b.cables_gone.size() << "\n";
    for (int i : b.new_findings) out << "\nnew: " << r.findings[i].kind << " " << r.findings[i].subject;
    for (const auto& f : b.fixed) out << "\nfixed: " << f.kind << " " << f.subject;
    if (!b.new_findings.empty() || !b.fixed.empty()) out << "\n";
  }
  return out.str();
}

}  // namespace slurmtopo

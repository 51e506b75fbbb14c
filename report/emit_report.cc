#include "report/emit_report.h"

#include "base/text.h"
namespace slurmtopo {

namespace {

template <typename Issue>
void issues(std::ostream& err, const std::string& file, const char* kind, const std::vector<Issue>& list) {
  for (const auto& i : list)
    err << kind << ": " << file << (i.line ? ":" + std::to_string(i.line) : "") << ": " << i.message << "\n";
}

void gres_issues(std::ostream& err, const char* kind, const std::vector<GresIssue>& list) {
  for (const auto& i : list)
    err << kind << ": " << i.file << (i.line ? ":" + std::to_string(i.line) : "") << ": " << i.message << "\n";
}

}  // namespace

void report_emit_topology(const EmitTopologyResult& r, std::ostream& out, std::ostream& err) {
  for (const auto& w : r.warnings) err << "warning: " << w << "\n";
  for (const auto& n : r.notes) err << "note: " << n << "\n";
  issues(err, r.target, "warning", r.plan.check.warnings);
  if (!r.plan.check.ok()) {
    issues(err, r.target, "error", r.plan.check.errors);
    err << "slurmtopo: refusing to write " << r.target << ": " << *r.refusal << "\n";
    return;
  }
  if (r.diff) {
    if (r.diff->empty()) out << "no change against " << r.diff_against << "\n";
    for (const auto& line : r.diff->lines) out << line << "\n";
  }
  if (r.to_stdout) {
    if (!r.diff) out << r.plan.text;
    return;
  }
  if (r.refusal) {
    err << "slurmtopo: refusing to write " << r.target << ": " << *r.refusal << "\n";
    return;
  }
  err << (*r.written == WriteResult::Unchanged ? "unchanged: " : "wrote ") << r.target << " (" << r.plan.summary << ")\n";
}

void report_emit_gres(const EmitGresResult& r, std::ostream& out, std::ostream& err) {
  for (const auto& w : r.warnings) err << "warning: " << w << "\n";
  for (const auto& n : r.plan.notes) err << "note: " << n << "\n";
  if (r.checked) {
    gres_issues(err, "warning", r.checked->warnings);
    gres_issues(err, "error", r.checked->errors);
    if (!r.checked->ok())
      err << "slurmtopo: " << r.target << ": " << r.checked->errors.size() << " error(s) against slurmd's rules for Slurm "
          << to_string(r.version) << "\n";
    else
      err << r.target << ": passes slurmd's rules for Slurm " << to_string(r.version) << "\n";
    return;
  }
  gres_issues(err, "warning", r.plan.check.warnings);
  if (!r.plan.check.ok()) {
    gres_issues(err, "error", r.plan.check.errors);
    err << "slurmtopo: refusing to write " << r.target << ": " << *r.refusal << "\n";
    return;
  }
  if (r.to_stdout) {
    out << r.text();
    return;
  }
  if (r.refusal) {
    err << "slurmtopo: refusing to write " << r.target << ": " << *r.refusal << "\n";
    return;
  }
  err << (*r.written == WriteResult::Unchanged ? "unchanged: " : "wrote ") << r.target << " (" << counted(r.nodes, "node", "nodes") << " in "
      << counted(r.classes, "class", "classes") << ")\n";
}

void report_emit_nccl_topo(const EmitNcclTopoResult& r, std::ostream& out, std::ostream& err) {
  for (const auto& w : r.warnings) err << "warning: " << w << "\n";
  for (const auto& f : r.files) {
    out << f.hostlist << ": NCCL_TOPO_FILE=" << f.path << "\n";
    err << (f.written && *f.written == WriteResult::Unchanged ? "unchanged: " : "wrote ") << f.path << "\n";
  }
}

}  // namespace slurmtopo

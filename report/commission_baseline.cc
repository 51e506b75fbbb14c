// Since the baseline: an earlier report's JSON read back (its findings, hosts and cables), and
// what changed — findings new, fixed and still open (by kind and subject), hosts and cables
// added or gone.
#include <algorithm>
#include <set>
#include <unordered_set>

#include "base/files.h"
#include "base/input_error.h"
#include "base/json_fields.h"
#include "report/commission.h"
#include "slurm/hostlist.h"

namespace slurmtopo {

namespace {

using nlohmann::json;

std::vector<std::string> minus(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  const std::unordered_set<std::string> in_b(b.begin(), b.end());
  std::vector<std::string> out;
  for (const auto& x : a)
    if (!in_b.count(x)) out.push_back(x);
  return out;
}

}  // namespace

BaselineFacts read_baseline(const std::string& path) {
  const std::string text = read_file(path, "the baseline report");
  const json j = parse_json_text(text, path);
  BaselineFacts out;
  try {
    if (!j.is_object() || j.value("format", "") != "slurmtopo-report")
      throw JsonSchemaError{json::json_pointer(), "a slurmtopo report's JSON (\"format\": \"slurmtopo-report\")"};
    // Version 2 changed only spread_vs_packed and version 3 added findings' check, severity and
    // count, which a baseline does not need: a periodic check keeps working against the report
    // it was handed over with.
    if (!j.contains("schema_version") || !j["schema_version"].is_number_integer() ||
        j["schema_version"] < 1 || j["schema_version"] > kReportSchemaVersion)
      throw JsonSchemaError{json::json_pointer("/schema_version"),
                            "schema_version 1 to " + std::to_string(kReportSchemaVersion)};
    // Only what a baseline needs is read; the other keys are the page's.
    const json::json_pointer root;
    const json& findings = j.contains("findings") ? j["findings"] : throw JsonSchemaError{root, "the key \"findings\""};
    if (!findings.is_array()) throw JsonSchemaError{root / "findings", "\"findings\" to be an array"};
    for (size_t i = 0; i < findings.size(); ++i) {
      // Schema 3 added check, severity and count; a baseline names findings by kind and subject.
      const JsonFields f(findings[i], root / "findings" / i,
                         {"source", "kind", "subject", "detail", "check", "severity", "count"}, kReportSchemaVersion);
      Finding old;
      old.source = f.string("source");
      old.kind = f.string("kind");
      old.subject = f.string("subject");
      old.detail = f.string("detail");
      if (findings[i].contains("check")) old.check = f.string("check");
      out.findings.push_back(std::move(old));
    }
    if (!j.contains("hosts") || !j["hosts"].is_string())
      throw JsonSchemaError{root / "hosts", "\"hosts\" to be a hostlist string"};
    out.hosts = expand_hostlist_at(j["hosts"].get<std::string>(), path);
    if (!j.contains("cables") || !j["cables"].is_array())
      throw JsonSchemaError{root / "cables", "\"cables\" to be an array"};
    const json& cables = j["cables"];
    for (size_t i = 0; i < cables.size(); ++i) {
      if (!cables[i].is_string()) throw JsonSchemaError{root / "cables" / i, "each cable to be a string"};
      out.cables.push_back(cables[i].get<std::string>());
    }
  } catch (const JsonSchemaError& e) {
    throw schema_input_error(text, path, e);
  }
  return out;
}

BaselineDiff diff_baseline(const BaselineFacts& old, const CommissionReport& now, const std::string& source) {
  BaselineDiff d;
  d.source = source;
  std::set<std::string> before, after;
  for (const auto& f : old.findings) before.insert(f.key());
  for (int i = 0; i < static_cast<int>(now.findings.size()); ++i) {
    after.insert(now.findings[i].key());
    (before.count(now.findings[i].key()) ? d.still_open : d.new_findings).push_back(i);
  }
  // A node finding is fixed only when the nodes were looked at again.
  const bool nodes_now = !now.classes.empty();
  for (const auto& f : old.findings)
    if (!after.count(f.key()) && (nodes_now || f.source != "nodes")) d.fixed.push_back(f);
  d.hosts_added = minus(now.hosts, old.hosts);
  d.hosts_gone = minus(old.hosts, now.hosts);
  d.cables_added = minus(now.cables, old.cables);
  d.cables_gone = minus(old.cables, now.cables);
  return d;
}

}  // namespace slurmtopo

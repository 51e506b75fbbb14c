// The samples' reports (samples/README.md lists the sample's faults), planned once per test
// binary: the SuperPOD sample with its node files and slurm.conf, and the fault-free 2:1 fat
// tree with a shipped hardware profile. And the ibsim fabric of tests/data/counters with the
// ibqueryerrors it gave (capture.sh: a bad cable seen from the switch, receive errors at a host,
// discards and remote physical errors on a spine cable), and without it.
#pragma once

#include <string>

#include "report/commission.h"

namespace slurmtopo::testing {

inline std::string sample(const std::string& name) { return std::string(SLURMTOPO_SOURCE_DIR) + "/samples/" + name; }

inline CommissionRequest superpod_request() {
  CommissionRequest r;
  r.inputs.fabric_files = {sample("superpod-4su.topo")};
  r.inputs.site_config = sample("site.yaml");
  r.nodes.nodes_dir = sample("nodes");
  r.slurm_conf = sample("slurm.conf");
  r.command = "slurmtopo report (test)";
  return r;
}

inline CommissionRequest fattree_request() {
  CommissionRequest r;
  r.inputs.fabric_files = {sample("fattree-2level.topo")};
  r.profile = std::string(SLURMTOPO_SOURCE_DIR) + "/tests/data/a100-hdr-1nic.yaml";  // one HCA per host, as cabled
  return r;
}

inline std::string counters_data(const std::string& name) {
  return std::string(SLURMTOPO_SOURCE_DIR) + "/tests/data/counters/" + name;
}

// `report --fabric tests/data/counters/fabric.ibnetdiscover [--counters ibqueryerrors.txt]`.
inline CommissionRequest counters_request(bool with_counters = true) {
  CommissionRequest r;
  r.inputs.fabric_files = {counters_data("fabric.ibnetdiscover")};
  if (with_counters) r.inputs.counter_files = {counters_data("ibqueryerrors.txt")};
  r.command = "slurmtopo report (test)";
  return r;
}

inline const CommissionReport& counters_report() {
  static const CommissionReport r = plan_commission(counters_request());
  return r;
}

inline const CommissionReport& no_counters_report() {
  static const CommissionReport r = plan_commission(counters_request(false));
  return r;
}

inline const CommissionReport& superpod_report() {
  static const CommissionReport r = plan_commission(superpod_request());
  return r;
}

inline const CommissionReport& fattree_report() {
  static const CommissionReport r = plan_commission(fattree_request());
  return r;
}

inline const Check* find_check(const CommissionReport& r, const std::string& id) {
  for (const auto& c : r.checks)
    if (c.id == id) return &c;
  return nullptr;
}

inline bool has_finding(const CommissionReport& r, const std::string& kind, const std::string& subject_part) {
  for (const auto& f : r.findings)
    if (f.kind == kind && f.subject.find(subject_part) != std::string::npos) return true;
  return false;
}

}  // namespace slurmtopo::testing

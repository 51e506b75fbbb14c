// The probe's placements as `report --measured DIR` reads them back: DIR/probe.json, written
// beside the script, so that the report can say which placements were measured, which ran
// and failed, and which never ran. The output paths in it are the cluster's; a placement is
// found in DIR by its file's name, so the directory can be copied elsewhere.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "simulate/measured/probe_plan.h"

namespace slurmtopo {

inline constexpr const char* kProbeManifestName = "probe.json";

// {"slurmtopo_version", "version": 1, "placements": [{"name", "kind", "groups", "hosts",
// "output"}]}, in the script's order. Same plan → same bytes.
std::string probe_manifest_json(const ProbePlan& plan);

// DIR/probe.json's placements; nullopt when `dir` is not a directory or holds none (not a
// probe's). InputError(file, line, what was expected) for a malformed one.
std::optional<std::vector<ProbePlacement>> read_probe_manifest(const std::string& dir);

}  // namespace slurmtopo

// What `slurmtopo simulate --measured` prints: per run its placement, then per size the busbw
// measured against predicted, the prediction's error against it, the model's stated error there and the standing;
// then the run's evidence, most likely cause first; then the findings as inspect names them.
// JSON carries the same, every size and every cause.
#pragma once

#include <nlohmann/json.hpp>

#include <ostream>
#include <string>
#include <vector>

#include "simulate/measured/measured_simulation.h"

namespace slurmtopo {

std::string measured_report(const MeasuredResult& result, bool json);

// The runs as both JSONs carry them (this command's and the report's "measured"): per run its
// placement, every size measured against predicted, and every cause.
nlohmann::ordered_json measured_runs_json(const std::vector<RunComparison>& runs);

// "2 hosts x 8 = 16 ranks"; "2 hosts, 7 ranks unevenly"; a job's log: "2 hosts, no rank
// finished init".
std::string placement_text(const RunComparison& run);

// What both commands' JSON say of a run's placement: source, collective, job_log, hosts, ranks,
// gpus_per_host, nccl_log, complete, wrong.
nlohmann::ordered_json run_placement_json(const RunComparison& run);

// A run in a word: "below", "above", "within" (every claimed size), "not predicted".
std::string run_standing(const RunComparison& run);

// A probe step as a table row, for the page and the Markdown: step, kind, hosts, state (with
// its detail), the run's standing ("-" without a run).
std::vector<std::string> probe_step_cells(const ProbeStep& step, const std::vector<RunComparison>& runs);

// A probe's placements: per step its name, kind, hosts, state, standing and run (an index into
// `runs`), as the report's JSON carries them.
nlohmann::ordered_json probe_steps_json(const std::vector<ProbeStep>& steps, const std::vector<RunComparison>& runs);

// A run's causes, and findings, as both commands' JSON and text carry them.
nlohmann::ordered_json causes_json(const std::vector<Cause>& causes);
nlohmann::ordered_json measured_findings_json(const std::vector<MeasuredFinding>& findings);
void print_measured_findings(std::ostream& out, const std::vector<MeasuredFinding>& findings);

// Exit status for a script gating on the runs: 4 when a finding fails, 3 when one warns, else 0.
int measured_exit_code(const MeasuredResult& result);

}  // namespace slurmtopo

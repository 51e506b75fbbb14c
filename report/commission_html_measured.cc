// The measured section: per nccl-tests run an SVG chart of busbw against message size (log x
// axis) with the prediction as a line, the band of the model's stated error around it, and the
// measured points, each coloured by its standing; then the same as a table, and the evidence.
#include <algorithm>
#include <cmath>
#include <ostream>

#include "report/commission_parts.h"
#include "report/measured_report.h"

namespace slurmtopo {

namespace {

const char* colour(Standing s) {
  switch (s) {
    case Standing::Below: return "#cf222e";
    case Standing::Above: return "#8250df";
    case Standing::Within: return "#1a7f37";
    case Standing::NotClaimed: return "#57606a";
  }
  return "#57606a";
}

void chart(const RunComparison& run, int index, std::ostream& out) {
  const double W = 720, H = 300, left = 60, right = 20, top = 16, bottom = 44;
  double ymax = 0;
  for (const SizeCheck& s : run.sizes)
    ymax = std::max({ymax, s.measured_gbs, s.predicted_gbs / (1 - s.tolerance.value_or(0))});
  ymax = ymax > 0 ? std::ceil(ymax * 1.1 / 50) * 50 : 1;
  const double lx0 = std::log2(run.sizes.front().bytes);
  const double lx1 = std::max(std::log2(run.sizes.back().bytes), lx0 + 1);
  auto X = [&](double b) { return left + (std::log2(b) - lx0) / (lx1 - lx0) * (W - left - right); };
  auto Y = [&](double v) { return top + (1 - v / ymax) * (H - top - bottom); };
  const double axis = H - bottom;
  out << "<figure><svg class=\"measured-chart\" id=\"measured-chart-" << index
      << "\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " << svg_num(W) << " " << svg_num(H) << "\" width=\""
      << svg_num(W) << "\" height=\"" << svg_num(H) << "\" role=\"img\" font-size=\"11\"><title>"
      << html_escape(run.collective + " on " + run.hostlist) << ": measured against predicted busbw</title>"
      << "<g stroke=\"#57606a\"><line x1=\"" << left << "\" y1=\"" << svg_num(axis) << "\" x2=\"" << svg_num(W - right)
      << "\" y2=\"" << svg_num(axis) << "\"/><line x1=\"" << left << "\" y1=\"" << top << "\" x2=\"" << left << "\" y2=\""
      << svg_num(axis) << "\"/></g><g fill=\"#1f2328\">";
  for (int k = 0; k <= 5; ++k)
    out << "<text x=\"" << svg_num(left - 6) << "\" y=\"" << svg_num(Y(ymax * k / 5) + 4) << "\" text-anchor=\"end\">"
        << svg_num(ymax * k / 5, "%.0f") << "</text>";
  for (size_t k = 0; k < run.sizes.size(); k += std::max<size_t>(1, run.sizes.size() / 8))
    out << "<text x=\"" << svg_num(X(run.sizes[k].bytes)) << "\" y=\"" << svg_num(axis + 16) << "\" text-anchor=\"middle\">"
        << html_escape(format_size(run.sizes[k].bytes)) << "</text>";
  out << "<text x=\"" << svg_num((W + left) / 2) << "\" y=\"" << svg_num(axis + 36)
      << "\" text-anchor=\"middle\">message size (log scale); busbw GB/s</text></g>";
  // The claimed band, where the model claims one.
  std::string upper, lower;
  for (const SizeCheck& s : run.sizes) {
    if (!s.tolerance) continue;
    // Where a measurement passes: predicted within ±tolerance of it.
    upper += svg_num(X(s.bytes)) + "," + svg_num(Y(s.predicted_gbs / (1 - *s.tolerance))) + " ";
    lower = svg_num(X(s.bytes)) + "," + svg_num(Y(s.predicted_gbs / (1 + *s.tolerance))) + " " + lower;
  }
  if (!upper.empty())
    out << "<polygon class=\"band\" points=\"" << upper << lower << "\" fill=\"#0969da\" fill-opacity=\"0.12\"><title>"
        << "the model's stated error</title></polygon>";
  out << "<polyline class=\"predicted\" fill=\"none\" stroke=\"#0969da\" stroke-width=\"2\" points=\"";
  for (size_t k = 0; k < run.sizes.size(); ++k)
    out << (k ? " " : "") << svg_num(X(run.sizes[k].bytes)) << "," << svg_num(Y(run.sizes[k].predicted_gbs));
  out << "\"/>";
  for (const SizeCheck& s : run.sizes)
    out << "<circle class=\"measured " << to_string(s.standing) << "\" cx=\"" << svg_num(X(s.bytes)) << "\" cy=\""
        << svg_num(Y(s.measured_gbs)) << "\" r=\"3.5\" fill=\"" << colour(s.standing) << "\"><title>"
        << html_escape(format_size(s.bytes)) << ": measured " << svg_num(s.measured_gbs) << " GB/s, predicted "
        << svg_num(s.predicted_gbs) << " (" << to_string(s.standing) << ")</title></circle>";
  out << "</svg><figcaption>Line: predicted busbw; shaded: the model's stated error; dots: measured (green within, "
         "red below, purple above, grey where the model claims nothing).</figcaption></figure>\n";
}

}  // namespace

void html_measured(const CommissionReport& r, std::ostream& out) {
  if (!r.measured) return;
  const MeasuredSection& m = *r.measured;
  out << "<section id=\"measured\"><h2>Measured against predicted</h2>\n<p>" << m.runs.size() << " nccl-tests "
      << (m.runs.size() == 1 ? "run" : "runs") << " from <code>" << html_escape(m.source) << "</code>, each predicted "
      << "on its own hosts with "
      << (m.profile.empty() ? std::string("no profile") : "the " + html_escape(m.profile) + " profile") << " and "
      << html_escape(m.routing) << " routing. Measured busbw is the better of out-of-place and in-place.</p>\n";
  if (!m.probe_steps.empty()) {
    // The probe's plan against what came back: a placement not measured is a part of the
    // fabric this report says nothing about.
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> cls;
    for (const ProbeStep& s : m.probe_steps) {
      rows.push_back(probe_step_cells(s, m.runs));
      const bool below = s.run >= 0 && m.runs[s.run].below();
      cls.push_back(s.state != StepState::Measured ? "warn" : below ? "fail" : "");
    }
    html_table(out, "The probe's placements (probe.json) and what each step left in its output",
               {"step", "kind", "hosts", "state", "standing"}, rows, cls);
  }
  for (size_t i = 0; i < m.runs.size(); ++i) {
    const RunComparison& run = m.runs[i];
    out << "<h3 id=\"measured-" << i << "\">" << html_escape(run.collective + " on " + run.hostlist) << ", " << run.ranks
        << " GPUs</h3>\n<p class=\"meta\">" << html_escape(run.source)
        << (run.logged ? "; NCCL's log of the run read" : "; no NCCL log of the run") << "</p>\n";
    if (!run.not_predicted.empty()) out << "<p>Not predicted: " << html_escape(run.not_predicted) << "</p>\n";
    if (!run.sizes.empty()) {
      chart(run, static_cast<int>(i), out);
      std::vector<std::vector<std::string>> rows;
      std::vector<std::string> cls;
      for (const SizeCheck& s : run.sizes) {
        rows.push_back({format_size(s.bytes), svg_num(s.measured_gbs, "%.2f"), svg_num(s.predicted_gbs, "%.2f"),
                        s.algorithm, svg_num(100 * s.prediction_error, "%+.1f") + " %",
                        s.tolerance ? "±" + svg_num(100 * *s.tolerance, "%.0f") + " %" : "-", to_string(s.standing)});
        cls.push_back(s.standing == Standing::Below ? "fail" : s.standing == Standing::Above ? "warn" : "");
      }
      html_table(out, "measured against predicted busbw per size",
                 {"size", "measured GB/s", "predicted GB/s", "algorithm", "prediction error", "model claims", "standing"}, rows,
                 cls);
    }
    if (!run.causes.empty()) {
      out << "<ol class=\"evidence\">";
      for (const Cause& c : run.causes) out << "<li value=\"" << c.order << "\">" << html_escape(c.detail) << "</li>";
      out << "</ol>\n";
    }
  }
  for (const std::string& w : m.warnings) out << "<p>warning: " << html_escape(w) << "</p>\n";
  out << "</section>\n";
}

}  // namespace slurmtopo

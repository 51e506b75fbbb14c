// The performance section: predicted allreduce busbw against message size as an SVG chart
// (log x axis), one curve per placement with its physical limit as a dashed line of the same
// colour, then the points as a table, and what a job spread over leaves loses against one
// packed on a leaf: per job size, where each what-if policy places it and its busbw.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>

#include "report/commission_parts.h"
#include "simulate/collective/prediction.h"

namespace slurmtopo {

namespace {

constexpr const char* kColours[] = {"#0969da", "#1a7f37", "#8250df", "#bc4c00"};
constexpr const char* kDashes[] = {"", "8 3", "2 3", "10 3 2 3"};  // tell curves apart in print

}  // namespace

void html_performance(const CommissionReport& r, std::ostream& out) {
  if (!r.performance) return;
  const Performance& p = *r.performance;
  out << "<section id=\"performance\"><h2>Performance</h2>\n<p>Predicted allreduce bus bandwidth (nccl-tests' busbw) "
      << "with the " << html_escape(p.profile) << " profile and " << html_escape(p.routing)
      << " routing (simulate's model, docs/simulator.md).</p>\n";
  // A measured run is compared with the prediction for its own hosts, not with these
  // placements' curves: it is charted there.
  if (r.measured && !r.measured->runs.empty())
    out << "<p class=\"measured-link\">" << r.measured->runs.size() << " measured "
        << (r.measured->runs.size() == 1 ? "run is" : "runs are") << " charted against the prediction for "
        << "their own hosts in <a href=\"#measured\">Measured against predicted</a>.</p>\n";
  if (!p.curves.empty()) {
    const double W = 960, left = 60, right = 20, top = 20, bottom = 50;
    const double legend = 16.0 * p.curves.size() + 8;  // below the axis label
    const double H = 380 + legend;
    double xmin = p.curves.front().bytes.front(), xmax = xmin, ymax = 0;
    for (const auto& c : p.curves) {
      for (double b : c.bytes) xmin = std::min(xmin, b), xmax = std::max(xmax, b);
      for (double v : c.busbw_gbs) ymax = std::max(ymax, v);
      ymax = std::max(ymax, c.limit_gbs);
    }
    ymax = ymax > 0 ? std::ceil(ymax * 1.1 / 50) * 50 : 1;
    const double lx0 = std::log2(xmin), lx1 = std::max(std::log2(xmax), lx0 + 1);
    auto X = [&](double b) { return left + (std::log2(b) - lx0) / (lx1 - lx0) * (W - left - right); };
    auto Y = [&](double v) { return top + (1 - v / ymax) * (H - legend - top - bottom); };
    out << "<figure><svg id=\"busbw-chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " << svg_num(W) << " "
        << svg_num(H) << "\" width=\"" << svg_num(W) << "\" height=\"" << svg_num(H)
        << "\" role=\"img\" aria-labelledby=\"chart-title chart-desc\" font-size=\"11\">"
        << "<title id=\"chart-title\">Predicted allreduce busbw against message size</title><desc id=\"chart-desc\">";
    for (const auto& c : p.curves)
      out << html_escape(c.name) << ": up to " << svg_num(*std::max_element(c.busbw_gbs.begin(), c.busbw_gbs.end()))
          << " GB/s, limit " << svg_num(c.limit_gbs) << " GB/s (" << html_escape(c.limit_what) << "). ";
    out << "</desc>\n<g class=\"axes\" stroke=\"#57606a\">";
    const double axis = H - legend - bottom;
    out << "<line x1=\"" << left << "\" y1=\"" << svg_num(axis) << "\" x2=\"" << svg_num(W - right) << "\" y2=\""
        << svg_num(H - legend - bottom) << "\"/><line x1=\"" << left << "\" y1=\"" << top << "\" x2=\"" << left << "\" y2=\""
        << svg_num(H - legend - bottom) << "\"/></g>\n<g class=\"ticks\" fill=\"#1f2328\">";
    for (double b = xmin; b <= xmax * 1.0001; b *= 4)
      out << "<line x1=\"" << svg_num(X(b)) << "\" y1=\"" << svg_num(axis) << "\" x2=\"" << svg_num(X(b)) << "\" y2=\""
          << svg_num(top) << "\" stroke=\"#eaeef2\"/><text x=\"" << svg_num(X(b)) << "\" y=\"" << svg_num(axis + 16)
          << "\" text-anchor=\"middle\">" << html_escape(format_size(b)) << "</text>";
    for (int k = 0; k <= 5; ++k) {
      const double v = ymax * k / 5;
      out << "<line x1=\"" << left << "\" y1=\"" << svg_num(Y(v)) << "\" x2=\"" << svg_num(W - right) << "\" y2=\"" << svg_num(Y(v))
          << "\" stroke=\"#eaeef2\"/><text x=\"" << svg_num(left - 6) << "\" y=\"" << svg_num(Y(v) + 4)
          << "\" text-anchor=\"end\">" << svg_num(v, "%.0f") << "</text>";
    }
    out << "<text x=\"" << svg_num((W + left) / 2) << "\" y=\"" << svg_num(axis + 38) << "\" text-anchor=\"middle\">message size "
        << "(log scale)</text><text transform=\"rotate(-90)\" x=\"" << svg_num(-(axis + top) / 2) << "\" y=\"16\" "
        << "text-anchor=\"middle\">busbw GB/s</text></g>\n";
    for (size_t i = 0; i < p.curves.size(); ++i) {
      const Curve& c = p.curves[i];
      const char* colour = kColours[i % 4];
      out << "<g class=\"curve\" data-curve=\"" << i << "\"><title>" << html_escape(c.name) << "</title>"
          << "<line class=\"limit\" x1=\"" << left << "\" y1=\"" << svg_num(Y(c.limit_gbs)) << "\" x2=\"" << svg_num(W - right)
          << "\" y2=\"" << svg_num(Y(c.limit_gbs)) << "\" stroke=\"" << colour << "\" stroke-opacity=\"0.6\" "
          << "stroke-dasharray=\"3 4\"><title>" << html_escape(c.name) << " physical limit: " << svg_num(c.limit_gbs)
          << " GB/s, " << html_escape(c.limit_what) << "</title></line><polyline fill=\"none\" stroke=\"" << colour
          << "\" stroke-width=\"2.2\"" << (*kDashes[i % 4] ? std::string(" stroke-dasharray=\"") + kDashes[i % 4] + "\"" : "")
          << " points=\"";
      for (size_t k = 0; k < c.bytes.size(); ++k) out << (k ? " " : "") << svg_num(X(c.bytes[k])) << "," << svg_num(Y(c.busbw_gbs[k]));
      out << "\"/>";
      for (size_t k = 0; k < c.bytes.size(); ++k)
        out << "<circle cx=\"" << svg_num(X(c.bytes[k])) << "\" cy=\"" << svg_num(Y(c.busbw_gbs[k])) << "\" r=\"2.5\" fill=\""
            << colour << "\"><title>" << html_escape(c.name) << ", " << html_escape(format_size(c.bytes[k])) << ": "
            << svg_num(c.busbw_gbs[k]) << " GB/s</title></circle>";
      const double ly = axis + bottom + 12 + 16 * i;
      out << "<line x1=\"" << left + 14 << "\" y1=\"" << svg_num(ly - 4) << "\" x2=\"" << left + 38 << "\" y2=\"" << svg_num(ly - 4)
          << "\" stroke=\"" << colour << "\" stroke-width=\"2.2\"/><text x=\"" << left + 44 << "\" y=\"" << svg_num(ly)
          << "\">" << html_escape(c.name) << " (limit " << svg_num(c.limit_gbs, "%.0f") << " GB/s, dashed)</text></g>\n";
    }
    out << "</svg><figcaption>Solid and patterned lines: predicted busbw; thin dashed lines: each placement's "
           "physical limit.</figcaption></figure>\n";
    std::vector<std::string> header{"size"};
    for (const auto& c : p.curves) header.push_back(c.name + " GB/s");
    std::vector<std::vector<std::string>> rows;
    for (size_t k = 0; k < p.curves.front().bytes.size(); ++k) {
      std::vector<std::string> row{format_size(p.curves.front().bytes[k])};
      for (const auto& c : p.curves) row.push_back(k < c.busbw_gbs.size() ? svg_num(c.busbw_gbs[k]) : "-");
      rows.push_back(row);
    }
    std::vector<std::string> limits{"physical limit"};
    for (const auto& c : p.curves) limits.push_back(svg_num(c.limit_gbs) + " (" + c.limit_what + ")");
    rows.push_back(limits);
    html_table(out, "Predicted busbw per message size", header, rows);
  }
  if (p.spread_packed) {
    const SpreadPacked& s = *p.spread_packed;
    std::string sizes;
    for (const auto& job : s.jobs) sizes += (sizes.empty() ? "" : ",") + std::to_string(job.nodes);
    out << "<h3 id=\"spread-packed\">What a job spread over leaves loses against one packed on a leaf</h3>\n<p>"
        << "The what-if policies, as <code>slurmtopo whatif -N " << html_escape(sizes)
        << (s.busy.empty() ? "" : " --busy " + html_escape(s.busy)) << "</code> runs them (docs/whatif.md): "
        << "where one job of that many nodes lands on the same free nodes under Slurm (with the "
        << html_escape(s.placed_with) << "), Slurm without a topology, the best placement (the fewest leaves) "
        << "and a random one (seed " << s.seed << "), each costed as an allreduce of "
        << html_escape(format_size(s.bytes)) << "." << (s.busy.empty() ? "" : " The hosts named by a finding are busy.")
        << " A leaf here is a Slurm leaf switch of the emitted topology (a group of rail leaves).</p>\n";
    for (const PolicyJob& job : s.jobs) {
      const std::string n = std::to_string(job.nodes);
      out << "<p class=\"spread-packed\" id=\"spread-packed-" << n << "\">" << n << "-node job: ";
      if (job.packed < 0 || job.spread < 0) {
        out << "no placement could be costed.";
      } else {
        const PolicyPlacementRow &a = job.policies[job.packed], &b = job.policies[job.spread];
        auto leaves = [](int k) { return std::to_string(k) + (k == 1 ? " leaf" : " leaves"); };
        if (b.leaves == a.leaves) {
          out << "every costed policy spans " << leaves(a.leaves) << "; packed (" << html_escape(a.policy) << ") "
              << svg_num(*a.busbw_gbs) << " GB/s.";
        } else {
          const double loss = 100.0 * b.loss.value_or(0);
          out << "spread over " << leaves(b.leaves) << " (" << html_escape(b.policy) << ") " << svg_num(*b.busbw_gbs)
              << " GB/s against packed on " << leaves(a.leaves) << " (" << html_escape(a.policy) << ") "
              << svg_num(*a.busbw_gbs) << " GB/s: spread " << (loss >= 0 ? "loses " : "gains ") << svg_num(std::fabs(loss))
              << " %.";
        }
      }
      out << "</p>\n";
      std::vector<std::vector<std::string>> rows;
      std::vector<std::string> cls;
      for (const auto& row : job.policies) {
        if (!row.started) {
          rows.push_back({row.policy, "-", "-", "-", "-", "cannot start: " + row.reason});
        } else {
          rows.push_back({row.policy, std::to_string(row.leaves), std::to_string(row.groups),
                          row.busbw_gbs ? svg_num(*row.busbw_gbs) : "- (cannot be simulated)",
                          row.loss ? svg_num(100.0 * *row.loss) + " %" : "-", row.hostlist});
        }
        cls.push_back(row.loss && *row.loss > 0.05 ? "warn" : "");
      }
      html_table(out, n + "-node job: each policy's placement and its predicted busbw",
                 {"policy", "leaves", "groups", "busbw GB/s", "loss against best", "nodes"}, rows, cls);
    }
  }
  for (const auto& w : p.warnings) out << "<p>warning: " << html_escape(w) << "</p>\n";
  out << "</section>\n";
}

}  // namespace slurmtopo

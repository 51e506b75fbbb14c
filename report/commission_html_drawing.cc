// The drawing section: the aggregated fabric (commission_drawing.cc) as SVG — levels top to
// bottom, leaves (groups) at the bottom, a box per Slurm switch or run of them, a line per
// pair of boxes cabled together (wider for more cables, red when a cable finding is on it),
// boxes with findings red with their count. Each box's <title> is its hover text; the table
// below says the same for print and screen readers.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>

#include "report/commission_parts.h"

namespace slurmtopo {

namespace {

constexpr double kWidth = 1000, kLevelGap = 80, kTop = 20;

struct Geometry {
  double x = 0, y = 0, w = 0, h = 0;
};

}  // namespace

void html_drawing(const CommissionReport& r, std::ostream& out) {
  const Drawing& d = r.drawing;
  out << "<section id=\"drawing\"><h2>Fabric drawing</h2>\n";
  if (d.levels.empty()) {
    out << "<p class=\"none\">No switch carries compute hosts: nothing to draw.</p></section>\n";
    return;
  }
  const int levels = static_cast<int>(d.levels.size());
  // A level too narrow for its labels gets tall boxes with the label turned upright.
  auto box_width = [&](int l) { return std::min(150.0, kWidth / d.levels[l].size() - 6); };
  auto box_height = [&](int l) { return box_width(l) < 60 ? 136.0 : 34.0; };
  std::vector<double> level_y(levels);
  double y = kTop;
  for (int l = levels - 1; l >= 0; --l) {
    level_y[l] = y;
    y += box_height(l) + kLevelGap;
  }
  const double height = y - kLevelGap + 12;
  std::vector<Geometry> geo;
  for (int l = 0; l < levels; ++l) {
    const double slot = kWidth / d.levels[l].size();
    const double w = box_width(l);
    for (size_t i = 0; i < d.levels[l].size(); ++i) geo.push_back({slot * i + (slot - w) / 2, level_y[l], w, box_height(l)});
  }
  int flagged_boxes = 0;
  for (const auto& l : d.levels)
    for (const auto& b : l) flagged_boxes += !b.findings.empty();
  out << "<figure><svg id=\"fabric-drawing\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 " << svg_num(kWidth) << " "
      << svg_num(height) << "\" width=\"" << svg_num(kWidth) << "\" height=\"" << svg_num(height)
      << "\" role=\"img\" aria-labelledby=\"drawing-title drawing-desc\" font-size=\"11\">"
      << "<title id=\"drawing-title\">Fabric drawing: " << levels << " levels, "
      << d.levels.front().size() << " leaf boxes</title><desc id=\"drawing-desc\">Slurm's tree of the fabric, "
      << "leaves (host groups) at the bottom and the switches above them; " << flagged_boxes
      << " boxes carry findings, drawn in red. Lines are the cables between boxes.</desc>\n";
  out << "<g class=\"edges\">";
  for (const auto& e : d.edges) {
    const Geometry& lo = geo[e.lower];
    const Geometry& hi = geo[e.upper];
    const double width = std::min(6.0, 0.6 + std::log2(1.0 + e.cables) * 0.6);
    out << "<line x1=\"" << svg_num(lo.x + lo.w / 2) << "\" y1=\"" << svg_num(lo.y) << "\" x2=\"" << svg_num(hi.x + hi.w / 2)
        << "\" y2=\"" << svg_num(hi.y + hi.h) << "\" stroke=\"" << (e.flagged ? "#cf222e" : "#8c959f")
        << "\" stroke-width=\"" << svg_num(e.flagged ? std::max(width, 2.0) : width) << "\""
        << (e.flagged ? " stroke-dasharray=\"6 3\" class=\"flagged\"" : "") << "><title>" << e.cables
        << (e.cables == 1 ? " cable" : " cables") << (e.flagged ? ", " + std::to_string(e.flagged) + " with findings" : "")
        << "</title></line>";
  }
  out << "</g>\n<g class=\"boxes\">";
  int flat = 0;
  for (int l = 0; l < levels; ++l)
    for (const auto& b : d.levels[l]) {
      const Geometry& g = geo[flat++];
      const bool bad = !b.findings.empty();
      const bool upright = g.w < 60;
      out << "<g class=\"box" << (bad ? " has-findings" : "") << "\" data-level=\"" << b.level << "\"><title>"
          << html_escape(b.detail);
      for (size_t k = 0; k < b.findings.size() && k < 12; ++k) {
        const Finding& f = r.findings[b.findings[k]];
        out << "\n" << html_escape(f.kind + " " + f.subject + ": " + f.detail);
      }
      if (b.findings.size() > 12) out << "\n… " << b.findings.size() - 12 << " more";
      out << "</title><rect x=\"" << svg_num(g.x) << "\" y=\"" << svg_num(g.y) << "\" width=\"" << svg_num(g.w) << "\" height=\""
          << svg_num(g.h) << "\" rx=\"4\" fill=\"" << (bad ? "#ffebe9" : l == 0 ? "#ddf4ff" : "#f6f8fa")
          << "\" stroke=\"" << (bad ? "#cf222e" : "#57606a") << "\" stroke-width=\"" << (bad ? 2 : 1) << "\"/>";
      const double cx = g.x + g.w / 2, cy = g.y + g.h / 2;
      std::string label = b.label;
      if (upright)
        out << "<text x=\"" << svg_num(cx) << "\" y=\"" << svg_num(cy) << "\" text-anchor=\"middle\" dominant-baseline=\"middle\""
            << " font-size=\"10\" transform=\"rotate(-90 " << svg_num(cx) << " " << svg_num(cy) << ")\">" << html_escape(label)
            << "</text>";
      else
        out << "<text x=\"" << svg_num(cx) << "\" y=\"" << svg_num(cy + 4) << "\" text-anchor=\"middle\">"
            << html_escape(label.size() > 22 ? label.substr(0, 21) + "…" : label) << "</text>";
      if (bad)
        out << "<circle cx=\"" << svg_num(g.x + g.w - 2) << "\" cy=\"" << svg_num(g.y + 2) << "\" r=\"9\" fill=\"#cf222e\"/>"
            << "<text x=\"" << svg_num(g.x + g.w - 2) << "\" y=\"" << svg_num(g.y + 6) << "\" text-anchor=\"middle\" fill=\"#fff\""
            << " font-weight=\"700\" font-size=\"10\">" << b.findings.size() << "</text>";
      out << "</g>";
    }
  out << "</g></svg>\n<figcaption>Aggregated per group and level: ";
  for (int l = levels - 1; l >= 0; --l) {
    int members = 0;
    for (const auto& b : d.levels[l]) members += b.members;
    out << (l == 0 ? "leaves " : "level " + std::to_string(l + 1) + " ") << members << " in " << d.levels[l].size()
        << " boxes" << (l ? "; " : ".");
  }
  out << " Hover a box for its hosts and findings.</figcaption></figure>\n";

  // The same as a table: every box with findings.
  std::vector<std::vector<std::string>> rows;
  for (int l = levels - 1; l >= 0; --l)
    for (const auto& b : d.levels[l]) {
      if (b.findings.empty()) continue;
      std::string kinds;
      for (int i : b.findings) {
        const std::string& k = r.findings[i].kind;
        if (kinds.find(k) == std::string::npos) kinds += (kinds.empty() ? "" : ", ") + k;
      }
      std::string ids;
      for (int i : b.findings) ids += (ids.empty() ? "#" : ", #") + std::to_string(i);
      rows.push_back({l == 0 ? "leaf" : "L" + std::to_string(l + 1), b.detail, std::to_string(b.findings.size()), kinds, ids});
    }
  if (!rows.empty())
    html_table(out, "Where the findings are", {"level", "box", "findings", "kinds", "finding #"}, rows);
  if (!d.unplaced.empty()) {
    std::string ids;
    for (int i : d.unplaced) ids += (ids.empty() ? "#" : ", #") + std::to_string(i);
    out << "<p>Findings not on any box (the fabric as a whole, or HCAs off the tree): " << ids << "</p>\n";
  }
  out << "</section>\n";
}

}  // namespace slurmtopo

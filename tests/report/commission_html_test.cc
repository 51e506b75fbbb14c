#include <doctest/doctest.h>

#include "commission_fixture.h"
#include "report/commission_parts.h"

using namespace slurmtopo;
using namespace slurmtopo::testing;

namespace {
size_t count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}
}  // namespace

TEST_CASE("report HTML: self-contained — no script, no external resource") {
  const std::string html = commission_html(superpod_report());
  CHECK(html.find("<script") == std::string::npos);
  CHECK(html.find("http://") == html.find("http://www.w3.org/2000/svg"));  // the SVG namespace only
  CHECK(html.find("https://") == std::string::npos);
  CHECK(html.find("src=") == std::string::npos);
  CHECK(html.find("@media print") != std::string::npos);
}

TEST_CASE("report HTML: verdict first, every check and finding, the drawing and the chart with text alternatives") {
  const CommissionReport& r = superpod_report();
  const std::string html = commission_html(r);
  const size_t verdict = html.find("id=\"overall-verdict\"");
  REQUIRE(verdict != std::string::npos);
  CHECK(verdict < html.find("id=\"inventory\""));
  CHECK(count(html, "data-check=") == r.checks.size());
  CHECK(count(html, "class=\"finding ") == r.findings.size());  // "finding fail", "finding warn", …
  for (const auto& f : r.findings) CHECK(html.find(html_escape(f.subject)) != std::string::npos);
  CHECK(html.find("<svg id=\"fabric-drawing\"") != std::string::npos);
  CHECK(html.find("<title id=\"drawing-title\">") != std::string::npos);
  CHECK(html.find("<svg id=\"busbw-chart\"") != std::string::npos);
  CHECK(html.find("<desc id=\"chart-desc\">") != std::string::npos);
  CHECK(html.find("NCCL_IB_HCA") != std::string::npos);
  CHECK(html.find("SwitchName=su1 ") != std::string::npos);
  CHECK(commission_html(r) == html);
}

TEST_CASE("report HTML: text from the inputs is escaped") {
  CHECK(html_escape("<a href=\"x\">&") == "&lt;a href=&quot;x&quot;&gt;&amp;");
  CommissionReport r;
  r.findings.push_back(make_finding("fabric", finding_kind(Anomaly::Kind::UnresolvedHca), "0x1 \"<script>\"", "x"));
  decide_checks(r);
  const std::string html = commission_html(r);
  CHECK(html.find("<script>") == std::string::npos);
  CHECK(html.find("&lt;script&gt;") != std::string::npos);
}

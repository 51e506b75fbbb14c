#!/usr/bin/env bash
# The samples' commissioning report as a browser shows it: Debian's headless Chromium loads the
# page from disk with logging on, and the test fails on any console message (the page has no
# script, so any message is an error: a CSS or SVG parse error, or a resource load, which the
# page's Content-Security-Policy turns into a console error), on any element that would fetch
# something (src/href/url() other than data: and #fragments), and unless the rendered DOM holds
# the verdict, the drawing, every finding of the sample and the chart. It takes a screenshot.
# First a broken fixture page proves the console check catches a script error and a load.
#
#   bash tests/integration/report_chromium_test.sh /path/to/slurmtopo
#
# KEEP_WORK=1 keeps the temp dir. Exit 0 pass, 1 fail, 77 skipped (no chromium or jq).
set -uo pipefail
export LC_ALL=C

SLURMTOPO=${1:?usage: $0 /path/to/slurmtopo}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
samples=$here/../../samples

skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
CHROMIUM=${CHROMIUM:-$(command -v chromium || true)}
[[ -n $CHROMIUM && -x $CHROMIUM ]] || skip "chromium not installed"
command -v jq >/dev/null || skip "jq not installed"
[[ -x $SLURMTOPO ]] || fail "$SLURMTOPO is not an executable"

WORK=$(mktemp -d)
trap '[[ ${KEEP_WORK:-0} == 1 ]] && echo "kept $WORK" || rm -rf "$WORK"' EXIT

# chrome OUT_PREFIX URL [extra flags]: OUT_PREFIX.dom (the DOM after load), OUT_PREFIX.log.
chrome() {
  local prefix=$1 url=$2
  shift 2
  timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --user-data-dir="$(mktemp -d -p "$WORK")" \
    --enable-logging=stderr --v=0 "$@" "$url" >"$prefix.dom" 2>"$prefix.log"
}
# Console messages Chromium logged for the page (errors, warnings, CSP violations, console.*).
console_lines() { grep -E ':CONSOLE(:|\()' "$1" || true; }

# 1. The checks can fail: a script error and a blocked load are both seen.
cat >"$WORK/broken.html" <<'EOF'
<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; img-src data:">
<title>broken</title></head><body><img src="missing.png" alt="missing"><script>undefined_function();</script></body></html>
EOF
chrome "$WORK/broken" "file://$WORK/broken.html" --dump-dom || fail "chromium did not load the fixture: $(tail -5 "$WORK/broken.log")"
broken=$(console_lines "$WORK/broken.log")
grep -q 'undefined_function' <<<"$broken" || fail "the console check missed a script error: $(tail -20 "$WORK/broken.log")"
grep -q 'missing.png' <<<"$broken" || fail "the console check missed a blocked load: $(tail -20 "$WORK/broken.log")"
echo "PASS: the console check sees a script error and a blocked resource load"

# 2. The samples' report.
"$SLURMTOPO" report --fabric "$samples/superpod-4su.topo" --config "$samples/site.yaml" \
  --nodes-dir "$samples/nodes" --slurm-conf "$samples/slurm.conf" \
  -o "$WORK/report.html" --json "$WORK/report.json" --md "$WORK/summary.md" 2>"$WORK/report.err"
rc=$?
((rc == 1)) || fail "the sample's report should fail its checks (exit 1), got exit $rc: $(cat "$WORK/report.err")"
[[ -s $WORK/report.html && -s $WORK/report.json && -s $WORK/summary.md ]] || fail "a rendering is missing"

start=$(date +%s.%N)
chrome "$WORK/page" "file://$WORK/report.html" --dump-dom || fail "chromium failed on the report: $(tail -5 "$WORK/page.log")"
console=$(console_lines "$WORK/page.log")
[[ -z $console ]] || fail "console messages while loading the report:
$console"
echo "PASS: no console message and no failed load ($(echo "$(date +%s.%N) - $start" | bc 2>/dev/null || echo '?') s)"

dom=$WORK/page.dom
# Nothing fetched: every src/href/url() is data: or a fragment.
fetches=$(grep -oE '(src|href)="[^"#][^"]*"|url\([^)d][^)]*\)' "$dom" | grep -vE '"data:|"http://www.w3.org/2000/svg"' || true)
[[ -z $fetches ]] || fail "the page references outside resources: $fetches"

verdict=$(jq -r .verdict "$WORK/report.json")
grep -q "<div class=\"verdict $verdict\" role=\"status\" id=\"overall-verdict\">" "$dom" ||
  fail "no overall verdict \"$verdict\" in the rendered page"
checks=$(jq '.checks | length' "$WORK/report.json")
(( $(grep -o 'data-check="' "$dom" | wc -l) == checks )) || fail "expected $checks check rows"
grep -q '<svg id="fabric-drawing"' "$dom" || fail "no fabric drawing"
boxes=$(grep -o '<g class="box' "$dom" | wc -l)
flagged=$(grep -o '<g class="box has-findings"' "$dom" | wc -l)
(( boxes >= 5 && flagged >= 4 )) || fail "the drawing has $boxes boxes, $flagged with findings (expected ≥ 5 and ≥ 4)"
grep -q '<svg id="busbw-chart"' "$dom" || fail "no busbw chart"
curves=$(jq '.performance.curves | length' "$WORK/report.json")
(( curves >= 1 && $(grep -o '<polyline' "$dom" | wc -l) == curves )) || fail "expected $curves chart curves"
grep -q 'class="limit"' "$dom" || fail "no physical limit line in the chart"
grep -q '<title id="drawing-title">' "$dom" && grep -q '<desc id="chart-desc">' "$dom" || fail "an SVG without its text"

# Every finding of the sample: samples/README.md's faults, each in the page by kind and subject.
for expect in "miscabled-rail dgx005" "miscabled-rail dgx021" "missing-uplinks su4-rail5" "degraded-link su2-rail6" \
  "unresolved-hca 0x" "missing-rail dgx040" "rail-leaf dgx010" "class-layout dgx010"; do
  kind=${expect%% *} subject=${expect#* }
  jq -e --arg k "$kind" --arg s "$subject" '[.findings[] | select(.kind == $k and (.subject | contains($s)))] | length > 0' \
    "$WORK/report.json" >/dev/null || fail "the report's JSON lacks the sample's $kind on $subject"
done
n=$(jq '.findings | length' "$WORK/report.json")
for ((i = 0; i < n; i++)); do
  kind=$(jq -r ".findings[$i].kind" "$WORK/report.json")
  subject=$(jq -r ".findings[$i].subject" "$WORK/report.json" | sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g')
  row=$(grep -F "id=\"finding-$i\"" "$dom") || fail "finding $i ($kind) is not in the page"
  grep -qF "$kind" <<<"$row" && grep -qF "$subject" <<<"$row" || fail "finding $i's row lacks $kind / $subject: $row"
done
echo "PASS: verdict $verdict, $checks checks, drawing ($boxes boxes, $flagged with findings), $curves curves, all $n findings"

# 3. The screenshot: a PNG of the page's first screen and a half, not blank.
chrome "$WORK/shot" "file://$WORK/report.html" --window-size=1100,1600 --hide-scrollbars \
  --screenshot="$WORK/report.png" || fail "chromium could not take the screenshot: $(tail -5 "$WORK/shot.log")"
[[ $(head -c 8 "$WORK/report.png" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] || fail "the screenshot is not a PNG"
size=$(stat -c %s "$WORK/report.png")
((size > 20000)) || fail "the screenshot is $size bytes: blank?"
echo "PASS: screenshot $size bytes"

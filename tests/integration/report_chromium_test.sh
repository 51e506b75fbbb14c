#!/usr/bin/env bash
# The samples' commissioning report as a browser shows it. Debian's headless Chromium loads the
# page from disk under the DevTools protocol (--remote-debugging-pipe, driven from bash with
# jq), and the test fails on any failed resource load (Network.loadingFailed), script
# exception, console call, or error or warning Chromium logs for the page (Log.entryAdded: CSS
# problems, Content-Security-Policy violations); on any element that would fetch something
# (src/href/url() other than data: and #fragments); and unless the rendered DOM (--dump-dom)
# holds the verdict, the drawing, every finding of the sample and the chart; then the same for
# the sample against its cabling plan, and with measured nccl-tests runs. It takes a
# screenshot. First a broken fixture page proves the checks see a missing image and a script
# error.
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
flags=(--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update
  --disable-sync --no-first-run)

# chrome OUT_PREFIX URL [extra flags]: OUT_PREFIX.dom (stdout: the DOM with --dump-dom), OUT_PREFIX.log.
chrome() {
  local prefix=$1 url=$2
  shift 2
  timeout 120 "$CHROMIUM" "${flags[@]}" --user-data-dir="$(mktemp -d -p "$WORK")" "$@" "$url" \
    >"$prefix.dom" 2>"$prefix.log"
}

# problems URL: loads URL over the DevTools pipe (fd 3: commands in, fd 4: replies and events
# out, each message NUL-terminated) and prints every event that means the page is broken, one
# JSON object a line. Status 1 when Chromium does not answer or the page never loads.
problems() {
  local url=$1 d pid n=0 msg target session m
  d=$(mktemp -d -p "$WORK")
  mkfifo "$d/in" "$d/out"
  timeout 120 "$CHROMIUM" "${flags[@]}" --user-data-dir="$d/profile" --remote-debugging-pipe about:blank \
    3<"$d/in" 4>"$d/out" 2>"$d/chrome.log" &
  pid=$!
  exec 7>"$d/in" 8<"$d/out"
  send() {
    n=$((n + 1))
    jq -cnj --argjson id "$n" --arg m "$1" --argjson p "${2:-"{}"}" --arg s "${3:-}" \
      '{id: $id, method: $m, params: $p} + (if $s == "" then {} else {sessionId: $s} end)' >&7
    printf '\0' >&7
  }
  reply() {  # the reply to the last command; the events before it are kept
    while IFS= read -r -d '' -t 60 -u 8 msg; do
      printf '%s\n' "$msg" >>"$d/events"
      [[ $(jq -r '.id // empty' <<<"$msg") == "$n" ]] && { printf '%s\n' "$msg"; return 0; }
    done
    echo "no reply to DevTools command $n: $(tail -3 "$d/chrome.log")" >&2
    return 1
  }
  send Target.getTargets
  target=$(reply | jq -r '[.result.targetInfos[] | select(.type == "page")][0].targetId') || return 1
  send Target.attachToTarget "{\"targetId\": \"$target\", \"flatten\": true}"
  session=$(reply | jq -r .result.sessionId) || return 1
  for m in Network.enable Log.enable Runtime.enable Page.enable; do
    send "$m" '{}' "$session"
    reply >/dev/null || return 1
  done
  send Page.navigate "$(jq -cn --arg u "$url" '{url: $u}')" "$session"
  reply >/dev/null || return 1
  while IFS= read -r -d '' -t 60 -u 8 msg; do
    printf '%s\n' "$msg" >>"$d/events"
    [[ $(jq -r '.method // empty' <<<"$msg") == Page.loadEventFired ]] && break
  done
  while IFS= read -r -d '' -t 1 -u 8 msg; do printf '%s\n' "$msg" >>"$d/events"; done  # late ones
  send Browser.close
  exec 7>&- 8<&-
  wait "$pid" 2>/dev/null
  grep -q Page.loadEventFired "$d/events" || { echo "the page never finished loading" >&2; return 1; }
  jq -c 'select(.method == "Network.loadingFailed" or .method == "Runtime.exceptionThrown" or
                .method == "Runtime.consoleAPICalled" or
                (.method == "Log.entryAdded" and (.params.entry.level == "error" or .params.entry.level == "warning")))' \
    "$d/events"
}

# rendered NAME: WORK/NAME.html loads in Chromium without a failed load, exception, console
# message or logged error, and its rendered DOM is WORK/NAMEpage.dom.
rendered() {
  local name=$1 found
  found=$(problems "file://$WORK/$name.html") || fail "chromium did not load the $name report"
  [[ -z $found ]] || fail "the $name report page is broken in Chromium:
$found"
  chrome "$WORK/${name}page" "file://$WORK/$name.html" --dump-dom || fail "chromium failed on the $name report"
}

# 1. The checks can fail: a missing image and a script error are both seen.
printf '%s\n' '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>broken</title></head>' \
  '<body><img src="missing.png" alt="missing"><script>undefined_function();</script></body></html>' \
  >"$WORK/broken.html"
broken=$(problems "file://$WORK/broken.html") || fail "chromium did not load the fixture"
grep -q '"Network.loadingFailed".*ERR_FILE_NOT_FOUND' <<<"$broken" || fail "the check missed a failed load: $broken"
grep -q '"Runtime.exceptionThrown".*undefined_function' <<<"$broken" || fail "the check missed a script error: $broken"
echo "PASS: the DevTools check sees a failed resource load and a script error"

# 2. The samples' report.
"$SLURMTOPO" report --fabric "$samples/superpod-4su.topo" --config "$samples/site.yaml" \
  --nodes-dir "$samples/nodes" --slurm-conf "$samples/slurm.conf" \
  -o "$WORK/report.html" --json "$WORK/report.json" --md "$WORK/summary.md" 2>"$WORK/report.err"
rc=$?
((rc == 4)) || fail "the sample's report should fail its checks (exit 4), got exit $rc: $(cat "$WORK/report.err")"
[[ -s $WORK/report.html && -s $WORK/report.json && -s $WORK/summary.md ]] || fail "a rendering is missing"

found=$(problems "file://$WORK/report.html") || fail "chromium did not load the report"
[[ -z $found ]] || fail "the report page is broken in Chromium:
$found"
echo "PASS: no failed load, exception, console message or logged error"
chrome "$WORK/page" "file://$WORK/report.html" --dump-dom || fail "chromium failed on the report: $(tail -5 "$WORK/page.log")"

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
boxes=$(grep -o 'data-level=' "$dom" | wc -l)
flagged=$(grep -o '<g class="box has-findings"' "$dom" | wc -l)
(( boxes >= 5 && flagged >= 4 )) || fail "the drawing has $boxes boxes, $flagged with findings (expected ≥ 5 and ≥ 4)"
grep -q '<svg id="busbw-chart"' "$dom" || fail "no busbw chart"
curves=$(jq '.performance.curves | length' "$WORK/report.json")
(( curves >= 1 && $(grep -o '<polyline' "$dom" | wc -l) == curves )) || fail "expected $curves chart curves"
grep -q 'class="limit"' "$dom" || fail "no physical limit line in the chart"
grep -q '<title id="drawing-title">' "$dom" && grep -q '<desc id="chart-desc">' "$dom" || fail "an SVG without its text"

# Every finding of the sample: samples/README.md's faults, each in the page by kind and subject.
for expect in "miscabled-rail dgx005" "miscabled-rail dgx021" "missing-uplinks su4-rail5" "degraded-link su2-rail6" \
  "unresolved-hca su3-rail6" "rail-leaf dgx010"; do
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

# 2b. The sample against its cabling plan (generate --format plan of the sample's clean fabric):
# the page loads clean, has the plan section, and every plan finding is a row of its table.
"$SLURMTOPO" generate railopt --scalable-units 4 --hosts-per-su 16 --rails 8 --sharp --format plan -o "$WORK/plan.csv" ||
  fail "generate --format plan"
"$SLURMTOPO" report --fabric "$samples/superpod-4su.topo" --config "$samples/site.yaml" --plan "$WORK/plan.csv" \
  -o "$WORK/plan.html" --json "$WORK/plan.json" 2>"$WORK/plan.err"
rc=$?
((rc == 4)) || fail "the sample against its plan should fail fabric.plan (exit 4), got exit $rc: $(cat "$WORK/plan.err")"
rendered plan
plan_section=$(sed -n '/<section id="plan">/,/<\/section>/p' "$WORK/planpage.dom")
grep -q '<h2>Cabling against the plan</h2>' <<<"$plan_section" || fail "no plan section in the rendered page"
planned=$(jq '.plans[0].finding_indices | length' "$WORK/plan.json")
(( planned == 4 )) || fail "expected the sample's 4 faults as 4 plan findings, got $planned"
for i in $(jq '.plans[0].finding_indices[]' "$WORK/plan.json"); do
  kind=$(jq -r ".findings[$i].kind" "$WORK/plan.json")
  grep -qF ">#$i<" <<<"$plan_section" && grep -qF "$kind" <<<"$plan_section" ||
    fail "plan finding $i ($kind) is not a row of the plan section"
done
echo "PASS: the plan section in Chromium, its $planned findings each a row"

# 2c. With measured runs (--measured): the nccl-tests fixtures of tests/data/nccl with their hosts
# renamed to the sample's, one run with its NCCL lines on dgx[001-002] and one that hung with
# dgx004 on sockets. The page loads clean, each predicted run has its chart with one dot per
# size, and the measured findings are rows.
mkdir -p "$WORK/measured"
data=$here/../data/nccl
sed 's/gpu-017/dgx001/g; s/gpu-018/dgx002/g' "$data/all_reduce_perf-2x8-h100-nccl-debug.out" >"$WORK/measured/01-pair.out"
sed 's/gpu-017/dgx003/g; s/gpu-018/dgx004/g' "$data/nccl-2.21.5-2x8-h100-socket-fallback.log" >"$WORK/measured/02-sockets.log"
"$SLURMTOPO" report --fabric "$samples/superpod-4su.topo" --config "$samples/site.yaml" --nodes-dir "$samples/nodes" \
  --measured "$WORK/measured" -o "$WORK/measured.html" --json "$WORK/measured.json" 2>"$WORK/measured.err"
rc=$?
((rc == 4)) || fail "the sample with a socket fallback should fail (exit 4), got exit $rc: $(cat "$WORK/measured.err")"
rendered measured
measured_section=$(sed -n '/<section id="measured">/,/<\/section>/p' "$WORK/measuredpage.dom")
grep -q '<h2>Measured against predicted</h2>' <<<"$measured_section" || fail "no measured section in the rendered page"
sizes=$(jq '.measured.runs[0].sizes | length' "$WORK/measured.json")
dots=$(grep -o '<circle class="measured ' <<<"$measured_section" | wc -l)
((sizes > 20 && dots == sizes)) || fail "expected one measured dot per size ($sizes), got $dots"
grep -q 'id="measured-chart-0"' <<<"$measured_section" || fail "no chart for the predicted run"
grep -q 'class="band"' <<<"$measured_section" || fail "no band of the model's stated error"
grep -q 'href="#measured"' "$WORK/measuredpage.dom" || fail "the performance section does not point at the measured runs"
jq -e '[.findings[] | select(.kind == "socket-fallback" and .subject == "dgx004")] | length == 1' "$WORK/measured.json" \
  >/dev/null || fail "no socket-fallback finding on dgx004"
n=$(jq '.findings | length' "$WORK/measured.json")
for ((i = 0; i < n; i++)); do
  [[ $(jq -r ".findings[$i].check" "$WORK/measured.json") == performance.measured ]] || continue
  kind=$(jq -r ".findings[$i].kind" "$WORK/measured.json")
  row=$(grep -F "id=\"finding-$i\"" "$WORK/measuredpage.dom") || fail "measured finding $i ($kind) is not in the page"
  grep -qF "$kind" <<<"$row" || fail "measured finding $i's row lacks $kind"
done
echo "PASS: the measured section in Chromium, $dots dots for $sizes sizes, its findings rows"

# 3. The screenshot: a PNG of the page's first screen and a half, not blank.
chrome "$WORK/shot" "file://$WORK/report.html" --window-size=1100,1600 --hide-scrollbars \
  --screenshot="$WORK/report.png" || fail "chromium could not take the screenshot: $(tail -5 "$WORK/shot.log")"
[[ $(head -c 8 "$WORK/report.png" | od -An -tx1 | tr -d ' \n') == 89504e470d0a1a0a ]] || fail "the screenshot is not a PNG"
size=$(stat -c %s "$WORK/report.png")
((size > 20000)) || fail "the screenshot is $size bytes: blank?"
echo "PASS: screenshot $size bytes"

#!/bin/sh
# Run the quic-cc benchmarks and write bench/RESULTS.md (`make bench` calls this).
#   bench/run-bench.sh BUILD_DIR [REPS]
# REPS: repetitions of each quic-cc/TCP comparison run (default 7). The measured tables come from
# the two programs; the callgrind section is bench/callgrind-findings.md (a one-off profile,
# not re-measured here).
set -eu
build=${1:?usage: bench/run-bench.sh BUILD_DIR [REPS]}
reps=${2:-7}
here=$(cd "$(dirname "$0")" && pwd)
for exe in transfer-bench controller-bench; do
  [ -x "$build/bench/$exe" ] || { echo "run-bench: $build/bench/$exe is missing (configure with -DQUICCC_BUILD_BENCH=ON and build it)" >&2; exit 1; }
done
# campaign-bench.py runs this example through quic-cc-campaign: checked now, not after an hour.
[ -x "$build/examples/quic-cc-death-spiral" ] || { echo "run-bench: $build/examples/quic-cc-death-spiral is missing (build it: make bench does)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== transfer-bench (whole simulated transfers) ==" >&2
# --callgrind: each comparison cell once under valgrind (own-code share vs the ns-3 floor);
# connection counts up to 10,000 for the scale target (make bench-scale adds 2,000 and 4,000).
"$build/bench/transfer-bench" --reps="$reps" --callgrind=1 --connCounts=1,10,100,1000,10000 \
  --scaleReps=1 --markdown="$tmp/transfer.md" > /dev/null
echo "== controller-bench (Google Benchmark) ==" >&2
"$build/bench/controller-bench" --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --markdown="$tmp/controller.md" >&2

echo "== campaign-bench (quic-cc-campaign throughput) ==" >&2
/usr/bin/python3 "$here/campaign-bench.py" "$build" "$tmp/campaign.md"

commit=$(git -C "$here/.." rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=$(git -C "$here/.." status --porcelain --untracked-files=no 2>/dev/null | grep -q . && echo " plus uncommitted changes" || true)
{
  echo "# quic-cc benchmark results"
  echo
  echo "Written by \`make bench\` (bench/run-bench.sh) on $(date -u '+%Y-%m-%d %H:%M UTC'), commit $commit$dirty."
  echo "Benchmarks are not tests: nothing here runs under ctest. Reproduce with \`make bench\`"
  echo "(\`BENCH_REPS=n\` repetitions per comparison run); \`transfer-bench --help\` lists its options."
  echo
  echo "## Targets"
  echo
  echo "Load average when the run ended: $(cut -d' ' -f1-3 /proc/loadavg) (1 / 5 / 15 min)."
  echo
  grep -h '^Target' "$tmp/transfer.md" "$tmp/controller.md" | sort -s -k2,2n | sed 's/^Target /- Target /'
  echo
  echo "## Whole transfers (bench/transfer-bench.cc)"
  echo
  cat "$tmp/transfer.md"
  echo "## Controllers and loss detection (bench/controller-bench.cc)"
  echo
  cat "$tmp/controller.md"
  cat "$tmp/campaign.md"
  echo
  cat "$here/callgrind-findings.md"
} > "$here/RESULTS.md"
echo "wrote $here/RESULTS.md" >&2

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Times several builds of sort-test side by side on one device, the way the tuning row's values
# (src/tuning.hpp) were measured: in each round every build runs the same benchmark points in
# turn, so whatever drifts during a call (clocks, temperature) falls on every build alike, and the
# rounds show the spread. Prints the median ms of every point, build by build and round by round; each
# build's JSON of each round goes to $LOGS (default ./ab-logs).
#   tools/gpu-ab.sh [--rounds N] NAME=SORT_TEST [NAME=SORT_TEST ...] -- SORT_TEST_ARGS...
# The arguments after -- are sort-test's benchmark options (--keys, --values, --counts, ...);
# --bench --no-validation --cpu-max 0 are added, and --warmup 1 --reps 30 unless given. Only the
# first round verifies (up to sort-test's --verify-max); later rounds pass --verify-max 0.
# Set RUN to a wrapper that prepares the machine's Vulkan (for example one that installs the loader
# and points it at the driver), or leave it empty.
# Example: tools/gpu-ab.sh old=old-build/sort-test new=build/sort-test -- --keys u32 --counts 2^16,2^24
set -euo pipefail
usage() { sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; }
if [ "${1:-}" = --help ] || [ "${1:-}" = -h ]; then
  usage
  exit 0
fi
rounds=2
if [ "${1:-}" = --rounds ]; then
  if [[ ! ${2:-} =~ ^[1-9][0-9]*$ ]]; then
    echo "gpu-ab: --rounds takes a number of rounds, 1 or more" >&2
    exit 2
  fi
  rounds=$2
  shift 2
fi
names=() bins=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
  if [[ $1 != ?*=?* ]]; then
    echo "gpu-ab: $1: builds are given as NAME=SORT_TEST (gpu-ab.sh --help)" >&2
    exit 2
  fi
  names+=("${1%%=*}") bins+=("${1#*=}")
  shift
done
[ "${1:-}" = -- ] && shift
if [ ${#names[@]} -eq 0 ]; then
  usage >&2
  exit 2
fi
logs=${LOGS:-ab-logs}
run=${RUN:-}
mkdir -p "$logs"
extra=()
[[ " $* " == *" --warmup "* ]] || extra+=(--warmup 1)
[[ " $* " == *" --reps "* ]] || extra+=(--reps 30)

for ((r = 1; r <= rounds; ++r)); do
  verify=()
  [ "$r" -gt 1 ] && verify=(--verify-max 0)
  for i in "${!names[@]}"; do
    out="$logs/${names[$i]}-$r"
    if ! $run "${bins[$i]}" --bench --no-validation --cpu-max 0 "${extra[@]}" "$@" "${verify[@]}" \
        --json "$out.json" > "$out.log" 2>&1; then
      echo "gpu-ab: ${names[$i]} failed in round $r: see $out.log" >&2
      exit 1
    fi
  done
done

python3 - "$logs" "$rounds" "${names[@]}" <<'EOF'
import json, sys
logs, rounds, names = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
medians, points = {}, []
for name in names:
    for r in range(1, rounds + 1):
        with open(f"{logs}/{name}-{r}.json") as f:
            for res in json.load(f)["results"]:
                point = (res["key"], res["value"], res["count"])
                if point not in points:
                    points.append(point)
                medians.setdefault((name, point), []).append(res["median_ms"])
print("| key | value | count | " + " | ".join(names) + " |")
print("|---|---|---:|" + "---|" * len(names))
for point in points:
    cells = [", ".join(f"{m:.4f}" for m in medians.get((name, point), [])) for name in names]
    print(f"| {point[0]} | {point[1]} | {point[2]} | " + " | ".join(cells) + " |")
EOF

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs vksort (sort-test --bench) and its peers (cub-bench, vrdx-bench, fuchsia-bench) on the same
# benchmark points, one tool after another on one device, from prebuilt binaries (the GPU machine
# needs no compiler). Writes OUT_DIR/<tool>.json (sort-test's `results` fields) and the tools' logs
# under OUT_DIR/logs, then prints a markdown table of the median ms of every point and tool.
#   bench/peers/run-all.sh BUILD_DIR OUT_DIR [POINT...]
# BUILD_DIR holds the binaries, flat (sort-test, cub-bench, vrdx-bench, fuchsia-bench side by side)
# or as a build tree (bench/, bench/peers/); a tool that is absent is left out.
# A POINT is KEY[:VALUE]@COUNT, e.g. u32@2^20, u32:u32@2^24, u64@1000003. Default: u32@2^16
# u32@2^20 u32@2^24 u32@2^28 u32:u32@2^24 u64@2^24. A tool runs only the points its library sorts
# (vrdx: u32 keys, alone or with u32 values; Fuchsia: u32 and u64 keys, u32 keys with u32 values).
# Every tool gets --reps $REPS (default 30) --warmup $WARMUP (default 1) --verify-max $VERIFY_MAX
# (default 2^24) and the same keys (uniform, seed 1).
# Set RUN to a wrapper that prepares the machine's Vulkan (for example one that installs the loader
# and points it at the driver), or leave it empty.
# Exit status: 0 when every tool that ran succeeded (its points verified), 1 otherwise, 2 bad usage.
set -uo pipefail
usage() { sed -n '3,16p' "$0" | sed 's/^# \{0,1\}//'; }
if [ "${1:-}" = --help ] || [ "${1:-}" = -h ]; then
  usage
  exit 0
fi
if [ $# -lt 2 ]; then
  usage >&2
  exit 2
fi
build=$1 out=$2
shift 2
points=("$@")
[ ${#points[@]} -eq 0 ] && points=(u32@2^16 u32@2^20 u32@2^24 u32@2^28 u32:u32@2^24 u64@2^24)
run=${RUN:-}
reps=${REPS:-30} warmup=${WARMUP:-1} verify_max=${VERIFY_MAX:-2^24}

# Groups of points by format: "KEY:VALUE" -> comma-separated counts, in the order first named.
declare -A counts=()
formats=()
for p in "${points[@]}"; do
  if [[ ! $p =~ ^(u32|i32|f32|u64|i64|f64)(:(none|u32|u64|index))?@([0-9]+|0x[0-9a-fA-F]+|2\^[0-9]+)$ ]]; then
    echo "run-all: $p is not a point KEY[:VALUE]@COUNT (e.g. u32@2^20, u32:u32@2^24)" >&2
    exit 2
  fi
  format="${BASH_REMATCH[1]}:${BASH_REMATCH[3]:-none}"
  if [ -z "${counts[$format]:-}" ]; then
    formats+=("$format")
    counts[$format]=${BASH_REMATCH[4]}
  else
    counts[$format]+=",${BASH_REMATCH[4]}"
  fi
done

find_tool() { # find_tool NAME: its path under $build, or nothing
  local d
  for d in "$build" "$build/bench" "$build/bench/peers"; do
    if [ -f "$d/$1" ] && [ -x "$d/$1" ]; then
      echo "$d/$1"
      return
    fi
  done
}

# Whether a tool's library sorts KEY:VALUE.
sorts() { # sorts TOOL FORMAT
  case "$1:$2" in
    sort-test:* | cub-bench:*) return 0 ;;
    vrdx-bench:u32:none | vrdx-bench:u32:u32) return 0 ;;
    fuchsia-bench:u32:none | fuchsia-bench:u32:u32 | fuchsia-bench:u64:none) return 0 ;;
    *) return 1 ;;
  esac
}

mkdir -p "$out/logs"
tools=(sort-test cub-bench vrdx-bench fuchsia-bench)
status=0
ran=()
for tool in "${tools[@]}"; do
  bin=$(find_tool "$tool")
  if [ -z "$bin" ]; then
    echo "run-all: no $tool in $build: left out"
    continue
  fi
  case $tool in
    sort-test) extra=(--bench --no-validation --cpu-max 0) ;;
    cub-bench) extra=() ;;
    *) extra=(--no-validation) ;;
  esac
  parts=()
  for format in "${formats[@]}"; do
    sorts "$tool" "$format" || continue
    key=${format%%:*} value=${format#*:}
    part="$out/logs/$tool-$key-$value"
    echo "run-all: $tool $key keys, $value values, counts ${counts[$format]}"
    if ! $run "$bin" "${extra[@]}" --keys "$key" --values "$value" --counts "${counts[$format]}" \
        --reps "$reps" --warmup "$warmup" --verify-max "$verify_max" --json "$part.json" > "$part.log" 2>&1; then
      echo "run-all: $tool failed on $key:$value (a wrong result or an error): see $part.log" >&2
      status=1
    fi
    [ -s "$part.json" ] && parts+=("$part.json")
  done
  if [ ${#parts[@]} -gt 0 ]; then
    # One JSON per tool: the first part's header with every part's results.
    python3 - "$out/$tool.json" "${parts[@]}" <<'EOF'
import json, sys
merged = None
for path in sys.argv[2:]:
    with open(path) as f:
        part = json.load(f)
    if merged is None:
        merged = part
    else:
        merged["results"] += part["results"]
with open(sys.argv[1], "w") as f:
    json.dump(merged, f, indent=2)
    f.write("\n")
EOF
    ran+=("$tool")
  fi
done

python3 - "$out" "${points[@]}" <<'EOF'
import json, os, re, sys
out, points = sys.argv[1], sys.argv[2:]
columns = [("sort-test", "vksort"), ("cub-bench", "CUB"), ("vrdx-bench", "vrdx"), ("fuchsia-bench", "Fuchsia")]
def count(text):
    return 1 << int(text[2:]) if text.startswith("2^") else int(text, 0)
results = {}
for tool, _ in columns:
    path = os.path.join(out, tool + ".json")
    if os.path.exists(path):
        with open(path) as f:
            for r in json.load(f)["results"]:
                results[(tool, r["key"], r["value"], r["count"])] = r
print("| key | value | count | " + " | ".join(name for _, name in columns) + " |")
print("|---|---|---:|" + "---:|" * len(columns))
seen = set()
for p in points:
    m = re.match(r"^(\w+)(?::(\w+))?@(.+)$", p)
    key, value, n = m.group(1), m.group(2) or "none", count(m.group(3))
    if (key, value, n) in seen:
        continue
    seen.add((key, value, n))
    cells = []
    for tool, _ in columns:
        r = results.get((tool, key, value, n))
        if r is None:
            cells.append("-")
        else:
            mark = " (wrong)" if r.get("verified") == "no" else ""
            cells.append(f"{r['median_ms']:.4f}{mark}")
    print(f"| {key} | {value} | {n} | " + " | ".join(cells) + " |")
print()
print("Median ms of GPU time per sort (CUB: CUDA events); - : tool absent or format not sorted by "
      "the library; (wrong): the verified sort did not match std::stable_sort.")
EOF
exit $status

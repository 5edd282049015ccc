#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Runs vksort's checks on a machine with a real GPU, from an existing Release build (the GPU
# machine may have no compiler). Logs go to $LOGS (default ./gpu-logs), one file per step; the
# last lines printed summarize every step.
#   tools/gpu-check.sh [BUILD_DIR] [STEPS...]
# Steps: tests accept large stress subgroups example startup stats guard bench (default: all but
# bench). guard fails when a sort the way the README calls it is slower than with the device
# options sort-test can add: more than 2% slower without subgroup size control than with it, or
# with the count read on the GPU more than 5 us slower than with it given on the host (u32 keys
# and u32:u32 at 2^20 and 2^24).
# Set RUN to a wrapper that prepares the machine's Vulkan (for example one that installs the loader
# and points it at the driver), or leave it empty.
# Exit status: 0 when every step passed, 1 when one failed, 2 for an unknown step.
set -uo pipefail
all_steps="tests accept large stress subgroups example startup stats guard bench"
if [ "${1:-}" = --help ] || [ "${1:-}" = -h ]; then
  sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'
  exit 0
fi
build=${1:-build}
shift || true
steps=${*:-tests accept large stress subgroups example startup stats guard}
for s in $steps; do
  if [[ " $all_steps " != *" $s "* ]]; then
    echo "gpu-check: unknown step $s (steps: $all_steps)" >&2
    exit 2
  fi
done
logs=${LOGS:-gpu-logs}
run=${RUN:-}
mkdir -p "$logs"
summary=()

step() { # step NAME COMMAND...
  local name=$1; shift
  local start=$SECONDS
  if $run "$@" > "$logs/$name.log" 2>&1; then
    summary+=("PASS $name ($((SECONDS - start)) s)")
  else
    summary+=("FAIL $name ($((SECONDS - start)) s): see $logs/$name.log")
  fi
  tail -n 3 "$logs/$name.log"
}

for s in $steps; do
  case $s in
  tests)
    step vulkaninfo vulkaninfo --summary
    # Every Catch2 binary (each runs all its cases in one process) and the loader consumers.
    for t in "$build"/tests/test_* "$build"/tests/consumer/vksort-consumer-*; do
      [ -f "$t" ] && [ -x "$t" ] && step "$(basename "$t")" "$t"
    done
    ;;
  accept)
    step accept-few3 "$build/sort-test" --count 1000003 --dist few:3 --value u32
    step accept-f64 "$build/sort-test" --key f64 --value index --order desc --count 300007
    step accept-u64 "$build/sort-test" --key u64 --value u64 --bits 0:40 --count 500009
    step accept-indirect "$build/sort-test" --indirect --count 16777216 --key f32 --value u32 --order desc
    # Renderers' keys: depths with indices, tile ids above depths, Morton codes, last frame's order.
    step accept-depth "$build/sort-test" --dist depth --key f32 --value index --count 4000037
    step accept-tile-depth "$build/sort-test" --dist tile-depth --key u64 --value u32 --count 10000019
    step accept-morton "$build/sort-test" --dist morton:63 --key u64 --value index --count 3000017
    step accept-nearly "$build/sort-test" --dist nearly:5 --key f32 --value u32 --order desc --count 2000003
    # Skipping constant digits: inline scans and scan steps, direct and indirect counts (the GPU
    # choosing either), one pass, an odd number of constant digits, and all keys equal.
    step accept-skip-bits "$build/sort-test" --skip-constant-digits --dist bits:16 --value u32 --count 16777216
    step accept-skip-inline "$build/sort-test" --skip-constant-digits --dist bits:20 --key i32 --value index --order desc --count 1000003
    step accept-skip-indirect "$build/sort-test" --skip-constant-digits --indirect --dist bits:12 --count 5000011
    step accept-skip-indirect-inline "$build/sort-test" --skip-constant-digits --indirect --dist bits:12 --count 1000003
    step accept-skip-one-pass "$build/sort-test" --skip-constant-digits --bits 0:4 --value u32 --count 16777216
    step accept-skip-tile-depth "$build/sort-test" --skip-constant-digits --dist tile-depth --key u64 --value u32 --count 10000019
    step accept-skip-equal "$build/sort-test" --skip-constant-digits --dist equal --key f64 --value u64 --count 3000017
    ;;
  large)
    step large-u32 "$build/sort-test" --count 268435456 --no-validation
    step large-u64-pairs "$build/sort-test" --count 134217728 --key u64 --value u64 --no-validation
    ;;
  stress)
    step stress "$build/sort-test" --stress 20:200:300000 --seed 11
    ;;
  subgroups)
    # Every subgroup size the device offers for compute (min..max, powers of two).
    sizes=$($run vulkaninfo 2>/dev/null | awk '/minSubgroupSize/ {min=$3} /maxSubgroupSize/ {max=$3} END {for (s = min; s <= max && s > 0; s *= 2) printf "%d ", s}')
    for size in $sizes; do
      step "subgroup-$size" "$build/sort-test" --subgroup-size "$size" --count 3000017 --key i64 --value u32 --order desc
    done
    ;;
  example)
    [ -x "$build/examples/point-depth/point-depth" ] && step example "$build/examples/point-depth/point-depth"
    [ -x "$build/examples/splat/splat" ] && step splat "$build/examples/splat/splat" --check
    ;;
  startup)
    # Sorter creation with an empty NVIDIA shader disk cache (cold), then with the one that run
    # filled (warm): one format (f32 keys, u32 values), then every format.
    for formats in "" --all-formats; do
      cache=$(mktemp -d)
      name=startup${formats:+-all}
      step "$name-cold" env __GL_SHADER_DISK_CACHE_PATH="$cache" "$build/sort-test" --count 100000 --key f32 --value u32 $formats
      step "$name-warm" env __GL_SHADER_DISK_CACHE_PATH="$cache" "$build/sort-test" --count 100000 --key f32 --value u32 $formats
    done
    ;;
  stats)
    step pipeline-stats "$build/pipeline-stats"
    step pipeline-stats-skip "$build/pipeline-stats" --skip-constant-digits
    ;;
  guard)
    # One count per run, so that the buffers hold just that count, as a renderer sizes them.
    for count in 2^20 2^24; do
      n=${count#2^}
      points=(--bench --no-validation --keys u32 --values none,u32 --counts "$count" --warmup 1 --reps 30 --cpu-max 0)
      step "guard-control-$n" "$build/sort-test" "${points[@]}" --subgroup-size-control --json "$logs/guard-control-$n.json"
      step "guard-plain-$n" "$build/sort-test" "${points[@]}" --json "$logs/guard-plain-$n.json"
      step "guard-indirect-$n" "$build/sort-test" "${points[@]}" --indirect --json "$logs/guard-indirect-$n.json"
    done
    step guard-compare python3 "$(dirname "$0")/gpu-guard.py" "$logs"
    ;;
  bench)
    step bench-u32 "$build/sort-test" --bench --no-validation --keys u32,f32 --values none,u32,index \
      --counts 2^10,2^12,2^14,2^16,2^18,2^20,2^22,2^24,2^26,2^28,1000003,10000019 --json "$logs/bench-u32.json"
    step bench-u64 "$build/sort-test" --bench --no-validation --keys u64,f64 --values none,u64 \
      --counts 2^10,2^12,2^14,2^16,2^18,2^20,2^22,2^24,2^26 --json "$logs/bench-u64.json"
    ;;
  esac
done
printf '%s\n' "${summary[@]}"
for line in "${summary[@]}"; do [[ $line == FAIL* ]] && exit 1; done
exit 0

#!/bin/bash
# Call 76 (H100): lvc (loadValues reads clamped slots, no per-key test), rk (ranking peers by xor
# masks, no lane select), both, beside main (m10 = a48e049); cold creation main/lvc/both alternating.
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
mkdir -p $OUT/ps; for b in m10 lvc rk both; do $R $B/$b/pipeline-stats > $OUT/ps/$b.txt 2>&1; done; (cd $OUT && tar czf ps.tgz ps && rm -rf ps)
step u32 main=$B/m10/sort-test lvc=$B/lvc/sort-test rk=$B/rk/sort-test both=$B/both/sort-test -- --reps 30 --keys u32 --values none,u32 --counts 4096,2^16,2^20,2^24 --verify-max 16777216
step u64 main=$B/m10/sort-test lvc=$B/lvc/sort-test rk=$B/rk/sort-test both=$B/both/sort-test -- --reps 30 --keys u64 --values none,u64 --counts 4096,2^20,2^24 --verify-max 16777216
O=$OUT/startup; mkdir -p $O
for r in 1 2 3 4; do for b in m10 lvc both; do
  for f in one all; do
    c=$(mktemp -d); a=; [ $f = all ] && a=--all-formats
    $R env __GL_SHADER_DISK_CACHE_PATH=$c $B/$b/sort-test --count 100000 --key f32 --value u32 $a > $O/$b-$f-cold-$r.log 2>&1
    rm -rf $c
  done
done; done
grep -o 'sorter created in [0-9.]* ms' $O/*.log > $O/summary.txt
cd $OUT && tar czf startup.tgz startup && rm -rf startup

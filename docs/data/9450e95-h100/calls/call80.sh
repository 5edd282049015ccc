#!/bin/bash
# Call 80 (H100): blk (the single-workgroup sort ranks by per-invocation counter columns, blocked
# layout, padded exchange) beside main (m11 = b5ba7c6, kernels = 9450e95's); correctness at single sizes;
# pipeline-stats; cold creation alternating.
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
O=$OUT/chk; mkdir -p $O
for kv in "u32 none" "u32 u32" "u64 none" "u64 u64" "f32 index" "i64 u32" "f64 u64"; do set -- $kv
  for c in 1 33 1000 4095 4096; do for d in uniform equal few:3; do
    $R $B/blk/sort-test --key $1 --value $2 --count $c --dist $d --repeat 3 2>&1 | tail -1 >> $O/verify.txt
  done; done; done
$R $B/blk/sort-test --stress 10:200:4096 --seed 5 > $O/stress.txt 2>&1; echo "rc $?" >> $O/stress.txt
$R $B/blk/sort-test --stress 4:100:300000 --seed 6 > $O/stress2.txt 2>&1; echo "rc $?" >> $O/stress2.txt
for b in m11 blk; do $R $B/$b/pipeline-stats > $O/ps-$b.txt 2>&1; done
(cd $OUT && tar czf chk.tgz chk && rm -rf chk)
step ab main=$B/m11/sort-test blk=$B/blk/sort-test -- --reps 30 --keys u32,u64 --values none,u32,u64 --counts 2^10,3000,2^12,2^16
O=$OUT/startup; mkdir -p $O
for r in 1 2 3; do for b in m11 blk; do
  for f in one all; do
    c=$(mktemp -d); a=; [ $f = all ] && a=--all-formats
    $R env __GL_SHADER_DISK_CACHE_PATH=$c $B/$b/sort-test --count 100000 --key f32 --value u32 $a > $O/$b-$f-cold-$r.log 2>&1
    rm -rf $c
  done
done; done
grep -o 'sorter created in [0-9.]* ms' $O/*.log > $O/summary.txt
cd $OUT && tar czf startup.tgz startup && rm -rf startup

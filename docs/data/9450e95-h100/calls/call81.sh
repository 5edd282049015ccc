#!/bin/bash
# Call 81 (H100): blk2 (blk with coalesced loads and one exchange into the blocked layout) beside blk and main (m11).
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
O=$OUT/chk; mkdir -p $O
for kv in "u32 none" "u32 u32" "u64 none" "u64 u64" "f32 index"; do set -- $kv
  for c in 1 33 1000 4095 4096; do for d in uniform few:3; do
    $R $B/blk2/sort-test --key $1 --value $2 --count $c --dist $d --repeat 3 2>&1 | tail -1 >> $O/verify.txt
  done; done; done
$R $B/blk2/pipeline-stats > $O/ps-blk2.txt 2>&1
(cd $OUT && tar czf chk.tgz chk && rm -rf chk)
step ab main=$B/m11/sort-test blk=$B/blk/sort-test blk2=$B/blk2/sort-test -- --reps 30 --keys u32,u64 --values none,u32,u64 --counts 2^10,2^12

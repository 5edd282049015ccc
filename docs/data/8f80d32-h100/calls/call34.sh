#!/bin/bash
# Call 34: how many reorder workgroups run at once (probe builds: the most running workgroups go
# to the fallback count), for main's reorders (pr), with two exchange buffers (prx), and with 2 or
# 4 KiB more shared memory (prp2, prp4).
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
step p32 head=$B/final2/sort-test pr=$B/pr/sort-test prx=$B/prx/sort-test prp2=$B/prp2/sort-test prp4=$B/prp4/sort-test -- --reps 20 --keys u32 --values none,u32 --counts 2^20,2^22,2^24 --verify-max 0
step p64 --rounds 1 pr=$B/pr/sort-test prx=$B/prx/sort-test -- --reps 10 --keys u64 --values none,u64 --counts 2^22 --verify-max 0

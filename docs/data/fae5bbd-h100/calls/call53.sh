#!/bin/bash
# Call 53 (timing only): does code that never runs cost the reorder? pad: 256 register-light atomics behind a branch never taken, between the ranking and the exchange; padE: the same at the end of main().
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
mkdir -p $OUT/ps; $R $B/pad/pipeline-stats > $OUT/ps/pad.txt 2>&1; $R $B/padE/pipeline-stats > $OUT/ps/padE.txt 2>&1; (cd $OUT && tar czf ps.tgz ps && rm -rf ps)
step pad main=$B/main/sort-test pad=$B/pad/sort-test padE=$B/padE/sort-test -- --reps 20 --keys u32,u64 --values none --counts 2^16,2^20,2^24 --verify-max 1048576

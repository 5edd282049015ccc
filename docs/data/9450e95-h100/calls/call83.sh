#!/bin/bash
# Call 83 (H100): where the u32 reorder's 52 registers peak (pipeline-stats of diagnostic builds:
# nn no next-pass counting, nr no ranking, nl no inline-scan code, q1 one counts load in flight in the
# inline scan), and q1 and nl (the same as main wherever a scan step runs: 2^22 up) timed beside main.
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
B=.gpu/b
step() { local n=$1; shift; mkdir -p $OUT/$n; LOGS=$OUT/$n RUN="$R" tools/gpu-ab.sh "$@" > $OUT/$n/table.txt 2>&1; (cd $OUT && tar czf $n.tgz $n && rm -rf $n); }
O=$OUT/ps; mkdir -p $O
for b in q1 nn nl nr; do $R $B/$b/pipeline-stats > $O/ps-$b.txt 2>&1; done
(cd $OUT && tar czf ps.tgz ps && rm -rf ps)
step ab main=$B/m11/sort-test q1=$B/q1/sort-test nl=$B/nl/sort-test -- --reps 20 --keys u32 --values none,u32 --counts 2^20,2^24,2^28 --verify-max 16777216

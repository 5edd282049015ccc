#!/bin/bash
# Call 42/43: gpu-check on 8f80d32 (final3). STEPS chooses the steps.
cd "$(dirname "$0")/.."
O=$OUT/check; mkdir -p $O
LOGS=$O RUN="bash .gpu/run.sh" timeout 570 tools/gpu-check.sh .gpu/b/final3 ${STEPS:-tests accept fallback subgroups example startup stats} > $O/gpu-check.txt 2>&1; echo "rc $?" >> $O/gpu-check.txt
cd $OUT && tar czf check.tgz check && rm -rf check

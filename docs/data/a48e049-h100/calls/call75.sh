#!/bin/bash
# Call 75 (H100): gpu-check on main (a48e049, kernels 01516cf).
cd "$(dirname "$0")/.."
R="bash .gpu/run.sh"
O=$OUT/check; mkdir -p $O
LOGS=$O RUN="$R" timeout 540 tools/gpu-check.sh .gpu/b/chk tests accept fallback subgroups example large stress > $O/gpu-check.txt 2>&1; echo "rc $?" >> $O/gpu-check.txt
cd $OUT && tar czf check.tgz check && rm -rf check

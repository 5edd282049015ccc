#!/bin/bash
# Call 79 (H200, kind nvidia-h200): the docs sweep of b5ba7c6 (kernels 5d96c6e) with CUB in the same command.
# This is the command the call ran; its files are in docs/data/b5ba7c6-h200/.
cd "$(dirname "$0")/.."
N=h200 F=.gpu/b/m11 bash .gpu/call74.sh

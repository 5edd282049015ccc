#!/bin/bash
exec "$(dirname "$0")/../b/main/sort-test" --workgroup-size 256 --keys-per-thread 6 "$@"

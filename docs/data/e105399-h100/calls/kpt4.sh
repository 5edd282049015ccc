#!/bin/bash
exec "$(dirname "$0")/b/final/sort-test" --keys-per-thread 4 "$@"

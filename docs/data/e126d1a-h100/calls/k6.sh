#!/bin/bash
exec "$(dirname "$0")/head/sort-test" --keys-per-thread 6 "$@"

#!/bin/bash
exec "$(dirname "$0")/../m11/sort-test" "$@" --workgroup-size 128 --keys-per-thread 8

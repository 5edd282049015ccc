#!/bin/bash
exec "$(dirname "$0")/../m11/sort-test" "$@" --keys-per-thread 6

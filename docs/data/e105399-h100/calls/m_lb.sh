#!/bin/bash
exec "$(dirname "$0")/b/final/sort-test" --offset-method look-back "$@"

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs the Debian packages in tools/packages.txt that are missing (apt-get; sudo when not
# root). Extra package names may be passed as arguments. Safe to run again: does nothing when
# everything is there.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
wanted=$(grep -v '^#' "$here/packages.txt" | grep -v '^$')
missing=()
for p in $wanted "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "deps.sh: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo=sudo
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"

#!/usr/bin/env bash
# Installs what flyr-link needs from Debian 12 that a fresh machine lacks (run as root, or with sudo).
# (chromium: only the tests use it, to open report.html in a real browser.) Package names given as
# arguments are installed too: scripts/package-deb.sh and scripts/test-deb.sh name their tools so.
set -euo pipefail
packages=(pkg-config libgeos-dev libproj-dev libgdal-dev gdal-bin libsnappy-dev libzstd-dev zlib1g-dev libdeflate-dev libbrotli-dev liblz4-dev libpq-dev libssl-dev libcurl4-openssl-dev postgresql-15 postgresql-15-postgis-3 chromium openjdk-17-jre-headless "$@")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "installing: ${missing[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

#!/usr/bin/env bash
# Installs what the Microsoft oracle needs, into tools/oracle/.cache (never committed):
# Debian's wine and MinGW-w64, the d3dcompiler_47.dll that the PyQt5-Qt5 5.15.2 wheel
# for Windows redistributes (Qt's ANGLE ships it), and runner.exe built from runner.c.
# One command: bash tools/oracle/setup.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cache="$here/.cache"
mkdir -p "$cache"
need=()
command -v wine >/dev/null || need+=(wine wine64)
command -v x86_64-w64-mingw32-gcc >/dev/null || need+=(gcc-mingw-w64-x86-64)
command -v zstd >/dev/null || need+=(zstd)
if [ ${#need[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}"
fi
if [ ! -f "$cache/d3dcompiler_47.dll" ]; then
  tmp="$(mktemp -d)"
  pip download --no-deps --only-binary=:all: --platform win_amd64 --python-version 3.11 \
    PyQt5-Qt5==5.15.2 -d "$tmp"
  python3 - "$tmp"/PyQt5_Qt5-5.15.2-py3-none-win_amd64.whl "$cache" <<'PY'
import sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
open(sys.argv[2] + "/d3dcompiler_47.dll", "wb").write(z.read("PyQt5/Qt5/bin/d3dcompiler_47.dll"))
PY
  rm -rf "$tmp"
fi
# The data in the repository was made with the DLL whose SHA-256 is
# e994847e01a6f1e4cbdc5a864616ac262f67ee4f14db194984661a8d927ab7f4 (6.3.9600.16384).
sha256sum "$cache/d3dcompiler_47.dll"
x86_64-w64-mingw32-gcc -O2 -o "$cache/runner.exe" "$here/runner.c"
WINEDEBUG=-all wineboot -i >/dev/null 2>&1 || true
echo "oracle ready in $cache"

#!/usr/bin/env bash
# Installs the Debian packages the test suite uses, where they are missing:
#   spirv-tools          `spirv-val` checks the SPIR-V that `dxref translate` writes;
#   mesa-vulkan-drivers  Mesa's lavapipe, a Vulkan device on the CPU, on which the
#   libvulkan1           translated shaders run and are compared with the reference.
# Runs apt-get as root, or through sudo otherwise; does nothing when all are present.
set -euo pipefail
missing=()
for pkg in spirv-tools mesa-vulkan-drivers libvulkan1; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ]; then sudo=(); else sudo=(sudo); fi
echo "installing Debian packages: ${missing[*]}" >&2
"${sudo[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"

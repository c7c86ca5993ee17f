#!/usr/bin/env bash
# Installs the Debian packages the test suite uses, where what they provide is missing:
#   spirv-tools          `spirv-val` checks the SPIR-V that `dxref translate` writes;
#   mesa-vulkan-drivers  Mesa's lavapipe, a Vulkan device on the CPU, on which the
#   libvulkan1           translated shaders run and are compared with the reference;
#   libegl1              EGL (the GLVND loader), Mesa's EGL and Mesa's llvmpipe OpenGL
#   libegl-mesa0         driver: a headless desktop OpenGL context on the CPU, on which
#   libgl1-mesa-dri      the desktop GLSL geometry shaders run.
# What is looked for is the tool, the lavapipe driver's manifest, the Vulkan loader,
# the EGL loader, Mesa's EGL vendor manifest and the software OpenGL driver
# themselves, so a machine that has them some other way installs nothing. apt-get runs
# as root, or through `sudo -n` otherwise (no password prompt). Where there is no
# apt-get, or it fails, the script says so and exits 0: the tests that need these print
# SKIP, or fail under DXREF_REQUIRE_CORPUS=1 (as CI sets it).
set -uo pipefail
missing=()
command -v spirv-val >/dev/null 2>&1 || missing+=(spirv-tools)
compgen -G "/usr/share/vulkan/icd.d/lvp_icd*.json" >/dev/null || missing+=(mesa-vulkan-drivers)
{ ldconfig -p 2>/dev/null || /sbin/ldconfig -p 2>/dev/null; } | grep -q "libvulkan\.so\.1 " || missing+=(libvulkan1)
{ ldconfig -p 2>/dev/null || /sbin/ldconfig -p 2>/dev/null; } | grep -q "libEGL\.so\.1 " || missing+=(libegl1)
compgen -G "/usr/share/glvnd/egl_vendor.d/*mesa*.json" >/dev/null || missing+=(libegl-mesa0)
compgen -G "/usr/lib/*/dri/swrast_dri.so" >/dev/null || compgen -G "/usr/lib/dri/swrast_dri.so" >/dev/null ||
    missing+=(libgl1-mesa-dri)
[ ${#missing[@]} -eq 0 ] && exit 0
if ! command -v apt-get >/dev/null 2>&1; then
    echo "debian-packages: no apt-get here; install ${missing[*]} (or their equivalents) by hand" >&2
    exit 0
fi
if [ "$(id -u)" -eq 0 ]; then sudo=(); else sudo=(sudo -n); fi
echo "debian-packages: installing ${missing[*]}" >&2
if ! { "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"; }; then
    echo "debian-packages: could not install ${missing[*]}; the tests that need them will say SKIP" >&2
fi
exit 0

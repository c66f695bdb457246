#!/usr/bin/env bash
# Installs the Debian packages bspview needs that are missing.
#   scripts/install-deps.sh           build + run dependencies
#   scripts/install-deps.sh --test    also what the test suite needs (Xvfb, Mesa, OpenArena maps,
#                                     Nexuiz maps, Half-Life studio models from assimp-testmodels,
#                                     the desktop/MIME/man/.deb checkers)
# As root it runs apt-get; otherwise it prints the exact apt-get line and exits 1.
set -euo pipefail

packages=(build-essential cmake ninja-build pkg-config git
          libsdl2-dev libglm-dev libstb-dev libtinygltf-dev libimgui-dev libzip-dev liblzma-dev
          libdeflate-dev
          python3-glad
          libgl1-mesa-dri libglx-mesa0 libegl1)
if [[ "${1:-}" == "--test" ]]; then
    packages+=(libgtest-dev libbenchmark-dev xvfb xauth python3 clang libclang-rt-14-dev
               desktop-file-utils libxml2-utils shared-mime-info libglib2.0-bin dpkg-dev
               groff-base
               openarena-data openarena-081-maps openarena-085-data openarena-088-data
               openarena-oacmp1 nexuiz-data assimp-testmodels)
fi

missing=()
for p in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$p")
    fi
done
if [[ ${#missing[@]} -eq 0 ]]; then
    exit 0
fi
cmd="apt-get install -y --no-install-recommends ${missing[*]}"
if [[ $(id -u) -ne 0 ]]; then
    echo "bspview needs these Debian packages. Run as root:" >&2
    echo "  apt-get update && $cmd" >&2
    exit 1
fi
echo "Installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"

#!/bin/bash
# install-deps.sh: everything mpilat needs to build, test and benchmark, from Debian's packages.
# Run as root on Debian 12. Nothing else is downloaded, at install or at configure time.
set -euo pipefail
packages=(cmake make g++ gfortran pkgconf python3
          mpich libmpich-dev            # MPI (the CMake option MPILAT_MPI selects another one)
          nlohmann-json3-dev            # latency.json
          libcmocka-dev                 # C tests
          libbenchmark-dev)             # bench/ (host-side timer and statistics benchmarks)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

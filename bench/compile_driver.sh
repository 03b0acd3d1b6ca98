#!/bin/bash
# Sourced by the bench scripts: compile_driver SRC OUT BUILD_DIR compiles a driver program (-O3)
# against the library layers of a Release build directory (BUILD_DIR/lib/libdpaudit_*.a, the
# torch parts left out: no driver trains), as the tools are linked: with the CUDA runtime where
# the build has CUDA (the canary layer then holds the GPU scorer).
compile_driver() {
  local src=$1 out=$2 lib=$3/lib root cuda=()
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  local layers=()
  for a in "$lib"/libdpaudit_*.a; do
    case $a in *_torch.a) ;; *) layers+=("$a") ;; esac
  done
  local cudart
  cudart=$(sed -n 's/^CUDA_cudart_static_LIBRARY:FILEPATH=//p' "$3/CMakeCache.txt" 2>/dev/null)
  [ -n "$cudart" ] && cuda=("$cudart" -ldl -lrt)
  [ ${#layers[@]} -gt 0 ] || { echo "compile_driver: no libdpaudit_*.a in $lib (build first)" >&2; return 2; }
  g++ -std=c++17 -O3 -DNDEBUG -I"$root/lib" "$src" -Wl,--start-group "${layers[@]}" -Wl,--end-group \
    "${cuda[@]}" -lhwy_contrib -lhwy -lfmt -lz -pthread -o "$out"
}

#!/bin/bash
# Sourced by the bench scripts: compile_driver SRC OUT BUILD_DIR [LINK_ARGS...] compiles a
# driver program (-O3) against the library layers of a Release build directory
# (BUILD_DIR/lib/libdpaudit_*.a, the torch parts left out: no driver trains), as the tools are
# linked, with LINK_ARGS after them (the CUDA runtime for a build with CUDA).
compile_driver() {
  local src=$1 out=$2 lib=$3/lib root
  root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
  local layers=()
  for a in "$lib"/libdpaudit_*.a; do
    case $a in *_torch.a) ;; *) layers+=("$a") ;; esac
  done
  [ ${#layers[@]} -gt 0 ] || { echo "compile_driver: no libdpaudit_*.a in $lib (build first)" >&2; return 2; }
  g++ -std=c++17 -O3 -DNDEBUG -I"$root/lib" "$src" -Wl,--start-group "${layers[@]}" -Wl,--end-group \
    "${@:4}" -lfmt -lz -pthread -o "$out"
}

// Function multi-versioning for the hot loops of random number generation: GCC and
// Clang compile one clone per instruction set listed and pick the best at load time
// (ifunc). Every clone returns the same bits: the build compiles with -ffp-contract=off
// (the top-level CMakeLists.txt), since the avx512f clone has FMA instructions that GCC would
// otherwise fuse a * b + c into.
#pragma once

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define DPAUDIT_MULTIVERSION __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define DPAUDIT_MULTIVERSION
#endif

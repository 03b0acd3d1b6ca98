// The x86 SIMD intrinsics of the library's AVX2 and AVX-512 paths, and how they are
// chosen: normally the compiler's intrinsics, each path compiled for its instruction set
// (DPAUDIT_TARGET) and taken when the CPU has it (DPAUDIT_CPU_SUPPORTS). Built with
// DPAUDIT_SIMD_EMULATED, the same code uses SIMDe's portable implementations of the same
// intrinsics (Debian's libsimde-dev) and every path is taken: the test test_random_emulated
// runs the AVX-512 paths on CPUs without AVX-512 (tests/CMakeLists.txt).
#pragma once

#if defined(DPAUDIT_SIMD_EMULATED)
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/x86/avx512.h>

#include <cstring>
// What SIMDe 0.7.4 lacks: an alias, a gather, and two conversions made of its 256-bit
// halves.
// The aliases take the intrinsics' own (reserved) names on purpose: the paths' code is the same.
#define _mm512_shuffle_i64x2 simde_mm512_shuffle_i64x2  // NOLINT(bugprone-reserved-identifier)
inline simde__m512d emulated_mm512_cvtepi32_pd(simde__m256i a) {
  return simde_mm512_insertf64x4(
      simde_mm512_castpd256_pd512(simde_mm256_cvtepi32_pd(simde_mm256_castsi256_si128(a))),
      simde_mm256_cvtepi32_pd(simde_mm256_extracti128_si256(a, 1)), 1);
}
inline simde__m512i emulated_mm512_cvtepu32_epi64(simde__m256i a) {
  return simde_mm512_inserti64x4(
      simde_mm512_castsi256_si512(simde_mm256_cvtepu32_epi64(simde_mm256_castsi256_si128(a))),
      simde_mm256_cvtepu32_epi64(simde_mm256_extracti128_si256(a, 1)), 1);
}
inline simde__m512d emulated_mm512_i64gather_pd(simde__m512i index, const void* base, int scale) {
  long long at[8];
  double value[8];
  simde_mm512_storeu_si512(at, index);
  for (int l = 0; l < 8; ++l)
    std::memcpy(&value[l], static_cast<const char*>(base) + at[l] * scale, sizeof value[l]);
  return simde_mm512_loadu_pd(value);
}
#define _mm512_i64gather_pd emulated_mm512_i64gather_pd      // NOLINT(bugprone-reserved-identifier)
#define _mm512_cvtepi32_pd emulated_mm512_cvtepi32_pd        // NOLINT(bugprone-reserved-identifier)
#define _mm512_cvtepu32_epi64 emulated_mm512_cvtepu32_epi64  // NOLINT(bugprone-reserved-identifier)
#define DPAUDIT_X86_SIMD 1
#define DPAUDIT_TARGET(isa)
#define DPAUDIT_CPU_SUPPORTS(isa) true
#elif defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define DPAUDIT_X86_SIMD 1
#define DPAUDIT_TARGET(isa) __attribute__((target(isa)))
#define DPAUDIT_CPU_SUPPORTS(isa) __builtin_cpu_supports(isa)
#endif

// GCC 12's AVX-512 intrinsics trip -W(maybe-)uninitialized on their own _mm512_undefined
// operands (GCC bug 105593, fixed in GCC 13): the code that uses them goes between these two.
#if defined(__clang__)
#define DPAUDIT_AVX512_CODE_BEGIN \
  _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wuninitialized\"")
#else
#define DPAUDIT_AVX512_CODE_BEGIN                                                      \
  _Pragma("GCC diagnostic push") _Pragma("GCC diagnostic ignored \"-Wuninitialized\"") \
      _Pragma("GCC diagnostic ignored \"-Wmaybe-uninitialized\"")
#endif
#define DPAUDIT_AVX512_CODE_END _Pragma("GCC diagnostic pop")

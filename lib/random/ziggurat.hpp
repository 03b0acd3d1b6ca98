// Standard normal numbers by the ziggurat method (Marsaglia and Tsang, "The Ziggurat
// Method for Generating Random Variables", J. Stat. Softw. 5(8), 2000), 256 layers,
// in the layout of Doornik ("An Improved Ziggurat Method to Generate Normal Random
// Samples", 2005), with independent bits for the layer and the abscissa.
//
// Normal number w of a Philox stream is a pure function of (key, stream_id, w): its
// first candidate comes from word w alone (8 bits layer, 1 bit sign, 23 bits
// abscissa), which is accepted about 99% of the time; otherwise the wedge/tail test
// and any further candidates take words from the sub-stream of blocks with counter
// (w, attempt) (attempt = 1, 2, ... in the tag byte), so no number depends on another
// and any range of the stream can be computed on its own (chunks, threads).
#pragma once
#include <cstddef>
#include <cstdint>

#include "random/normal_kernel.hpp"
#include "random/philox.hpp"

namespace dpaudit {

// The ziggurat's layer edges x_0 > x_1 = r > ... > x_255 > x_256 = 0 (x_0 = v / f(r)
// is the bottom layer's pseudo-edge) for f(x) = exp(-x^2/2), r = 3.6541528853610088,
// common layer area v = 0.00492867323399.
struct ZigguratTables {
  double edge[257];
  double ratio[256];    // edge[i+1] / edge[i]
  double density[257];  // f(edge[i])
};
const ZigguratTables& ziggurat_tables();

// The same tables for normal_kernel.hpp (its fast path's scaled ones included), as the
// CPU paths below use them.
normal_kernel::Tables normal_kernel_tables();

// Normal numbers [first, first + n) of stream (key, stream_id) into out. `simd` chooses
// the instruction set as for philox_words (AVX-512F, AVX2 or none): every one gives the
// same numbers, bit for bit.
void philox_normals(std::uint64_t key, std::uint64_t stream_id, std::uint64_t first, std::size_t n,
                    double* out, PhiloxSimd simd = PhiloxSimd::best);

}  // namespace dpaudit

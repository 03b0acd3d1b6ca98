// CudaCanarySums on the GPU (cuda_canary_sums.hpp). Compiled with -fmad=false
// (cmake/dpaudit_layer.cmake): every product and sum is rounded on its own, as on the CPU.
#include "canary/cuda/cuda_canary_sums.hpp"

#include <cuda_runtime.h>
#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/error.hpp"
#include "core/parallel.hpp"
#include "random/normal_kernel.hpp"
#include "random/ziggurat.hpp"

namespace dpaudit {

namespace {

namespace nk = normal_kernel;
using u32 = std::uint32_t;
using u64 = std::uint64_t;

constexpr int kThreads = 128;         // a block's threads
constexpr int kChunk = 4 * kThreads;  // entries a block sums at a time: a Philox block a thread
constexpr int kLanes = 8;             // LaneSum's lanes

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw DataError(std::string("CUDA: ") + what + ": " + cudaGetErrorString(status));
}

// An array in GPU memory.
template <class T>
class DeviceArray {
 public:
  DeviceArray() = default;
  explicit DeviceArray(std::size_t n) {
    if (n > 0) check(cudaMalloc(&p_, n * sizeof(T)), "cudaMalloc");
  }
  ~DeviceArray() { cudaFree(p_); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(DeviceArray&& o) noexcept {
    std::swap(p_, o.p_);
    return *this;
  }
  T* get() const { return p_; }
  void upload(const T* host, std::size_t n) {
    if (n > 0) check(cudaMemcpy(p_, host, n * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
  }
  void download(T* host, std::size_t n) const {
    if (n > 0) check(cudaMemcpy(host, p_, n * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy");
  }

 private:
  T* p_ = nullptr;
};

// The tables into the block's shared memory (about 10 KB: a layer's entries are read at
// random, which constant memory would serialise).
__device__ void load_tables(const nk::Tables* global, nk::Tables* shared) {
  const double* from = reinterpret_cast<const double*>(global);
  double* to = reinterpret_cast<double*>(shared);
  for (unsigned i = threadIdx.x; i < sizeof(nk::Tables) / sizeof(double); i += blockDim.x)
    to[i] = from[i];
  __syncthreads();
}

// Number w of the stream, whose word is `word`; false when deferred.
__device__ bool normal_number(const nk::Tables& t, u64 key, u64 stream, u64 w, u32 word,
                              double& x) {
  nk::Stop stop;
  return nk::first_candidate(t, word, x) || nk::finish_candidate(t, key, stream, w, word, x, stop);
}

// Where deferred number `id` = j dim + w (of canary j) stopped.
__device__ nk::Stop stop_of(const nk::Tables& t, u64 key, u64 first_stream, u64 dim, u64 id) {
  const u64 stream = first_stream + id / dim, w = id % dim;
  u32 words[4];
  nk::philox_counter(stream, w / 4, 0, words);
  nk::philox(words, key);
  nk::Stop stop{};
  double x;
  nk::finish_candidate(t, key, stream, w, words[w % 4], x, stop);
  return stop;
}

// Pass 1b: the two uniforms of each deferred number's tail into uniforms[2r], [2r + 1], or
// zeros for a number that stopped at exp (a tail's uniforms are positive).
__global__ void tail_uniforms(const nk::Tables* tables, u64 key, u64 first_stream, u64 dim,
                              const u64* ids, u64 n, double* uniforms) {
  __shared__ nk::Tables t;
  load_tables(tables, &t);
  for (u64 r = u64{blockIdx.x} * blockDim.x + threadIdx.x; r < n;
       r += u64{gridDim.x} * blockDim.x) {
    const nk::Stop stop = stop_of(t, key, first_stream, dim, ids[r]);
    uniforms[2 * r] = uniforms[2 * r + 1] = 0;
    if (stop.tail()) nk::tail_uniforms(stop, uniforms[2 * r], uniforms[2 * r + 1]);
  }
}

// Pass 1c: each deferred number's tail finished from the host's logarithms of its uniforms,
// into values[r]; resolved[r] = 0 for a number that needs the host (it stopped at exp, or
// its tail was rejected and a later candidate needs libm).
__global__ void finish_tails(const nk::Tables* tables, u64 key, u64 first_stream, u64 dim,
                             const u64* ids, u64 n, const double* logs, double* values,
                             unsigned char* resolved) {
  __shared__ nk::Tables t;
  load_tables(tables, &t);
  for (u64 r = u64{blockIdx.x} * blockDim.x + threadIdx.x; r < n;
       r += u64{gridDim.x} * blockDim.x) {
    const nk::Stop stop = stop_of(t, key, first_stream, dim, ids[r]);
    nk::Stop next{};
    double x = 0;
    const bool done =
        stop.tail() && nk::finish_tail(t, key, first_stream + ids[r] / dim, ids[r] % dim, stop,
                                       logs[2 * r], logs[2 * r + 1], x, next);
    values[r] = x;
    resolved[r] = done;
  }
}

// values[at[i]] = value[i].
__global__ void scatter(const u64* at, const double* value, u64 n, double* values) {
  for (u64 i = u64{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += u64{gridDim.x} * blockDim.x)
    values[at[i]] = value[i];
}

// Pass 1, a block a canary: the key j dim + w of every deferred number w of canary j, in no
// order, into found (the first `capacity` of them; *count counts them all).
__global__ void find_deferred(const nk::Tables* tables, u64 key, u64 first_stream, u64 canaries,
                              u64 dim, u64 capacity, u64* found, unsigned long long* count) {
  __shared__ nk::Tables t;
  load_tables(tables, &t);
  const u64 blocks = (dim + 3) / 4;  // Philox blocks a canary
  for (u64 j = blockIdx.x; j < canaries; j += gridDim.x) {
    const u64 stream = first_stream + j;
    for (u64 b = threadIdx.x; b < blocks; b += blockDim.x) {
      u32 words[4];
      nk::philox_counter(stream, b, 0, words);
      nk::philox(words, key);
      for (int q = 0; q < 4; ++q) {
        const u64 w = 4 * b + q;
        double x;
        if (w < dim && !normal_number(t, key, stream, w, words[q], x)) {
          const unsigned long long slot = atomicAdd(count, 1ULL);
          if (slot < capacity) found[slot] = j * dim + w;
        }
      }
    }
  }
}

// A deferred number, by its key, from the host's values (keys sorted); flags `missing` if it
// is not there, which would be a bug of pass 1.
__device__ double deferred_number(const u64* keys, const double* values, u64 n, u64 key,
                                  int* missing) {
  u64 lo = 0, hi = n;
  while (lo < hi) {
    const u64 mid = lo + (hi - lo) / 2;
    if (keys[mid] < key) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  if (lo < n && keys[lo] == key) return values[lo];
  atomicExch(missing, 1);
  return 0;
}

// LaneSum::total's order.
__device__ double lane_total(const double* lane) {
  return ((lane[0] + lane[1]) + (lane[2] + lane[3])) + ((lane[4] + lane[5]) + (lane[6] + lane[7]));
}

// Pass 2: a block a canary. Each chunk of kChunk entries is generated by all threads, a
// Philox block each, into products z_i v_i and squares z_i^2 in shared memory; then the
// block's first eight threads, lane l taking entries i = l mod 8, add them to their lanes in
// index order, as LaneSum does.
__global__ void lane_sums(const nk::Tables* tables, u64 key, u64 first_stream, u64 canaries,
                          u64 dim, const double* v, const u64* deferred_keys,
                          const double* deferred_values, u64 deferred, double* dot, double* norm2,
                          int* missing) {
  __shared__ nk::Tables t;
  __shared__ double products[kChunk], squares[kChunk], lanes[2][kLanes];
  load_tables(tables, &t);
  for (u64 j = blockIdx.x; j < canaries; j += gridDim.x) {
    const u64 stream = first_stream + j;
    double dot_lane = 0, norm_lane = 0;  // thread l < kLanes: lane l
    for (u64 begin = 0; begin < dim; begin += kChunk) {
      const u64 len = dim - begin < kChunk ? dim - begin : u64{kChunk};
      u32 words[4];
      nk::philox_counter(stream, begin / 4 + threadIdx.x, 0, words);
      nk::philox(words, key);
      for (int q = 0; q < 4; ++q) {
        const u64 i = 4 * threadIdx.x + q;
        if (i >= len) break;
        double z;
        if (!normal_number(t, key, stream, begin + i, words[q], z))
          z = deferred_number(deferred_keys, deferred_values, deferred, j * dim + begin + i,
                              missing);
        products[i] = z * v[begin + i];
        squares[i] = z * z;
      }
      __syncthreads();
      if (threadIdx.x < kLanes) {
        for (u64 i = threadIdx.x; i < len; i += kLanes) {
          dot_lane += products[i];
          norm_lane += squares[i];
        }
      }
      __syncthreads();
    }
    if (threadIdx.x < kLanes) {
      lanes[0][threadIdx.x] = dot_lane;
      lanes[1][threadIdx.x] = norm_lane;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
      dot[j] = lane_total(lanes[0]);
      norm2[j] = lane_total(lanes[1]);
    }
    __syncthreads();
  }
}

int grid_for(u64 blocks) {
  return static_cast<int>(std::min<u64>(blocks, 1u << 20));
}

}  // namespace

struct CudaCanarySums::State {
  u64 seed = 0, first_stream = 0;
  std::size_t count = 0, dim = 0;
  DeviceArray<nk::Tables> tables;
  DeviceArray<u64> deferred_keys;  // j dim + w of the deferred numbers, sorted
  DeviceArray<double> deferred_values, v, dot, norm2;
  DeviceArray<int> missing;
  std::size_t deferred = 0;  // numbers stopped for libm
  std::size_t on_host = 0;   // of those, computed by philox_normals
};

// The deferred numbers' values (s.deferred_values): the tails on the GPU from the logarithms
// of their uniforms, computed here by the libm philox_normals uses; the rest here by
// philox_normals itself.
void CudaCanarySums::resolve_deferred(State& s, int threads) {
  const u64 n = s.deferred;
  const int grid = grid_for((n + kThreads - 1) / kThreads);
  DeviceArray<double> logs(2 * n);
  tail_uniforms<<<grid, kThreads>>>(s.tables.get(), s.seed, s.first_stream, s.dim,
                                    s.deferred_keys.get(), n, logs.get());
  check(cudaGetLastError(), "tail_uniforms");
  std::vector<double> host(2 * n);
  logs.download(host.data(), 2 * n);
  parallel_blocks(2 * n, threads, [&](std::size_t lo, std::size_t hi, std::size_t) {
    for (std::size_t i = lo; i < hi; ++i)
      if (host[i] > 0) host[i] = std::log(host[i]);
  });
  logs.upload(host.data(), 2 * n);
  DeviceArray<unsigned char> resolved(n);
  finish_tails<<<grid, kThreads>>>(s.tables.get(), s.seed, s.first_stream, s.dim,
                                   s.deferred_keys.get(), n, logs.get(), s.deferred_values.get(),
                                   resolved.get());
  check(cudaGetLastError(), "finish_tails");

  std::vector<unsigned char> done(n);
  resolved.download(done.data(), n);
  std::vector<u64> keys(n), at;
  s.deferred_keys.download(keys.data(), n);
  for (u64 r = 0; r < n; ++r)
    if (!done[r]) at.push_back(r);
  std::vector<double> value(at.size());
  parallel_blocks(at.size(), threads, [&](std::size_t lo, std::size_t hi, std::size_t) {
    for (std::size_t i = lo; i < hi; ++i) {
      const u64 id = keys[at[i]];
      philox_normals(s.seed, s.first_stream + id / s.dim, id % s.dim, 1, &value[i]);
    }
  });
  s.on_host = at.size();
  if (at.empty()) return;
  DeviceArray<u64> at_device(at.size());
  DeviceArray<double> value_device(at.size());
  at_device.upload(at.data(), at.size());
  value_device.upload(value.data(), at.size());
  scatter<<<grid_for((at.size() + kThreads - 1) / kThreads), kThreads>>>(
      at_device.get(), value_device.get(), at.size(), s.deferred_values.get());
  check(cudaGetLastError(), "scatter");
}

bool CudaCanarySums::built() {
  return true;
}

CudaCanarySums::CudaCanarySums(u64 seed, u64 first_stream, std::size_t count, std::size_t dim,
                               int threads)
    : state_(std::make_unique<State>()) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
    throw DataError("--device cuda: no CUDA device can be used here");
  State& s = *state_;
  s.seed = seed;
  s.first_stream = first_stream;
  s.count = count;
  s.dim = dim;
  s.tables = DeviceArray<nk::Tables>(1);
  const nk::Tables host_tables = normal_kernel_tables();
  s.tables.upload(&host_tables, 1);

  // Pass 1, with room for twice the expected count (2.6e-4 a number); again with room for
  // all if that was too little. Then the keys sorted on the GPU.
  DeviceArray<unsigned long long> found_count(1);
  u64 capacity = static_cast<u64>(5.2e-4 * double(count) * double(dim)) + 4096;
  u64 n = 0;
  DeviceArray<u64> found;
  for (;;) {
    found = DeviceArray<u64>(capacity);
    check(cudaMemset(found_count.get(), 0, sizeof(unsigned long long)), "cudaMemset");
    find_deferred<<<grid_for(count), kThreads>>>(s.tables.get(), seed, first_stream, count, dim,
                                                 capacity, found.get(), found_count.get());
    check(cudaGetLastError(), "find_deferred");
    unsigned long long all = 0;
    found_count.download(&all, 1);
    n = all;
    if (n <= capacity) break;
    capacity = n;
  }
  s.deferred = n;
  s.deferred_keys = DeviceArray<u64>(std::max<u64>(n, 1));
  if (n > 0) {
    int end_bit = 1;  // the keys are below count x dim
    while (end_bit < 64 && (u64{1} << end_bit) < u64{count} * dim) ++end_bit;
    std::size_t scratch_bytes = 0;
    check(cub::DeviceRadixSort::SortKeys(nullptr, scratch_bytes, found.get(), s.deferred_keys.get(),
                                         n, 0, end_bit),
          "DeviceRadixSort");
    DeviceArray<unsigned char> scratch(scratch_bytes);
    check(cub::DeviceRadixSort::SortKeys(scratch.get(), scratch_bytes, found.get(),
                                         s.deferred_keys.get(), n, 0, end_bit),
          "DeviceRadixSort");
  }

  s.deferred_values = DeviceArray<double>(std::max<u64>(n, 1));
  if (n > 0) resolve_deferred(s, threads);
  s.v = DeviceArray<double>(dim);
  s.dot = DeviceArray<double>(count);
  s.norm2 = DeviceArray<double>(count);
  s.missing = DeviceArray<int>(1);
}

CudaCanarySums::~CudaCanarySums() = default;

std::size_t CudaCanarySums::deferred() const {
  return state_->deferred;
}

std::size_t CudaCanarySums::on_host() const {
  return state_->on_host;
}

void CudaCanarySums::sums(const double* v, double* dot, double* norm2) const {
  State& s = *state_;
  s.v.upload(v, s.dim);
  check(cudaMemset(s.missing.get(), 0, sizeof(int)), "cudaMemset");
  lane_sums<<<grid_for(s.count), kThreads>>>(
      s.tables.get(), s.seed, s.first_stream, s.count, s.dim, s.v.get(), s.deferred_keys.get(),
      s.deferred_values.get(), s.deferred, s.dot.get(), s.norm2.get(), s.missing.get());
  check(cudaGetLastError(), "lane_sums");
  int missing = 0;
  s.missing.download(&missing, 1);
  if (missing)
    throw DataError("CUDA: a deferred normal number was not found (a bug: please report it)");
  s.dot.download(dot, s.count);
  s.norm2.download(norm2, s.count);
}

}  // namespace dpaudit

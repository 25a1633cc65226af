/*
 * The bandwidth reference of bench/explore-scaling.ts: compiled at bench run time with
 * `gcc -O3 -march=native` (bench/lib/c-reference.ts) and run beside the explore steps.
 *
 * Usage: sequential-read <chunks> <dimensions>
 *
 * Allocates chunks × dimensions float32 values (the size of the vectors an explore step reads),
 * fills them, then for every line read on stdin runs one plain sequential sum of the whole array and
 * one float32 dot pass (each row of `dimensions` values against a direction, one score per row,
 * the computation of the engine's similarity pass) and one sign-bit pass (the Hamming distance of a
 * code of one bit per dimension, padded to 16 bytes, to each row's code, and their histogram: the
 * engine's pass per direction on large trees, `exploreScan: 'sign-bits'`) and prints
 * "<sum ms> <dot ms> <sign ms> <sink> <sum cpu ms> <dot cpu ms> <sign cpu ms>" (wall times, then
 * this thread's CPU times of the same passes). The float loops
 * loops use GCC vector extensions with four independent accumulators, so the compiler emits SIMD
 * loads without -ffast-math: what they measure is how fast this core reads memory, not how well
 * the compiler reassociates a float reduction. Exits at the end of stdin.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>
#include <time.h>

typedef float v8 __attribute__((vector_size(32)));

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* CPU time of this thread: what other processes on a loaded machine do not inflate (only preempt). */
static double cpu_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static float horizontal(v8 s) {
  float total = 0;
  for (int k = 0; k < 8; k++) total += s[k];
  return total;
}

/* The sum of every value, in order. */
static float sum_pass(const float *restrict values, size_t n) {
  v8 a = {0}, b = {0}, c = {0}, d = {0};
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    v8 x0, x1, x2, x3;
    memcpy(&x0, values + i, 32);
    memcpy(&x1, values + i + 8, 32);
    memcpy(&x2, values + i + 16, 32);
    memcpy(&x3, values + i + 24, 32);
    a += x0;
    b += x1;
    c += x2;
    d += x3;
  }
  float total = horizontal(a + b + c + d);
  for (; i < n; i++) total += values[i];
  return total;
}

/* out[row] = dot(values[row * dims ...], direction), row-major. */
static void dot_pass(const float *restrict values, const float *restrict direction, float *restrict out,
                     size_t rows, size_t dims) {
  for (size_t row = 0; row < rows; row++) {
    const float *v = values + row * dims;
    v8 a = {0}, b = {0}, c = {0}, d = {0};
    size_t j = 0;
    for (; j + 32 <= dims; j += 32) {
      v8 x0, x1, x2, x3, w0, w1, w2, w3;
      memcpy(&x0, v + j, 32);
      memcpy(&x1, v + j + 8, 32);
      memcpy(&x2, v + j + 16, 32);
      memcpy(&x3, v + j + 24, 32);
      memcpy(&w0, direction + j, 32);
      memcpy(&w1, direction + j + 8, 32);
      memcpy(&w2, direction + j + 16, 32);
      memcpy(&w3, direction + j + 24, 32);
      a += x0 * w0;
      b += x1 * w1;
      c += x2 * w2;
      d += x3 * w3;
    }
    float total = horizontal(a + b + c + d);
    for (; j < dims; j++) total += v[j] * direction[j];
    out[row] = total;
  }
}

/* out[row] = popcount(codes[row] ^ query) over `words` 64-bit words, and histogram[out[row]]++. */
static void sign_pass(const unsigned long long *restrict codes, const unsigned long long *restrict query,
                      unsigned short *restrict out, int *restrict histogram, size_t rows, size_t words) {
  for (size_t row = 0; row < rows; row++) {
    const unsigned long long *c = codes + row * words;
    int d = 0;
    for (size_t k = 0; k < words; k++) d += __builtin_popcountll(c[k] ^ query[k]);
    out[row] = (unsigned short)d;
    histogram[d]++;
  }
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s <chunks> <dimensions>\n", argv[0]);
    return 2;
  }
  size_t rows = strtoull(argv[1], NULL, 10);
  size_t dims = strtoull(argv[2], NULL, 10);
  size_t n = rows * dims;
  if (rows == 0 || dims == 0) {
    fprintf(stderr, "sequential-read: chunks and dimensions must be positive integers\n");
    return 2;
  }
  size_t bytes = (n * sizeof(float) + 63) & ~(size_t)63;
  float *values = aligned_alloc(64, bytes);
  float *direction = aligned_alloc(64, (dims * sizeof(float) + 63) & ~(size_t)63);
  float *out = aligned_alloc(64, (rows * sizeof(float) + 63) & ~(size_t)63);
  size_t words = (dims + 127) / 128 * 2;
  unsigned long long *codes = aligned_alloc(64, (rows * words * 8 + 63) & ~(size_t)63);
  unsigned long long *query = aligned_alloc(64, (words * 8 + 63) & ~(size_t)63);
  unsigned short *distances = aligned_alloc(64, (rows * 2 + 63) & ~(size_t)63);
  int *histogram = calloc(words * 64 + 1, sizeof(int));
  if (!values || !direction || !out || !codes || !query || !distances || !histogram) {
    fprintf(stderr, "sequential-read: cannot allocate %zu bytes\n", bytes);
    return 1;
  }
  /* The same values as the JavaScript reference, and every page touched before the first pass. */
  for (size_t i = 0; i < n; i++) values[i] = (float)(i & 1023) / 1024.0f - 0.5f;
  for (size_t j = 0; j < dims; j++) direction[j] = sinf((float)(j + 1));
  unsigned long long state = 0x9e3779b97f4a7c15ULL;
  for (size_t i = 0; i < rows * words; i++) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    codes[i] = state;
  }
  for (size_t k = 0; k < words; k++) query[k] = codes[k] ^ 0x5555555555555555ULL;
  printf("ready\n");
  fflush(stdout);
  char line[64];
  while (fgets(line, sizeof line, stdin)) {
    double begin = now_ms(), begin_cpu = cpu_ms();
    float total = sum_pass(values, n);
    double middle = now_ms(), middle_cpu = cpu_ms();
    dot_pass(values, direction, out, rows, dims);
    double end = now_ms(), end_cpu = cpu_ms();
    memset(histogram, 0, (words * 64 + 1) * sizeof(int));
    sign_pass(codes, query, distances, histogram, rows, words);
    double signed_end = now_ms(), signed_end_cpu = cpu_ms();
    printf("%.6f %.6f %.6f %.6g %.6f %.6f %.6f\n", middle - begin, end - middle, signed_end - end,
           (double)total + (double)out[rows / 2] + (double)distances[rows / 2] + (double)histogram[words * 32],
           middle_cpu - begin_cpu, end_cpu - middle_cpu, signed_end_cpu - end_cpu);
    fflush(stdout);
  }
  free(values);
  free(direction);
  free(out);
  free(codes);
  free(query);
  free(distances);
  free(histogram);
  return 0;
}

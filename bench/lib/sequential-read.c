/*
 * The bandwidth reference of bench/explore-scaling.ts: compiled at bench run time with
 * `gcc -O3 -march=native` (bench/lib/c-reference.ts) and run beside the explore steps.
 *
 * Usage: sequential-read <chunks> <dimensions>
 *
 * Allocates chunks × dimensions float32 values (the size of the vectors an explore step reads),
 * fills them, then for every line read on stdin runs one plain sequential sum of the whole array and
 * one float32 dot pass (each row of `dimensions` values against a direction, one score per row,
 * the computation of the engine's similarity pass) and prints "<sum ms> <dot ms> <sink>". Both
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
  if (!values || !direction || !out) {
    fprintf(stderr, "sequential-read: cannot allocate %zu bytes\n", bytes);
    return 1;
  }
  /* The same values as the JavaScript reference, and every page touched before the first pass. */
  for (size_t i = 0; i < n; i++) values[i] = (float)(i & 1023) / 1024.0f - 0.5f;
  for (size_t j = 0; j < dims; j++) direction[j] = sinf((float)(j + 1));
  printf("ready\n");
  fflush(stdout);
  char line[64];
  while (fgets(line, sizeof line, stdin)) {
    double begin = now_ms();
    float total = sum_pass(values, n);
    double middle = now_ms();
    dot_pass(values, direction, out, rows, dims);
    double end = now_ms();
    printf("%.6f %.6f %.6g\n", middle - begin, end - middle, (double)total + (double)out[rows / 2]);
    fflush(stdout);
  }
  free(values);
  free(direction);
  free(out);
  return 0;
}

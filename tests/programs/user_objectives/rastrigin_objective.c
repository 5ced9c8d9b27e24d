/* Rastrigin's function over 8 genes in [-5.12, 5.12] as a user's library for
 * --objective library:PATH (the C ABI of hetscale/objective.h), the same sum
 * in the same order as hetscale's synthetic objective. */
#include <math.h>

#include "hetscale/objective.h"

size_t hetscale_domain(double* lower, double* upper, size_t capacity) {
  const size_t genes = 8;
  for (size_t i = 0; i < genes && i < capacity; ++i) {
    lower[i] = -5.12;
    upper[i] = 5.12;
  }
  return genes;
}

double hetscale_fitness(const double* genes, size_t n) {
  double sum = 10.0 * (double)n;
  for (size_t i = 0; i < n; ++i) sum += genes[i] * genes[i] - 10.0 * cos(2.0 * 3.14159265358979323846 * genes[i]);
  return sum;
}

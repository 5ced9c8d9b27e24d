/* A library that lacks hetscale_domain: --objective library:PATH must refuse it. */
#include <stddef.h>

double hetscale_fitness(const double* genes, size_t n) { return n > 0 ? genes[0] : 0.0; }

/* hetscale/objective.h: the C ABI of your own objective for the GA farm,
 * `hetscale farm --objective library:PATH` (docs/tasks.md). Build a shared
 * library that defines both functions:
 *
 *   cc -shared -fPIC -o libmine.so mine.c
 *   mpiexec -np 5 hetscale farm --objective library:./libmine.so ...
 *
 * The GA minimises the fitness. A client calls the functions from one thread
 * at a time; each genome's fitness must depend on the genome only (the run's
 * result then does not depend on which client evaluated what). */
#ifndef HETSCALE_OBJECTIVE_H
#define HETSCALE_OBJECTIVE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The domain: returns the number of genes n (1 to 1000000) and, when
 * capacity >= n, writes each gene's bounds, lower[i] < upper[i], both finite.
 * hetscale calls it first with capacity 0 (lower and upper then NULL). */
size_t hetscale_domain(double* lower, double* upper, size_t capacity);

/* The fitness of the n genes, to minimise. NaN marks a failed evaluation
 * (reported with the genome; the GA ranks it last). */
double hetscale_fitness(const double* genes, size_t n);

#ifdef __cplusplus
}
#endif

#endif /* HETSCALE_OBJECTIVE_H */

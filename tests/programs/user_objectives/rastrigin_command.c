/* Rastrigin's function as a user's program for --objective command:PROGRAM:
 * the genes on standard input, one a line; the fitness on the last line of
 * standard output. The same sum, in the same order, as hetscale's synthetic
 * objective (src/programs/objectives.cpp), so the GA's run is the same. With
 * an argument, prints that word instead (a program that gives no number). */
#include <math.h>
#include <stdio.h>

int main(int argc, char** argv) {
  double genes[1000];
  size_t n = 0;
  while (n < 1000 && scanf("%lf", &genes[n]) == 1) ++n;
  printf("evaluated %zu genes\n", n); /* not the last line: only that one counts */
  if (argc > 1) {
    printf("%s\n", argv[1]);
    return 0;
  }
  double sum = 10.0 * (double)n;
  for (size_t i = 0; i < n; ++i) sum += genes[i] * genes[i] - 10.0 * cos(2.0 * 3.14159265358979323846 * genes[i]);
  printf("%.17g\n", sum);
  return 0;
}

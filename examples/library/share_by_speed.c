/* A user's MPI program (in C) that shares its rows by a functional
 * performance model at run time (hetscale/share_by_speed.h): each rank
 * learns its block and sums its rows; rank 0 checks that the blocks cover
 * every row once.
 *
 *   mpiexec -np 3 ./share_by_speed model.json 1500
 */
#include <stdio.h>
#include <stdlib.h>

#include <mpi.h>

#include "hetscale/share_by_speed.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (argc != 3) {
    if (rank == 0) fprintf(stderr, "share_by_speed: usage: share_by_speed MODEL ROWS\n");
    MPI_Finalize();
    return 2;
  }
  hetscale_share mine;
  char error[256];
  if (hetscale_share_by_speed(MPI_COMM_WORLD, argv[1], atol(argv[2]), "numerical", &mine, error, sizeof error)) {
    if (rank == 0) fprintf(stderr, "share_by_speed: %s\n", error);
    MPI_Finalize();
    return 2;
  }
  /* The rows' own work: here, the sum of their numbers. */
  long long sum = 0;
  for (long row = mine.first; row < mine.first + mine.units; ++row) sum += row;
  long long total = 0, rows = 0, mine_rows = mine.units;
  MPI_Reduce(&sum, &total, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&mine_rows, &rows, 1, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  long* shares = rank == 0 ? malloc(sizeof(long) * (size_t)ranks) : NULL;
  MPI_Gather(&mine.units, 1, MPI_LONG, shares, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    const long n = atol(argv[2]);
    printf("share_by_speed: %ld rows on %d ranks:", n, ranks);
    for (int r = 0; r < ranks; ++r) printf(" %ld", shares[r]);
    printf("; predicted makespan %.6g s; every row once: %s\n", mine.makespan,
           rows == n && total == (long long)n * (n - 1) / 2 ? "yes" : "NO");
    free(shares);
  }
  MPI_Finalize();
  return 0;
}

/* MPI patterns whose trace must replay in SimGrid without a deadlock or a
 * truncated message (tests/measure/check_trace.py): receives from any
 * source completed by MPI_Waitany and by an MPI_Testsome polling loop,
 * MPI_Sendrecv, persistent requests started together, a collective on a
 * communicator of half the ranks, a rooted collective on a communicator
 * whose ranks are in another order, and a v-collective. Run on 4 ranks. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

enum { rounds = 20, count = 1000 };

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  double* out = calloc(count, sizeof(double));
  double* in = calloc((size_t)count * ranks, sizeof(double));
  const int right = (rank + 1) % ranks, left = (rank + ranks - 1) % ranks;

  MPI_Comm half, reversed;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  MPI_Comm_split(MPI_COMM_WORLD, 0, ranks - rank, &reversed);
  MPI_Request persistent[2];
  MPI_Send_init(out, count, MPI_DOUBLE, right, 3, MPI_COMM_WORLD, &persistent[0]);
  MPI_Recv_init(in, count, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &persistent[1]);

  long checksum = 0;
  for (int round = 0; round < rounds; ++round) {
    /* Every rank sends to rank 0, which takes them in the order they come. */
    if (rank == 0) {
      MPI_Request requests[64];
      for (int r = 1; r < ranks; ++r)
        MPI_Irecv(in + (size_t)r * count, count, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD,
                  &requests[r - 1]);
      for (int r = 1; r < ranks; ++r) {
        int index = 0;
        MPI_Status status;
        MPI_Waitany(ranks - 1, requests, &index, &status);
        checksum += status.MPI_SOURCE;
      }
    } else {
      MPI_Send(out, count, MPI_DOUBLE, 0, 10 + rank, MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD); /* any tag above: no message of the next step may come first */
    /* The same gathered by polling. */
    if (rank == 0) {
      MPI_Request requests[64];
      int indices[64], done = 0;
      for (int r = 1; r < ranks; ++r)
        MPI_Irecv(in + (size_t)r * count, count, MPI_DOUBLE, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &requests[r - 1]);
      while (done < ranks - 1) {
        int completed = 0;
        MPI_Testsome(ranks - 1, requests, &completed, indices, MPI_STATUSES_IGNORE);
        if (completed != MPI_UNDEFINED) done += completed;
      }
    } else {
      MPI_Send(out, count, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD);
    }
    MPI_Sendrecv(out, count, MPI_DOUBLE, right, 5, in, count, MPI_DOUBLE, left, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Startall(2, persistent);
    MPI_Waitall(2, persistent, MPI_STATUSES_IGNORE);
    double mine = rank, sum = 0.0;
    MPI_Allreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, half);
    MPI_Bcast(out, count, MPI_DOUBLE, 0, reversed); /* world rank ranks - 1 */
    int counts[64], displacements[64];
    for (int r = 0; r < ranks; ++r) {
      counts[r] = r + 1;
      displacements[r] = r * count;
    }
    MPI_Gatherv(out, rank + 1, MPI_DOUBLE, in, counts, displacements, MPI_DOUBLE, 1, MPI_COMM_WORLD);
  }
  MPI_Request_free(&persistent[0]);
  MPI_Request_free(&persistent[1]);
  MPI_Comm_free(&half);
  MPI_Comm_free(&reversed);
  if (rank == 0) printf("trace_patterns: %d rounds on %d ranks, senders summed %ld\n", rounds, ranks, checksum);
  free(out);
  free(in);
  MPI_Finalize();
  return 0;
}

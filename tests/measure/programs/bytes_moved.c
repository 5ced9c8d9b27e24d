/* Every kind of data-moving call whose bytes hetscale measure counts by a
 * rule of its own (docs/measure.md, "Bytes"), on 2 ranks, for
 * tests/measure/check_many_calls.py: all-to-all, all-gather, gather and
 * scatter (rooted at rank 0), their v and w forms, persistent requests
 * started one by one (MPI_Start), and the one-sided calls that fetch
 * (MPI_Get_accumulate, MPI_Fetch_and_op, MPI_Compare_and_swap). Ints of 4
 * bytes throughout. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (ranks != 2) MPI_Abort(MPI_COMM_WORLD, 1);
  int out[2] = {rank, rank}, in[2] = {0, 0};
  int counts[2] = {1, 1}, displacements[2] = {0, 1};
  MPI_Datatype types[2] = {MPI_INT, MPI_INT};
  int wdisplacements[2] = {0, 4};
  MPI_Alltoall(out, 1, MPI_INT, in, 1, MPI_INT, MPI_COMM_WORLD);
  MPI_Allgather(out, 1, MPI_INT, in, 1, MPI_INT, MPI_COMM_WORLD);
  MPI_Gather(out, 1, MPI_INT, in, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Scatter(out, 1, MPI_INT, in, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Gatherv(out, 1, MPI_INT, in, counts, displacements, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Alltoallw(out, counts, wdisplacements, types, in, counts, wdisplacements, types, MPI_COMM_WORLD);

  const int partner = 1 - rank;
  int sent[2] = {rank, rank}, received[2];
  MPI_Request requests[2];
  MPI_Send_init(sent, 2, MPI_INT, partner, 5, MPI_COMM_WORLD, &requests[0]);
  MPI_Recv_init(received, 2, MPI_INT, partner, 5, MPI_COMM_WORLD, &requests[1]);
  for (int round = 0; round < 2; ++round) {
    MPI_Start(&requests[1]);
    MPI_Start(&requests[0]);
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
  }
  MPI_Request_free(&requests[0]);
  MPI_Request_free(&requests[1]);

  int window_data[4] = {0, 0, 0, 0};
  MPI_Win window;
  MPI_Win_create(window_data, sizeof window_data, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &window);
  MPI_Win_fence(0, window);
  int origin[2] = {1, 1}, result[2] = {0, 0}, one = 1, fetched = 0, compare = 0;
  MPI_Get_accumulate(origin, 2, MPI_INT, result, 2, MPI_INT, partner, 0, 2, MPI_INT, MPI_SUM, window);
  MPI_Win_fence(0, window);
  MPI_Fetch_and_op(&one, &fetched, MPI_INT, partner, 2, MPI_SUM, window);
  MPI_Win_fence(0, window);
  MPI_Compare_and_swap(&one, &compare, &fetched, MPI_INT, partner, 3, window);
  MPI_Win_fence(0, window);
  MPI_Win_free(&window);
  printf("bytes_moved: rank %d done\n", rank);
  MPI_Finalize();
  return 0;
}

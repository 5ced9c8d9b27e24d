/* A C MPI program that calls MPI functions of every kind the library wraps
 * beyond the basics, for `hetscale measure`: a neighbourhood collective on a
 * ring topology, a non-blocking scan, persistent requests, a matched probe
 * and receive, a communicator made with info, and v collectives (one int to
 * each peer, and to each of the ring's two neighbours), and MPI-IO (1,000
 * ints a rank written and read back). On 2 ranks each call is made once a
 * rank (the persistent pair twice). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  MPI_Comm ring;
  const int dims[1] = {size}, periods[1] = {1};
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
  int mine = rank, theirs[2] = {0, 0};
  MPI_Neighbor_allgather(&mine, 1, MPI_INT, theirs, 1, MPI_INT, ring);

  /* v collectives, one int to each peer and to each of the ring's 2 neighbours */
  int counts[2] = {1, 1}, displacements[2] = {0, 1}, outgoing[2] = {rank, rank}, incoming[2] = {0, 0};
  MPI_Alltoallv(outgoing, counts, displacements, MPI_INT, incoming, counts, displacements, MPI_INT, MPI_COMM_WORLD);
  MPI_Neighbor_alltoallv(outgoing, counts, displacements, MPI_INT, incoming, counts, displacements, MPI_INT, ring);
  int share = 0;
  MPI_Reduce_scatter(outgoing, &share, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);

  int prefix = 0;
  MPI_Request scan;
  MPI_Iscan(&mine, &prefix, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &scan);
  MPI_Wait(&scan, MPI_STATUS_IGNORE);

  const int next = (rank + 1) % size, previous = (rank + size - 1) % size;
  int sent = rank, received = -1;
  MPI_Request persistent[2];
  MPI_Send_init(&sent, 1, MPI_INT, next, 7, MPI_COMM_WORLD, &persistent[0]);
  MPI_Recv_init(&received, 1, MPI_INT, previous, 7, MPI_COMM_WORLD, &persistent[1]);
  for (int round = 0; round < 2; ++round) {
    MPI_Startall(2, persistent);
    MPI_Waitall(2, persistent, MPI_STATUSES_IGNORE);
  }
  MPI_Request_free(&persistent[0]);
  MPI_Request_free(&persistent[1]);

  MPI_Send(&sent, 1, MPI_INT, next, 8, MPI_COMM_WORLD);
  MPI_Message message;
  MPI_Mprobe(previous, 8, MPI_COMM_WORLD, &message, MPI_STATUS_IGNORE);
  MPI_Mrecv(&received, 1, MPI_INT, &message, MPI_STATUS_IGNORE);

  /* MPI-IO: 1,000 ints a rank written and read back, collectively, in a file
   * of the current folder that is deleted on close */
  int block[1000], back[1000];
  for (int i = 0; i < 1000; ++i) block[i] = rank * 1000 + i;
  MPI_File file;
  MPI_File_open(MPI_COMM_WORLD, "many_calls.io", MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                MPI_INFO_NULL, &file);
  const MPI_Offset at = (MPI_Offset)rank * (MPI_Offset)sizeof block;
  MPI_File_write_at_all(file, at, block, 1000, MPI_INT, MPI_STATUS_IGNORE);
  MPI_File_sync(file);
  MPI_File_read_at_all(file, at, back, 1000, MPI_INT, MPI_STATUS_IGNORE);
  MPI_File_close(&file);
  if (back[999] != block[999]) MPI_Abort(MPI_COMM_WORLD, 5);

  MPI_Comm copy;
  MPI_Comm_dup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &copy);
  MPI_Comm_free(&copy);
  MPI_Comm_free(&ring);
  printf("many_calls: rank %d of %d: neighbours %d %d, prefix %d, received %d\n", rank, size, theirs[0], theirs[1],
         prefix, received);
  MPI_Finalize();
  return 0;
}

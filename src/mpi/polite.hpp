#pragma once
// MPI operations that wait without holding a core. Open MPI's blocking calls
// spin while they wait; with more ranks than cores (emulated heterogeneous
// nodes on one machine) a spinning rank takes the core from a computing one.
// These start the nonblocking form and poll it with MPI_Test, sleeping
// between polls (from 1 us, doubling up to `max_pause`). Every rank of the
// run must use the same forms of a collective (MPI_Ibcast matches only
// MPI_Ibcast). In the simulator (HETSCALE_SMPI, hetscale-smpi) they are the
// plain blocking calls: a simulated process that waits holds no core.
// Private to hetscale_mpi.
#include <mpi.h>

#include <chrono>
#include <span>

namespace hetscale::mpi::polite {

inline constexpr std::chrono::microseconds default_max_pause{50};

void wait(MPI_Request& request, MPI_Status* status = MPI_STATUS_IGNORE,
          std::chrono::microseconds max_pause = default_max_pause);
void wait_all(std::span<MPI_Request> requests, std::chrono::microseconds max_pause = default_max_pause);

void broadcast(void* buffer, int count, MPI_Datatype type, int root, MPI_Comm comm);
void barrier(MPI_Comm comm);
void send(const void* buffer, int count, MPI_Datatype type, int destination, int tag, MPI_Comm comm);
void receive(void* buffer, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
             MPI_Status* status = MPI_STATUS_IGNORE);
// MPI_Ialltoall, MPI_Iscatter, MPI_Igather of `count` elements per rank.
void all_to_all(const void* send_buffer, void* receive_buffer, int count, MPI_Datatype type, MPI_Comm comm);
// MPI_Ialltoallv (counts and offsets in elements of `type`, per rank).
void all_to_all_v(const void* send_buffer, const int* send_counts, const int* send_offsets, void* receive_buffer,
                  const int* receive_counts, const int* receive_offsets, MPI_Datatype type, MPI_Comm comm);
void scatter(const void* send_buffer, void* receive_buffer, int count, MPI_Datatype type, int root, MPI_Comm comm);
void gather(const void* send_buffer, void* receive_buffer, int count, MPI_Datatype type, int root, MPI_Comm comm);
void reduce_sum(const void* values, void* sums, int count, MPI_Datatype type, int root, MPI_Comm comm);
// `count` doubles from every rank into `all` (count x ranks) on `root`.
void gather(const double* values, int count, double* all, int root, MPI_Comm comm);

}  // namespace hetscale::mpi::polite

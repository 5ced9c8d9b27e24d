#include "mpi/polite.hpp"

#include <time.h>

#include <algorithm>

namespace hetscale::mpi::polite {

#ifdef HETSCALE_SMPI
// In the simulator (hetscale-smpi) nothing spins on a real core: a rank that
// waits is a simulated process that yields. The plain blocking calls are
// used, so the simulated collectives are SMPI's blocking algorithms, and no
// simulated time goes into polling.

void wait(MPI_Request& request, MPI_Status* status, std::chrono::microseconds) { MPI_Wait(&request, status); }

void wait_all(std::span<MPI_Request> requests, std::chrono::microseconds) {
  MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
}

void broadcast(void* buffer, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  MPI_Bcast(buffer, count, type, root, comm);
}

void barrier(MPI_Comm comm) { MPI_Barrier(comm); }

void send(const void* buffer, int count, MPI_Datatype type, int destination, int tag, MPI_Comm comm) {
  MPI_Send(buffer, count, type, destination, tag, comm);
}

void receive(void* buffer, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status* status) {
  MPI_Recv(buffer, count, type, source, tag, comm, status);
}

void all_to_all(const void* send_buffer, void* receive_buffer, int count, MPI_Datatype type, MPI_Comm comm) {
  MPI_Alltoall(send_buffer, count, type, receive_buffer, count, type, comm);
}

void all_to_all_v(const void* send_buffer, const int* send_counts, const int* send_offsets, void* receive_buffer,
                  const int* receive_counts, const int* receive_offsets, MPI_Datatype type, MPI_Comm comm) {
  MPI_Alltoallv(send_buffer, send_counts, send_offsets, type, receive_buffer, receive_counts, receive_offsets, type,
                comm);
}

void scatter(const void* send_buffer, void* receive_buffer, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  MPI_Scatter(send_buffer, count, type, receive_buffer, count, type, root, comm);
}

void gather(const void* send_buffer, void* receive_buffer, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  MPI_Gather(send_buffer, count, type, receive_buffer, count, type, root, comm);
}

void reduce_sum(const void* values, void* sums, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  MPI_Reduce(values, sums, count, type, MPI_SUM, root, comm);
}

#else

namespace {
// Polls before the first sleep: a partner that is already there answers in a
// few microseconds.
constexpr int eager_polls = 16;
}  // namespace

void wait(MPI_Request& request, MPI_Status* status, std::chrono::microseconds max_pause) {
  int done = 0;
  long pause_ns = 1000;
  const long max_pause_ns = static_cast<long>(std::chrono::nanoseconds(max_pause).count());
  for (int poll = 0;; ++poll) {
    MPI_Test(&request, &done, status);
    if (done) return;
    if (poll < eager_polls) continue;
    const timespec pause{0, pause_ns};
    nanosleep(&pause, nullptr);
    pause_ns = std::min(pause_ns * 2, max_pause_ns);
  }
}

void wait_all(std::span<MPI_Request> requests, std::chrono::microseconds max_pause) {
  for (auto& request : requests) wait(request, MPI_STATUS_IGNORE, max_pause);
}

void broadcast(void* buffer, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  MPI_Request request;
  MPI_Ibcast(buffer, count, type, root, comm, &request);
  wait(request);
}

void barrier(MPI_Comm comm) {
  MPI_Request request;
  MPI_Ibarrier(comm, &request);
  wait(request);
}

void send(const void* buffer, int count, MPI_Datatype type, int destination, int tag, MPI_Comm comm) {
  MPI_Request request;
  MPI_Isend(buffer, count, type, destination, tag, comm, &request);
  wait(request);
}

void receive(void* buffer, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status* status) {
  MPI_Request request;
  MPI_Irecv(buffer, count, type, source, tag, comm, &request);
  wait(request, status);
}

void all_to_all(const void* send_buffer, void* receive_buffer, int count, MPI_Datatype type, MPI_Comm comm) {
  MPI_Request request;
  MPI_Ialltoall(send_buffer, count, type, receive_buffer, count, type, comm, &request);
  wait(request);
}

void all_to_all_v(const void* send_buffer, const int* send_counts, const int* send_offsets, void* receive_buffer,
                  const int* receive_counts, const int* receive_offsets, MPI_Datatype type, MPI_Comm comm) {
  MPI_Request request;
  MPI_Ialltoallv(send_buffer, send_counts, send_offsets, type, receive_buffer, receive_counts, receive_offsets, type,
                 comm, &request);
  wait(request);
}

void scatter(const void* send_buffer, void* receive_buffer, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  MPI_Request request;
  MPI_Iscatter(send_buffer, count, type, receive_buffer, count, type, root, comm, &request);
  wait(request);
}

void gather(const void* send_buffer, void* receive_buffer, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  MPI_Request request;
  MPI_Igather(send_buffer, count, type, receive_buffer, count, type, root, comm, &request);
  wait(request);
}

void reduce_sum(const void* values, void* sums, int count, MPI_Datatype type, int root, MPI_Comm comm) {
  MPI_Request request;
  MPI_Ireduce(values, sums, count, type, MPI_SUM, root, comm, &request);
  wait(request);
}

#endif  // HETSCALE_SMPI

void gather(const double* values, int count, double* all, int root, MPI_Comm comm) {
  gather(values, all, count, MPI_DOUBLE, root, comm);
}

}  // namespace hetscale::mpi::polite

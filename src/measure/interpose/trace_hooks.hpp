#pragma once
// `hetscale measure --trace DIR`: the MPI side of a rank's time-independent
// trace (measure/trace_recorder.hpp writes the lines). The generated wrappers
// call one hook per traced call (the list's trace=HOOK(...)) with its
// parameters in C types (the Fortran bindings' converted); the hooks turn
// communicators' ranks into world ranks, requests into numbers, statuses into
// the sender and tag, and write DIR/rank-R.trace.gz. Rank 0 writes
// DIR/manifest.json (hetscale.trace/1) in MPI_Finalize.
//
// A collective on a communicator of the world's size is written as that
// collective (roots and per-rank arrays in world order); on fewer ranks, as
// point to point through its first member. Intercommunicators, one-sided,
// neighbourhood and I/O calls are not written: the manifest counts them.
#include <mpi.h>

#include <cstddef>
#include <vector>

namespace hetscale::interpose::trace {

// Whether this rank writes a trace (from MPI_Init's return to MPI_Finalize).
extern bool on;

void open(int rank);                      // in MPI_Init, when settings().trace is set
void computed(double reference_seconds);  // a computation segment ended (on-CPU s x the node's speed)
// In MPI_Finalize; `measured`: this rank's seconds from MPI_Init's return to
// MPI_Finalize (the time a replay simulates), kept in the manifest; `hosts`:
// at rank 0, every rank's processor name, MPI_MAX_PROCESSOR_NAME chars each
// (gathered for the run record).
void close(int rank, int ranks, double measured, const std::vector<char>& hosts);

// Requests as they were before a call completed them (it may set them null).
struct Requests {
  std::vector<MPI_Request> handles;
};
Requests captured(int count, const MPI_Request requests[]);
Requests fortran_captured(const void* count, const void* requests);
MPI_Request fortran_request(const void* request);
// An index (of waitany, testany) or indices (of waitsome) into Requests:
// base 0 in C, 1 from Fortran.
struct Index {
  const int* at;
  int base;
};

// A status the call may ignore, replaced by one of the trace's while tracing.
MPI_Status* status_or_local(MPI_Status* status, MPI_Status* local);
MPI_Status* statuses_or_local(MPI_Status* statuses, int count);
void* fortran_status_or_local(void* status, MPI_Fint* local);
void* fortran_statuses_or_local(void* statuses, const void* count);
// A Fortran status (or array of `count`) in C.
const MPI_Status* fortran_status(const void* status);
const MPI_Status* fortran_statuses(const void* statuses, const void* count);
// The size of the Fortran status the trace lends (MPI_Fint's).
constexpr std::size_t fortran_status_size = sizeof(MPI_Status) / sizeof(MPI_Fint) + 2;

// Point to point.
void send(int dest, int tag, double bytes, MPI_Comm comm);
void isend(int dest, int tag, double bytes, MPI_Comm comm, MPI_Request request);
void recv(int source, int tag, double bytes, MPI_Comm comm, const MPI_Status* status);
void mrecv(double bytes, const MPI_Status* status);
void irecv(int source, int tag, double bytes, MPI_Comm comm, MPI_Request request);
void sendrecv(int dest, int sendtag, double send_bytes, int source, int recvtag, double recv_bytes, MPI_Comm comm,
              const MPI_Status* status);
void send_init(int dest, int tag, double bytes, MPI_Comm comm, MPI_Request request);
void recv_init(int source, int tag, double bytes, MPI_Comm comm, MPI_Request request);
void start(MPI_Request request);
void startall(const Requests& requests);
void request_free(MPI_Request request);

// Completion.
void wait(MPI_Request request, const MPI_Status* status);
void waitall(const Requests& requests, const MPI_Status* statuses);
void waitany(const Requests& requests, Index index, const MPI_Status* status);
void waitsome(const Requests& requests, const int* outcount, Index indices, const MPI_Status* statuses);
void test(MPI_Request request, const int* flag, const MPI_Status* status);
void testall(const Requests& requests, const int* flag, const MPI_Status* statuses);
void testany(const Requests& requests, Index index, const int* flag, const MPI_Status* status);

// Collectives (sizes in bytes; per peer or per rank as MPI counts them).
void barrier(MPI_Comm comm);
void bcast(double bytes, int root, MPI_Comm comm);
void reduce(double bytes, int root, MPI_Comm comm);
void allreduce(double bytes, MPI_Comm comm);
void scan(double bytes, MPI_Comm comm);
void exscan(double bytes, MPI_Comm comm);
void alltoall(double send_bytes, double recv_bytes, MPI_Comm comm);
void alltoallv(const int sendcounts[], MPI_Datatype sendtype, const int recvcounts[], MPI_Datatype recvtype,
               MPI_Comm comm);
void gather(double send_bytes, double recv_bytes, int root, MPI_Comm comm);
void allgather(double send_bytes, double recv_bytes, MPI_Comm comm);
void scatter(double send_bytes, double recv_bytes, int root, MPI_Comm comm);
void gatherv(double send_bytes, const int recvcounts[], MPI_Datatype recvtype, int root, MPI_Comm comm);
void allgatherv(double send_bytes, const int recvcounts[], MPI_Datatype recvtype, MPI_Comm comm);
void scatterv(const int sendcounts[], MPI_Datatype sendtype, double recv_bytes, int root, MPI_Comm comm);
void reduce_scatter(const int recvcounts[], MPI_Datatype datatype, MPI_Comm comm);
void reduce_scatter_block(double recv_bytes, MPI_Comm comm);

// A communicator freed (its ranks forgotten); a call the trace does not write.
void comm_free(MPI_Comm comm);
void not_replayed(std::size_t function);

}  // namespace hetscale::interpose::trace

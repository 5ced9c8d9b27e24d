/* hetscale/share_by_speed.h: share N units of work among the ranks of a
 * communicator by a functional performance model (docs/partitioning.md), at
 * run time, from C, C++ or anything that calls C. Link with hetscale::mpi.
 *
 *   hetscale_share mine;
 *   char error[256];
 *   if (hetscale_share_by_speed(MPI_COMM_WORLD, "model.json", 1500, "numerical", &mine, error, sizeof error))
 *     ... error says why, on every rank ...
 *   ... this rank works on units [mine.first, mine.first + mine.units) ...
 *
 * Rank i of the communicator is node i of the model (hetscale.fpm/1, as
 * `hetscale bench fpm` writes it: one node per rank). Include <mpi.h>
 * before this header for hetscale_share_by_speed (which takes an MPI_Comm);
 * the header itself needs no MPI: the library's entry point takes the
 * communicator's Fortran handle (MPI_Comm_c2f), which any MPI has. */
#ifndef HETSCALE_SHARE_BY_SPEED_H
#define HETSCALE_SHARE_BY_SPEED_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  long units;               /* this rank's share */
  long first;               /* its first unit: ranks take consecutive blocks in rank order */
  double predicted_seconds; /* the model's time for the share: units / s(units) */
  double makespan;          /* the largest predicted time of any rank */
} hetscale_share;

/* Collective over the communicator `comm` (its Fortran handle). Rank 0 reads the model and partitions `units` by
 * `algorithm` ("geometric", "numerical", "constant"; NULL: "numerical");
 * every rank gets its share. Returns 0; or 2 for bad input (the model file,
 * its node count against the communicator's size, units < 1, more units
 * than the model covers), with one line in `error` (at most error_size
 * bytes, NUL-terminated) and `share` untouched, the same on every rank. */
int hetscale_share_by_speed_f(int comm, const char* model_path, long units, const char* algorithm,
                              hetscale_share* share, char* error, size_t error_size);

/* As hetscale_share_by_speed, with each rank's accelerator as one more
 * processor (`hetscale bench fpm --device` writes such a model): the model
 * has, per rank in rank order, the node of its cores, then the node of its
 * device when it has one (a node with "device"). Each rank gets its cores'
 * share in `cores` and its device's in `device` (units 0 when its rank has
 * no device node). The blocks follow the model's order: rank 0's cores,
 * rank 0's device, rank 1's cores, ... Returns 0; or 2 for bad input, as
 * hetscale_share_by_speed (the communicator's size against the model's
 * ranks, not its nodes). */
int hetscale_share_with_device_f(int comm, const char* model_path, long units, const char* algorithm,
                                 hetscale_share* cores, hetscale_share* device, char* error, size_t error_size);

#ifdef MPI_VERSION /* <mpi.h> came first */
static inline int hetscale_share_with_device(MPI_Comm comm, const char* model_path, long units, const char* algorithm,
                                             hetscale_share* cores, hetscale_share* device, char* error,
                                             size_t error_size) {
  return hetscale_share_with_device_f((int)MPI_Comm_c2f(comm), model_path, units, algorithm, cores, device, error,
                                      error_size);
}
static inline int hetscale_share_by_speed(MPI_Comm comm, const char* model_path, long units, const char* algorithm,
                                          hetscale_share* share, char* error, size_t error_size) {
  return hetscale_share_by_speed_f((int)MPI_Comm_c2f(comm), model_path, units, algorithm, share, error, error_size);
}
#endif

#ifdef __cplusplus
}
#endif

#endif

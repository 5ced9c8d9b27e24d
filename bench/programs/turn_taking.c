/* What a message costs when ranks outnumber the cores, without hetscale:
 * each rank paces itself to a speed (it computes WORK seconds on its own
 * thread CPU clock, then sleeps until WORK / speed has passed), then swaps a
 * double with its neighbours on a ring (MPI_Sendrecv) and joins an
 * MPI_Allreduce, STEPS times. Each rank prints its time computing (held to
 * its speed), in MPI_Sendrecv and in MPI_Allreduce. The slowest rank arrives
 * last at every MPI_Allreduce, so its time there is what the messages cost
 * once everyone is waiting: a few microseconds a call when each rank has a
 * core; when the ranks take turns on the cores, each exchange also waits for
 * its partner to be given a CPU.
 *   turn_taking SPEEDS [STEPS [WORK [spin|sleep]]]
 * SPEEDS v0,v1,... one per rank (repeated); STEPS 300; WORK 0.00085 s;
 * spin: MPI_Sendrecv and MPI_Allreduce (Open MPI polls in them, yielding the
 * CPU when ranks outnumber cores); sleep: MPI_Isend/Irecv and MPI_Iallreduce
 * completed by MPI_Testall between 20 us sleeps. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double seconds_of(clockid_t clock) {
  struct timespec t;
  clock_gettime(clock, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void sleep_for(double seconds) {
  struct timespec pause = {(time_t)seconds, (long)((seconds - (double)(time_t)seconds) * 1e9)};
  while (nanosleep(&pause, &pause) != 0) {
  }
}

/* The request completed by tests between 20 us sleeps. */
static void test_until_done(int count, MPI_Request* requests) {
  for (int done = 0;;) {
    MPI_Testall(count, requests, &done, MPI_STATUSES_IGNORE);
    if (done) return;
    sleep_for(20e-6);
  }
}

/* The ring swap and the reduction, by MPI's blocking calls (spin) or as
 * non-blocking calls tested between sleeps (sleep). */
static void swap(double* mine, double* in, int rank, int ranks, int sleeping) {
  const int next = (rank + 1) % ranks, previous = (rank + ranks - 1) % ranks;
  if (!sleeping) {
    MPI_Sendrecv(mine, 1, MPI_DOUBLE, next, 0, in, 1, MPI_DOUBLE, previous, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    return;
  }
  MPI_Request requests[2];
  MPI_Irecv(in, 1, MPI_DOUBLE, previous, 0, MPI_COMM_WORLD, &requests[0]);
  MPI_Isend(mine, 1, MPI_DOUBLE, next, 0, MPI_COMM_WORLD, &requests[1]);
  test_until_done(2, requests);
}

static void reduce(double* mine, double* total, int sleeping) {
  if (!sleeping) {
    MPI_Allreduce(mine, total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    return;
  }
  MPI_Request request;
  MPI_Iallreduce(mine, total, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &request);
  test_until_done(1, &request);
}

/* The speed of `rank` in the list "v0,v1,...", repeated over the ranks. */
static double speed_of(const char* list, int rank) {
  int count = 1;
  for (const char* c = list; *c; ++c) count += *c == ',';
  const char* at = list;
  for (int i = 0; i < rank % count; ++i) at = strchr(at, ',') + 1;
  const double speed = atof(at);
  return speed > 0.0 && speed <= 1.0 ? speed : -1.0;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const double speed = argc > 1 ? speed_of(argv[1], rank) : -1.0;
  const long steps = argc > 2 ? atol(argv[2]) : 300;
  const double work = argc > 3 ? atof(argv[3]) : 0.00085;
  const int sleeping = argc > 4 && strcmp(argv[4], "sleep") == 0;
  int fine = speed > 0.0 && steps >= 1 && work > 0.0 && (argc <= 4 || sleeping || strcmp(argv[4], "spin") == 0);
  MPI_Allreduce(MPI_IN_PLACE, &fine, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);  // every rank stops, or none
  if (!fine) {
    if (rank == 0) fprintf(stderr, "usage: turn_taking SPEEDS (each in (0, 1]) [STEPS [WORK [spin|sleep]]]\n");
    MPI_Finalize();
    return 2;
  }
  double computing = 0.0, swapping = 0.0, reducing = 0.0, mine = 1.0, in = 0.0, total = 0.0;
  volatile double sink = 0.0;
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (long step = 0; step < steps; ++step) {
    double at = MPI_Wtime();
    const double cpu = seconds_of(CLOCK_THREAD_CPUTIME_ID);
    while (seconds_of(CLOCK_THREAD_CPUTIME_ID) - cpu < work) sink += 1.0;
    const double owed = work / speed - (MPI_Wtime() - at);
    if (owed > 0.0) sleep_for(owed);
    computing += MPI_Wtime() - at;
    at = MPI_Wtime();
    swap(&mine, &in, rank, ranks, sleeping);
    swapping += MPI_Wtime() - at;
    at = MPI_Wtime();
    reduce(&mine, &total, sleeping);
    reducing += MPI_Wtime() - at;
  }
  const double run = MPI_Wtime() - start;
  for (int r = 0; r < ranks; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    if (r == rank)
      printf(
          "rank %d speed %.3f: run %.3f s, computing %.3f s, MPI_Sendrecv %.3f s, MPI_Allreduce %.3f s "
          "(%.1f us a call)\n",
          rank, speed, run, computing, swapping, reducing, reducing / (double)steps * 1e6);
    fflush(stdout);
  }
  MPI_Finalize();
  return 0;
}

#pragma once
// The runtime of libhetscale_measure.so: where each wrapped MPI call's time
// goes, per thread, the regions a program marks, and the run record rank 0
// writes inside MPI_Finalize. The wrappers themselves are generated
// (scripts/generate-mpi-wrappers); MPI_Pcontrol and the region functions of
// hetscale/measure.h are written by hand (regions.cpp).
// Its settings come from the environment `hetscale measure` sets
// (measure/measure_settings.hpp: the run record's path, the TALP document's,
// the speeds, the emulated speeds, the transfer model, the program's name).
// The record and the TALP document are written by record_writers.hpp from
// what the ranks gathered (gathered.hpp); the transfer model is
// transfer_model.hpp's.
#include <mpi.h>

#include <cstddef>
#include <utility>
#include <vector>

#include "hetscale/measure/hold_back.hpp"
#include "hetscale/measure/short_calls.hpp"
#include "thread_clock.hpp"
#include "tick_clock.hpp"

namespace hetscale::interpose {

enum class CallClass { setup, transfer, wait, io };

struct FunctionInfo {
  const char* name;
  CallClass kind;
  bool poll;  // a non-blocking completion check, timed one call in 16
};
// Generated from the list, indexed by the wrappers.
extern const FunctionInfo functions[];
extern const std::size_t function_count;

// The runs of short calls of this thread (measure/short_calls.hpp) while it
// is measured and runs are allowed; else null.
extern thread_local measure::ShortCalls* this_thread_runs __attribute__((tls_model("initial-exec")));

// One wrapped call: its time from construction to destruction goes to its
// function and, by its class, to t_setup, t_comm or t_idle of this thread;
// its construction ends the thread's computation since its last call (and
// holds the thread back to an emulated speed). In a run of short calls most
// calls are only counted: that path is inline, the timed one is not.
class Call {
 public:
  explicit Call(std::size_t function) : function_(function) {
    measure::ShortCalls* const runs = this_thread_runs;
    if (runs && !runs->time_call(function)) {
      counted_ = runs;
      runs->entering();
      return;
    }
    begin();
  }
  ~Call() {
    if (!counted_) {
      end();
      return;
    }
    counted_->counted(function_, bytes_);
    if (messages_ > 0.0) count_messages();
  }
  Call(const Call&) = delete;
  Call& operator=(const Call&) = delete;
  void add_bytes(double bytes) { bytes_ += bytes; }
  void add_messages(double messages) { messages_ += messages; }
  // Persistent requests started: their messages and bytes.
  void add_started(const std::pair<double, double>& messages_bytes) {
    messages_ += messages_bytes.first;
    bytes_ += messages_bytes.second;
  }

 private:
  void begin();
  void end();
  void count_messages();

  std::size_t function_;
  measure::ShortCalls* counted_ = nullptr;  // in a run of short calls, not timed: counted only
  double bytes_ = 0.0, messages_ = 0.0;
  Ticks start_ = 0;
  double computation_ = 0.0;  // the computation before it (ticks)
  bool left_ = false;         // the thread left its CPU in that computation
  bool timed_ = false;        // measuring when it began: its time goes to the thread's parts
};

// A non-blocking completion check (MPI_Test*, MPI_Iprobe, ...): true when
// this call is not timed, only counted (one in 16 is timed; the others get
// the mean time of the timed ones, taken out of the computation around them
// at the thread's next timed boundary). A polling loop then costs a few
// nanoseconds a call more than it would unmeasured.
bool poll_untimed(std::size_t function);

// The sizes of the predefined datatypes a thread used last (MPI_DOUBLE,
// MPI_INT, ...): never freed, so their sizes can be kept; a derived type's
// handle may be freed and reused, so its size is asked each time. (Arrays of
// scalars: a thread-local of class type is reached through an initialising
// call. They start zero, and a zero type is no handle of either MPI.)
inline constexpr std::size_t named_sizes_kept = 4;
extern thread_local MPI_Datatype named_types[named_sizes_kept] __attribute__((tls_model("initial-exec")));
extern thread_local int named_type_sizes[named_sizes_kept] __attribute__((tls_model("initial-exec")));
// type_bytes when the type is not one of them.
double type_bytes_asked(int count, MPI_Datatype type);

// count x the size of `type` (0 for MPI_DATATYPE_NULL or a negative count).
inline double type_bytes(int count, MPI_Datatype type) {
  for (std::size_t k = 0; k < named_sizes_kept; ++k)
    if (named_types[k] == type) return count > 0 ? static_cast<double>(count) * named_type_sizes[k] : 0.0;
  return type_bytes_asked(count, type);
}
// The same for a Fortran binding's arguments (pointers to MPI_Fint).
double fortran_type_bytes(const void* count, const void* type);
// Whose counts an array of counts gives: one per peer of the communicator
// (its size, or the remote group's for an intercommunicator), or one per
// in- or out-neighbour of its topology (the neighbourhood collectives).
enum class CountsOver { peers, in_neighbours, out_neighbours };
// How many entries such an array has on `comm`; 0 when it cannot be told.
int entries(MPI_Comm comm, CountsOver over);
// Whether this rank is the root of a rooted collective on `comm` (MPI_ROOT on
// an intercommunicator).
bool is_root(int root, MPI_Comm comm);
// Persistent requests: the bytes each start of `request` moves, kept from its
// creation (MPI_Send_init, ...); of the requests started, how many are known
// (one message each) and their bytes.
void remember_request(MPI_Request request, double bytes);
std::pair<double, double> started(const MPI_Request requests[], int count);
// The same for a Fortran binding's arguments (a null count: one request).
std::pair<double, double> fortran_started(const void* requests, const void* count);
// The sum over the entries of counts[i] x the size of types[i] (when `types`
// is given) or of `type`: the bytes of a v or w collective.
double type_bytes_sum(const int counts[], const MPI_Datatype types[], MPI_Datatype type, MPI_Comm comm,
                      CountsOver over);
// The same for a Fortran binding's arguments (pointers to MPI_Fint; types or
// type may be null).
double fortran_type_bytes_sum(const void* counts, const void* types, const void* type, const void* comm,
                              CountsOver over);
// The next definition of a symbol (the one a wrapper hides); aborts with a
// line on stderr when there is none.
void* next_symbol(const char* name);

// Around MPI_Init / MPI_Init_thread (C or Fortran) and before MPI_Finalize.
void initializing();
void initialized();
void finalizing();

// A named region (hetscale_region_begin / _end): its time breakdown and MPI
// profile go to the record's "regions". Regions may nest; a region entered
// again while open counts once. An end without a begin is ignored.
void region_begin(const char* name);
void region_end(const char* name);
// Emulated speeds (openmp_teams.cpp): this rank's (1: none), and the end of
// the calling thread's computation segment outside an MPI call (the end of
// its part of an OpenMP parallel region), held back as at an MPI call. False
// when the thread does not time itself (it never called MPI, or measuring
// has not begun or is over): it is then to be held back by its caller.
double emulated_speed_of_rank();
bool computation_boundary();
// The threads held back that do not time themselves (OpenMP's pool): thread
// id and seconds held back so far, less what was slept beyond what was owed
// (their waits for a CPU, the wake's included, are read from their counters).
std::vector<std::pair<int, double>> pool_threads_held();
// A hold-back is paid once this much is owed (s): shorter sleeps cost more
// than they hold; what a sleep over- or undershoots is carried to the next.
constexpr double hold_back_quantum = 100e-6;
// Sleeps `seconds` (a hold-back), through signals.
void sleep_seconds(double seconds);
// Sleeps what `hold_back` (in ticks) owes once it is due, as a pause of the
// thread's `clock`: returns the ticks slept (0: nothing was due), told to
// `hold_back`; `now` moves past the sleep.
double sleep_owed(measure::HoldBack& hold_back, ThreadClock& clock, Ticks& now);

// MPI_Pcontrol(level): 0 stops measuring (the time until measuring resumes is
// left out of the run's breakdown), any other level resumes it (mpiP's use).
void measuring_control(int level);

}  // namespace hetscale::interpose

#pragma once
// One thread's timeline split exactly into time on a CPU, time waiting for a
// CPU (run-queue delay) and time blocked (sleeping, reading a file), from the
// thread's own counters, at the boundaries of its segments (a computation
// between two MPI calls, one MPI call).
//
// Reading the counters costs about 1 to 2 us here (the thread CPU clock is a
// system call, the run-queue delay a read of /proc/self/task/TID/schedstat),
// too much for every MPI call. They are read only at the end of a segment in
// which the thread left its CPU: the kernel updates a page it maps for a
// perf event of the thread (a software event that counts nothing) each time
// the thread is scheduled in, so a change of that page's sequence number,
// read in a few nanoseconds, says the thread was descheduled since the last
// boundary. A segment the thread ran through without leaving its CPU was on
// the CPU for all its wall time; a segment in which it left gets the rest of
// the thread CPU time since the last read, and all the run-queue delay since
// then (no earlier segment had any). So every segment's split is exact, to
// the few hundred nanoseconds of the reads themselves (docs/measure.md). The
// reads' own time (1 to 2 us) is the MPI call's at whose boundary they were
// made: at a call's start the next segment (the call) begins before them, at
// its end the call ends after them (lap_through_read).
// The sequence number can miss a descheduling (seen here under load: a
// thread woken from a sleep waited milliseconds for a CPU, its schedstat
// delay grew, the number did not change), so a segment longer than 50 us is
// also checked against the thread CPU clock (one system call, a few hundred
// nanoseconds): when the CPU time since the last read falls short of the
// segments run through since, the thread left its CPU. Where perf events
// are not allowed, a segment counts as left when it is longer than 50 us.
// Either way the error bound is the same: a descheduling inside a segment
// shorter than 50 us may be taken as on-CPU time.
#include <cstdint>

#include "tick_clock.hpp"

struct perf_event_mmap_page;

namespace hetscale::interpose {

// A segment's wall time and its split, in ticks; on_cpu + delay + blocked = wall.
struct Split {
  double wall = 0.0, on_cpu = 0.0, delay = 0.0, blocked = 0.0;
};

class ThreadClock {
 public:
  ThreadClock() = default;
  ThreadClock(const ThreadClock&) = delete;
  ThreadClock& operator=(const ThreadClock&) = delete;
  ~ThreadClock();

  // Starts timing the calling thread at `now` (ticks_per_ns: the tick clock's
  // rate); returns what the thread spent before, since it began: its CPU time
  // as on_cpu and its run-queue delay as delay (wall 0).
  Split start(const TickClock& ticks, Ticks now, double ticks_per_ns);
  bool started() const { return started_; }
  // Ends the segment that began at the last boundary (or start) at `now`; a
  // read of the counters (when the thread left its CPU) is the next segment's.
  Split lap(Ticks now) { return lap_at(now, false); }
  // As lap, but the read is part of the segment ended: `now` moves past it,
  // and the segment's wall and on_cpu grow by its time.
  Split lap_through_read(Ticks& now) {
    Split split = lap_at(now, true);
    now = segment_start_;
    return split;
  }
  // A pause the thread chose (an emulated speed's hold-back), from the last
  // boundary to `now`: its wall time, the counters read again so the next
  // segment starts exact; `now` moves past the read, which is the pause's.
  double pause_ends(Ticks& now);
  // The thread's time on a CPU and run-queue delay so far (ns), as its
  // schedstat says (up to a scheduler tick stale while it runs), read by
  // any thread; false before start or when they cannot be read.
  bool schedstat(double& on_cpu_ns, double& delay_ns) const;

 private:
  // Whether the thread left its CPU since the last boundary: the kernel bumped
  // the perf page's sequence number (a sched-in), or without the page the
  // segment was long enough that it may have.
  bool left_cpu(double wall) const { return lock_ ? *lock_ != seen_ : wall > long_ticks_; }
  Split lap_at(Ticks now, bool through_read) {
    const double wall = static_cast<double>(now - segment_start_);
    segment_start_ = now;
    if (left_cpu(wall)) return split_after_leaving(now, wall, through_read, cpu_ns());
    if (wall > long_ticks_) return checked(now, wall, through_read);
    uninterrupted_ += wall;
    return {wall, wall, 0.0, 0.0};
  }
  // A long segment the sequence number says was run through: the CPU clock
  // says whether it was.
  Split checked(Ticks now, double wall, bool through_read);
  // Reads the counters after the CPU clock at the boundary (cpu_at_boundary);
  // with through_read the segment ends after the read.
  Split split_after_leaving(Ticks now, double wall, bool through_read, double cpu_at_boundary);
  // The read ended a segment through_read: the segment grows by its time.
  void read_is_the_segments(Ticks now, Split& split);
  static double cpu_ns();
  // The run-queue delay so far (ns; 0 when it cannot be read).
  double delay_ns() const;
  // The delay, then the CPU clock: what the read costs after it is a few hundred nanoseconds.
  void read(double& cpu_ns, double& delay_ns) const;
  void rebase();

  bool started_ = false;
  const TickClock* ticks_ = nullptr;
  const volatile perf_event_mmap_page* page_ = nullptr;
  const volatile std::uint32_t* lock_ = nullptr;  // the page's sequence number
  std::uint32_t seen_ = 0;                         // its value at the last boundary
  double long_ticks_ = 0.0;  // a segment this long may have left (without the page) or is checked (with it)
  int perf_file_ = -1, schedstat_file_ = -1;
  double ticks_per_ns_ = 1.0;
  Ticks segment_start_ = 0;               // the last boundary, after its read if any
  double cpu_at_ = 0.0, delay_at_ = 0.0;  // ns, at the last read
  double uninterrupted_ = 0.0;            // ticks of segments run through since the last read
};

}  // namespace hetscale::interpose

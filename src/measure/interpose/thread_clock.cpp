#include "thread_clock.hpp"

#include "schedstat.hpp"

#include <linux/perf_event.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <ctime>

namespace hetscale::interpose {
namespace {

// A segment longer than this may have left the CPU: without a perf event
// page it counts as one that did, with the page it is checked.
constexpr double long_segment_ns = 50'000.0;

// The check's tolerance: the tick clock's rate is calibrated against the
// steady clock over MPI_Init (tens of milliseconds), to far better than this.
constexpr double check_share = 0.005, check_ns = 2'000.0;

std::uint32_t sequence(const volatile perf_event_mmap_page* page) { return page->lock; }

}  // namespace

double ThreadClock::cpu_ns() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) * 1e9 + static_cast<double>(now.tv_nsec);
}

ThreadClock::~ThreadClock() {
  if (page_) munmap(const_cast<perf_event_mmap_page*>(page_), static_cast<std::size_t>(sysconf(_SC_PAGESIZE)));
  if (perf_file_ >= 0) close(perf_file_);
  if (schedstat_file_ >= 0) close(schedstat_file_);
}

Split ThreadClock::start(const TickClock& ticks, Ticks now, double ticks_per_ns) {
  ticks_ = &ticks;
  ticks_per_ns_ = ticks_per_ns;
  long_ticks_ = long_segment_ns * ticks_per_ns;
  schedstat_file_ = open_schedstat(static_cast<long>(syscall(SYS_gettid)));
  // What the thread did before, read before its perf event is opened (1 to
  // 11 ms here: hetscale's work, not the thread's).
  double cpu_before = 0.0, delay_before = 0.0;
  read(cpu_before, delay_before);
  perf_event_attr attributes{};
  attributes.size = sizeof attributes;
  attributes.type = PERF_TYPE_SOFTWARE;
  attributes.config = PERF_COUNT_SW_DUMMY;
  attributes.exclude_kernel = 1;
  attributes.exclude_hv = 1;
  perf_file_ = static_cast<int>(syscall(SYS_perf_event_open, &attributes, 0, -1, -1, PERF_FLAG_FD_CLOEXEC));
  if (perf_file_ >= 0) {
    void* mapped = mmap(nullptr, static_cast<std::size_t>(sysconf(_SC_PAGESIZE)), PROT_READ, MAP_SHARED, perf_file_, 0);
    if (mapped != MAP_FAILED) {
      page_ = static_cast<const volatile perf_event_mmap_page*>(mapped);
      lock_ = &page_->lock;
    } else {
      close(perf_file_);
      perf_file_ = -1;
    }
  }
  started_ = true;
  rebase();
  segment_start_ = now;
  Split before;
  before.on_cpu = cpu_before * ticks_per_ns_;
  before.delay = delay_before * ticks_per_ns_;
  return before;
}

double ThreadClock::delay_ns() const {
  // Its on-CPU time is a tick stale for a running thread: the CPU clock's is exact.
  double on_cpu_ns = 0.0, delay = 0.0;
  return read_schedstat(schedstat_file_, on_cpu_ns, delay) ? delay : 0.0;
}

void ThreadClock::read(double& cpu_ns, double& delay_ns) const {
  delay_ns = this->delay_ns();
  cpu_ns = ThreadClock::cpu_ns();
}

bool ThreadClock::schedstat(double& on_cpu_ns, double& delay_ns) const {
  return read_schedstat(schedstat_file_, on_cpu_ns, delay_ns);
}

void ThreadClock::rebase() {
  read(cpu_at_, delay_at_);
  uninterrupted_ = 0.0;
  segment_start_ = ticks_->now();
  if (page_) seen_ = sequence(page_);
}

Split ThreadClock::checked(Ticks now, double wall, bool through_read) {
  const double cpu_at_boundary = cpu_ns();
  const double ran = uninterrupted_ + wall;
  if ((cpu_at_boundary - cpu_at_) * ticks_per_ns_ < ran - check_share * ran - check_ns * ticks_per_ns_)
    return split_after_leaving(now, wall, through_read, cpu_at_boundary);
  // On its CPU throughout: the clock read is a new base.
  cpu_at_ = cpu_at_boundary;
  uninterrupted_ = 0.0;
  Split split{wall, wall, 0.0, 0.0};
  if (through_read) read_is_the_segments(now, split);
  return split;
}

void ThreadClock::read_is_the_segments(Ticks now, Split& split) {
  segment_start_ = std::max(now, ticks_->now());
  const auto read = static_cast<double>(segment_start_ - now);
  split.wall += read;
  split.on_cpu += read;
}

Split ThreadClock::split_after_leaving(Ticks now, double wall, bool through_read, double cpu_at_boundary) {
  // The CPU clock at the boundary (a few hundred nanoseconds after it: the
  // segment ended gets them, never less than its own), then the counters.
  const double delay_ns = this->delay_ns();
  Split split;
  split.wall = wall;
  split.on_cpu = std::clamp((cpu_at_boundary - cpu_at_) * ticks_per_ns_ - uninterrupted_, 0.0, wall);
  split.delay = std::clamp((delay_ns - delay_at_) * ticks_per_ns_, 0.0, wall - split.on_cpu);
  split.blocked = wall - split.on_cpu - split.delay;
  delay_at_ = delay_ns;
  uninterrupted_ = 0.0;
  if (page_) seen_ = sequence(page_);
  if (through_read) {  // the read is this segment's, the next begins after it
    cpu_at_ = cpu_ns();
    read_is_the_segments(now, split);
  } else {  // the next segment's
    cpu_at_ = cpu_at_boundary;
  }
  return split;
}

double ThreadClock::pause_ends(Ticks& now) {
  const Ticks pause_start = segment_start_;
  rebase();
  now = std::max(now, segment_start_);
  segment_start_ = now;
  return static_cast<double>(now - pause_start);
}

}  // namespace hetscale::interpose

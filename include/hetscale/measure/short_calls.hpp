#pragma once
// Runs of short MPI calls (a loop of small collectives, a burst of small
// messages): which calls are timed. Timing a call reads the CPU's
// time-stamp counter at both ends (8 to 10 ns a read on this machine's
// processors) and ends the computation before it; on 2 ranks a loop of
// 0.3 us collectives paid 20 % for that. So once `needed` timed calls in a
// row were short (the call and the computation before it each under
// `short_ticks`, the thread on its CPU throughout), only one call in
// `one_in` (32 by default: a timed call costs about 50 ns, so one in 8 still
// cost 6 ns a call) is timed, chosen at random (a fixed stride would see one phase of a loop
// whose calls alternate); the others are counted. At the next timed
// boundary the interval since the last one holds the counted calls and the
// computations between them: each counted call gets its function's mean
// over its timed calls, the rest is computation. A mean longer than the
// interval is cut to it and the cut carried to the next intervals (so that
// calls alternating long and short are not split short). The parts add up
// to the interval exactly; each counted call's error is under its own
// short interval.
//
// An interval whose computation (what the calls' means leave) comes to
// `short_ticks` or more a call, or in which the thread left its CPU, is a
// break: a counted call may have waited, or the program gone on to compute.
// The calls get their means, the computation the rest, and the rest's time
// on a CPU (what the computation may have got that a call spent spinning:
// the bound of t_comp's error, in the record) is counted as unsplit; the
// run ends, and the
// next run needs twice as many timed calls to begin (at most
// `most_needed`), so breaks stay few whatever the program does. A run of
// 8 x needed counted calls without a break halves it again (down to the
// first `needed`): breaks that come rarely (an interrupt, a descheduling)
// do not end a steady loop's runs for long. Any one unit of time (ticks).
//
// What a break's rest holds can be told by a sampler: another thread that
// looks every `sample_ticks` (sampled_every) whether the thread is inside a
// counted call, and adds the time since its last look, and the thread's
// time on a CPU in it, to the calls' when it is. A break's calls then get,
// beyond their means, what the sampler saw in calls beyond those means (a
// partner that came late, a call blocked), with its share on a CPU: the
// rest is computation, and unsplit grows by at most one sampling period (a
// wait shorter than a period may be missed or counted a period long; what
// does not fit in its interval is carried to the next break, so that waits
// shorter than a period are right on average).
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace hetscale::measure {

class ShortCalls {
 public:
  // std::invalid_argument unless short_ticks > 0, 1 <= needed <= most_needed
  // and one_in is a power of 2.
  ShortCalls(double short_ticks, std::size_t functions, std::uint32_t needed = 32, std::uint32_t most_needed = 4096,
             std::uint32_t one_in = 32);

  // Whether to time the call of `function` now beginning (false: count it
  // with counted()). Times every call outside a run, and a function's first.
  bool time_call(std::size_t function) {
    return !in_run() || mean_[function] < 0.0 || (next_random() & (one_in_ - 1u)) == 0;
  }
  // A call that will not be timed begins (for the sampler).
  void entering() { sampler_.in_call.store(true, std::memory_order_relaxed); }
  // A call that was not timed, of `function`, that moved `bytes`, ended.
  void counted(std::size_t function, double bytes) {
    sampler_.in_call.store(false, std::memory_order_relaxed);
    if (count_[function]++ == 0.0) pending_.push_back(function);
    bytes_[function] += bytes;
    ++pending_calls_;
  }
  bool any_counted() const { return pending_calls_ > 0; }
  // A timed boundary (the start of a timed call, the end of the run) ended
  // the interval since the last one, `interval` long, `on_cpu` of it on a
  // CPU (less: the thread left its CPU). Calls `charge(function, ticks,
  // calls, bytes)` for each function counted in it, with its calls' part;
  // returns the rest (the computation between them) and its time on a CPU.
  struct Rest {
    double ticks = 0.0, on_cpu = 0.0;
  };
  template <class Charge>
  Rest split(double interval, double on_cpu, Charge&& charge);
  // The calls counted since the last timed boundary, when there will be no
  // other (their thread made its last calls): each gets its function's mean,
  // with `charge` as split() calls it.
  template <class Charge>
  void settle(Charge&& charge);
  // A timed call: its time, the computation's before it (since the last
  // boundary, less the counted calls' part), and whether the thread left its
  // CPU in either.
  void timed(std::size_t function, double call, double computation, bool left);
  // A sampler looks every `ticks` (> 0; std::invalid_argument otherwise).
  void sampled_every(double ticks);
  // The sampler's look (any thread): `ticks` since its last, `on_cpu` of
  // them the thread's time on a CPU.
  void sample(double ticks, double on_cpu) {
    if (!sampler_.in_call.load(std::memory_order_relaxed)) return;
    sampler_.in_calls.fetch_add(ticks, std::memory_order_relaxed);
    sampler_.in_calls_on_cpu.fetch_add(on_cpu, std::memory_order_relaxed);
  }

  // Whether the thread is in a run (any thread may ask: the sampler looks
  // less often while none is).
  bool in_run() const { return sampler_.in_run.load(std::memory_order_relaxed); }
  double counted_calls() const { return counted_calls_; }  // calls not timed
  double unsplit() const { return unsplit_; }              // the breaks' computation parts on a CPU
  std::uint32_t needed() const { return needed_; }

 private:
  void broke(double unsplit);
  void set_in_run(bool in_run) { sampler_.in_run.store(in_run, std::memory_order_relaxed); }
  // Charges `parts` among the counted calls, each function by its calls'
  // means (by count when those are 0), and clears them; returns their count.
  template <class Charge>
  std::uint32_t charge_counted(double parts, double means, Charge& charge);
  std::uint32_t next_random() {
    random_ ^= random_ << 13;
    random_ ^= random_ >> 17;
    random_ ^= random_ << 5;
    return random_;
  }

  double short_ticks_;
  std::uint32_t needed_, least_needed_, most_needed_, one_in_;
  std::uint32_t streak_ = 0;            // timed short calls in a row
  std::uint32_t run_length_ = 0;        // counted calls since the run began or needed last halved
  std::uint32_t random_ = 2463534242u;  // xorshift32's state
  std::vector<double> mean_;           // per function, over its timed calls (< 0: none yet)
  std::vector<double> count_, bytes_;  // per function, counted since the last timed boundary
  std::vector<std::size_t> pending_;   // the functions counted since then
  std::uint32_t pending_calls_ = 0;
  double carried_ = 0.0;  // means cut to their intervals, owed by the next ones
  double gaps_ = 1.0;     // computations in the last interval split (counted calls + 1)
  double counted_calls_ = 0.0, unsplit_ = 0.0;
  // What the sampler sees (written by it and by this thread; copied as values).
  struct Sampler {
    std::atomic<bool> in_call{false};          // inside a counted call
    std::atomic<bool> in_run{false};           // in a run of short calls
    std::atomic<double> in_calls{0.0};         // ticks seen in counted calls since the last timed boundary
    std::atomic<double> in_calls_on_cpu{0.0};  // of them on a CPU
    Sampler() = default;
    Sampler(const Sampler& other) { *this = other; }
    Sampler& operator=(const Sampler& other) {
      in_call.store(other.in_call.load());
      in_run.store(other.in_run.load());
      in_calls.store(other.in_calls.load());
      in_calls_on_cpu.store(other.in_calls_on_cpu.load());
      return *this;
    }
  };
  Sampler sampler_;
  double sample_ticks_ = 0.0;  // the sampler's period; 0: none
  double seen_carried_ = 0.0;  // seen in calls beyond a break's interval, for the next
};

template <class Charge>
std::uint32_t ShortCalls::charge_counted(double parts, double means, Charge& charge) {
  for (const auto f : pending_) {
    const double share = means > 0.0 ? count_[f] * mean_[f] / means : count_[f] / pending_calls_;
    charge(f, parts * share, count_[f], bytes_[f]);
    count_[f] = 0.0;
    bytes_[f] = 0.0;
  }
  pending_.clear();
  const std::uint32_t calls = pending_calls_;
  counted_calls_ += calls;
  pending_calls_ = 0;
  return calls;
}

template <class Charge>
void ShortCalls::settle(Charge&& charge) {
  double means = 0.0;
  for (const auto f : pending_) means += count_[f] * mean_[f];
  charge_counted(means, means, charge);
}

template <class Charge>
ShortCalls::Rest ShortCalls::split(double interval, double on_cpu, Charge&& charge) {
  const double seen = sampler_.in_calls.exchange(0.0, std::memory_order_relaxed);
  const double seen_on_cpu = sampler_.in_calls_on_cpu.exchange(0.0, std::memory_order_relaxed);
  if (pending_calls_ == 0) return {interval, on_cpu};
  double means = 0.0;
  for (const auto f : pending_) means += count_[f] * mean_[f];
  const double owed = means + carried_;
  const double parts = owed < interval ? owed : interval;
  carried_ = owed - parts;
  Rest rest{interval - parts, 0.0};
  // The calls' parts come from the time on a CPU first (a short call spins).
  double calls_on_cpu = parts < on_cpu ? parts : on_cpu;
  const bool broken = on_cpu < interval || rest.ticks >= (pending_calls_ + 1.0) * short_ticks_;
  const double beyond = std::max(seen - parts, 0.0) + seen_carried_;
  if (broken && sample_ticks_ > 0.0 && beyond > 0.0) {
    // A break's calls may have waited: what the sampler saw in them beyond
    // their means, on a CPU in the share it saw. A look stands for a period:
    // a wait shorter than that is seen a period long, or not at all (so
    // what does not fit in the interval is carried, up to a period).
    const double waited = std::min(beyond, rest.ticks);
    seen_carried_ = std::min(beyond - waited, sample_ticks_);
    rest.ticks -= waited;
    const double share = seen > 0.0 ? std::clamp(seen_on_cpu / seen, 0.0, 1.0) : 1.0;
    calls_on_cpu = std::min(on_cpu, calls_on_cpu + waited * share);
  }
  rest.on_cpu = std::min(on_cpu - calls_on_cpu, rest.ticks);
  const std::uint32_t calls = charge_counted(interval - rest.ticks, means, charge);
  gaps_ = calls + 1.0;
  run_length_ += calls;
  if (broken) {
    broke(sample_ticks_ > 0.0 ? std::min(rest.on_cpu, sample_ticks_) : rest.on_cpu);
  } else if (run_length_ >= 8u * needed_ && needed_ > least_needed_) {
    needed_ /= 2;  // a long run without a break: breaks are rare here
    run_length_ = 0;
  }
  return rest;
}

}  // namespace hetscale::measure

#pragma once
// Emulating a slower node by holding a thread back (`hetscale measure
// --emulate-speeds`, docs/measure.md): after computing for c on a CPU, a
// thread of a node of relative speed v owes (1/v - 1) c of waiting, so its
// computation takes c / v. The time it waited for a CPU while computing
// (run-queue delay, d) is paid from what it owes: a node of speed v would
// have taken that long anyway, so ranks that outnumber the cores but ask for
// no more than they have are slowed by each other, not twice; only the wait
// beyond what is owed is other load. The rest is slept once a quantum is
// owed (shorter sleeps cost more than they hold), and what a sleep over- or
// undershoots is carried: the next computation's debt pays an overshoot
// back, so the emulated node keeps its pace on a busy machine. An overshoot
// not yet paid back (a woken thread that waited long for a CPU, near the end
// of a run) is not computation: it is other load until it is paid. Any one
// unit of time.
#include <stdexcept>

namespace hetscale::measure {

class HoldBack {
 public:
  // std::invalid_argument unless 0 < speed <= 1 and quantum >= 0.
  HoldBack(double speed, double quantum);

  // A computation segment ended: `on_cpu` on a CPU and `delay` waiting for
  // one (both >= 0). Returns the part of the delay paid from what is owed
  // (held back, computation at the emulated speed); delay - that is other load.
  double computed(double on_cpu, double delay);
  // What to sleep now: all that is owed, once it reaches the quantum; else 0.
  double due() const { return owed_ >= quantum_ && owed_ > 0.0 ? owed_ : 0.0; }
  // A sleep of `held` ended (it may differ from what was due).
  void slept(double held) { owed_ -= held; }
  double owed() const { return owed_; }
  // What was slept beyond all that was owed so far (>= 0): other load, not
  // computation, unless a later computation's debt pays it back.
  double overslept() const { return owed_ < 0.0 ? -owed_ : 0.0; }
  double speed() const { return speed_; }

 private:
  double speed_, quantum_, owed_ = 0.0;
  double slowdown_;  // 1/v - 1
};

// The speed a held-back computation achieved: its time on a CPU against that
// time plus the time it was held back; `if_none` when nothing was computed.
double achieved_speed(double on_cpu, double held, double if_none);

}  // namespace hetscale::measure

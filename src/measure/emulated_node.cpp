#include "hetscale/measure/emulated_node.hpp"

#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>

#include <cerrno>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/core.h>

namespace hetscale::measure {
namespace {

double seconds_of(clockid_t clock) {
  timespec now{};
  clock_gettime(clock, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

// User and system time of the children waited for so far.
double children_cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_CHILDREN, &usage);
  const auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec);
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

void sleep_until(double monotonic_seconds) {
  timespec until{};
  until.tv_sec = static_cast<time_t>(std::floor(monotonic_seconds));
  until.tv_nsec = static_cast<long>((monotonic_seconds - std::floor(monotonic_seconds)) * 1e9);
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, nullptr) == EINTR) {
  }
}

}  // namespace

namespace {

double checked_speed(double speed) {
  if (!std::isfinite(speed) || speed <= 0.0 || speed > 1.0)
    throw std::invalid_argument(fmt::format(
        "emulated speed must be in (0, 1] (a process cannot be emulated faster than this machine), got {}", speed));
  return speed;
}

}  // namespace

EmulatedProcessor::EmulatedProcessor(double speed) : speed_(checked_speed(speed)), hold_back_(speed_, 0.0) {}

// The computation's CPU time: this thread's, and its children's that it
// waited for (a command run per share: `bench fpm --kernel command:...`).
double EmulatedProcessor::begin() const { return seconds_of(CLOCK_THREAD_CPUTIME_ID) + children_cpu_seconds(); }

void EmulatedProcessor::end(double cpu_start) {
  const double cpu = seconds_of(CLOCK_THREAD_CPUTIME_ID) + children_cpu_seconds() - cpu_start;
  cpu_seconds_ += cpu;
  ++computations_;
#ifndef HETSCALE_SMPI
  // In the simulator a process is as fast as its simulated host: no sleep.
  hold_back_.computed(cpu, 0.0);
  if (const double due = hold_back_.due(); due > 0.0) {
    const double from = seconds_of(CLOCK_MONOTONIC);
    sleep_until(from + due);
    const double held = seconds_of(CLOCK_MONOTONIC) - from;
    hold_back_.slept(held);
    held_seconds_ += held;
  }
#endif
}

double monotonic_seconds() { return seconds_of(CLOCK_MONOTONIC); }

void finish_at_speed([[maybe_unused]] double started, [[maybe_unused]] double cpu_seconds, double speed) {
  if (!std::isfinite(speed) || speed <= 0.0 || speed > 1.0)
    throw std::invalid_argument(fmt::format("emulated speed must be in (0, 1], got {}", speed));
#ifndef HETSCALE_SMPI
  if (cpu_seconds > 0.0) sleep_until(started + cpu_seconds / speed);
#endif
}

void tighten_timer_slack() {
#ifndef HETSCALE_SMPI
  prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
#endif
}

Evaluation evaluate_on_emulated_node(const programs::Objective& objective, const ga::Genome& genome, double speed,
                                     double time_scale) {
  if (!std::isfinite(speed) || speed <= 0.0)
    throw std::invalid_argument(fmt::format("node speed must be a finite number > 0, got {}", speed));
  if (!std::isfinite(time_scale) || time_scale <= 0.0)
    throw std::invalid_argument(fmt::format("time scale must be a finite number > 0, got {}", time_scale));
  Evaluation evaluation;
  const double start = seconds_of(CLOCK_MONOTONIC);
  const double cpu_start = seconds_of(CLOCK_THREAD_CPUTIME_ID), children_start = children_cpu_seconds();
  try {
    evaluation.fitness = objective.fitness(genome);
  } catch (const programs::EvaluationFailed& failure) {
    evaluation.fitness = std::numeric_limits<double>::quiet_NaN();
    evaluation.failure = failure.what();
  }
  // Real computation: this thread's CPU time, and its children's (a user's
  // program run per evaluation).
  if (const auto fixed = objective.nominal_seconds())
    evaluation.nominal_seconds = *fixed * time_scale;
  else
    evaluation.nominal_seconds =
        seconds_of(CLOCK_THREAD_CPUTIME_ID) - cpu_start + children_cpu_seconds() - children_start;
  sleep_until(start + evaluation.nominal_seconds / speed);
  evaluation.compute_seconds = seconds_of(CLOCK_MONOTONIC) - start;
  return evaluation;
}

}  // namespace hetscale::measure

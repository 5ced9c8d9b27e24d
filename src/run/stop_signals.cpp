#include "hetscale/run/stop_signals.hpp"

#include <signal.h>
#include <string.h>

#include <array>
#include <atomic>
#include <stdexcept>
#include <string>

namespace hetscale::run {
namespace {

constexpr int caught[] = {SIGINT, SIGTERM};
std::atomic<int> stop_by{0};
std::array<std::atomic<pid_t>, 64> task_groups{};
std::atomic<bool> installed{false};
struct sigaction previous[std::size(caught)];

// Async-signal-safe: atomics and kill(2) only.
void on_stop_signal(int signal) {
  int none = 0;
  stop_by.compare_exchange_strong(none, signal);
  for (auto& group : task_groups) {
    const pid_t pid = group.load();
    if (pid > 0) kill(-pid, SIGTERM);
  }
}

}  // namespace

StopOnSignals::StopOnSignals() {
  if (installed.exchange(true)) throw std::logic_error("StopOnSignals: one is already installed");
  stop_by = 0;
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a sleep or a wait returns at once
  for (std::size_t i = 0; i < std::size(caught); ++i) sigaction(caught[i], &action, &previous[i]);
}

StopOnSignals::~StopOnSignals() {
  for (std::size_t i = 0; i < std::size(caught); ++i) sigaction(caught[i], &previous[i], nullptr);
  stop_by = 0;
  installed = false;
}

int stop_signal() { return stop_by.load(); }

void add_task_group(pid_t group) {
  for (auto& slot : task_groups) {
    pid_t empty = 0;
    if (slot.compare_exchange_strong(empty, group)) break;
  }
  // A stop asked before the group was tracked ends it here.
  if (stop_by.load() != 0) kill(-group, SIGTERM);
}

void remove_task_group(pid_t group) {
  for (auto& slot : task_groups) {
    pid_t expected = group;
    if (slot.compare_exchange_strong(expected, 0)) break;
  }
}

Stopped::Stopped(int signal)
    : std::runtime_error(std::string("stopped by SIG") + sigabbrev_np(signal)), signal_(signal) {}

void throw_if_stopped() {
  if (const int signal = stop_signal()) throw Stopped(signal);
}

}  // namespace hetscale::run

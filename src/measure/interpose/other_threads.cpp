#include "other_threads.hpp"

#include "schedstat.hpp"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>

namespace hetscale::interpose {
OtherThreads::~OtherThreads() {
  for (const auto& [id, thread] : threads_) close(thread.file);
}

void OtherThreads::start(Ticks now, Ticks rescan_interval) {
  std::lock_guard lock(mutex_);
  rescan_interval_ = rescan_interval;
  look(now, false);
}

void OtherThreads::look_now(Ticks now) {
  std::unique_lock lock(mutex_, std::try_to_lock);
  if (lock.owns_lock()) look(now, true);
}

std::map<int, OtherThreads::Times> OtherThreads::snapshot(Ticks now, const std::set<int>& tracked) {
  std::lock_guard lock(mutex_);
  look(now, true);
  std::map<int, Times> times;
  for (const auto& [id, thread] : threads_)
    if (!tracked.count(id) && !forgotten_.count(id)) times[id] = thread.last;
  return times;
}

void OtherThreads::forget(int thread) {
  std::lock_guard lock(mutex_);
  forgotten_.insert(thread);
}

void OtherThreads::look(Ticks now, bool count_new_from_start) {
  last_look_ = now;
  if (DIR* tasks = opendir("/proc/self/task")) {
    while (const dirent* entry = readdir(tasks)) {
      char* end = nullptr;
      const long id = std::strtol(entry->d_name, &end, 10);
      if (end == entry->d_name || *end != '\0' || threads_.count(static_cast<int>(id))) continue;
      const int file = open_schedstat(id);
      if (file < 0) continue;
      Thread thread;
      thread.file = file;
      if (!count_new_from_start) read_schedstat(file, thread.base_cpu_ns, thread.base_delay_ns);
      threads_[static_cast<int>(id)] = thread;
    }
    closedir(tasks);
  }
  for (auto& [id, thread] : threads_) {
    double on_cpu = 0.0, delay = 0.0;
    if (!read_schedstat(thread.file, on_cpu, delay)) continue;  // ended: keeps its last look
    thread.last.on_cpu_ns = std::max(0.0, on_cpu - thread.base_cpu_ns);
    thread.last.delay_ns = std::max(0.0, delay - thread.base_delay_ns);
  }
}

}  // namespace hetscale::interpose

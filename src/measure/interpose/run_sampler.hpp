#pragma once
// The sampler of runs of short calls (measure/short_calls.hpp): a thread of
// the library that looks every period at each thread of the process that
// calls MPI and tells its runs the time since its last look, so that a
// counted call that waited long (a late partner) is told from computation.
// While no thread is in a run it looks ten times less often. It makes no MPI
// call, takes a few microseconds a look, and is not one of the program's
// threads in the record.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace hetscale::interpose {

class RunSampler {
 public:
  RunSampler() = default;
  RunSampler(const RunSampler&) = delete;
  RunSampler& operator=(const RunSampler&) = delete;
  ~RunSampler() { stop(); }

  // Starts looking every `every` (while a thread is in a run).
  void start(std::chrono::nanoseconds every);
  // Stops and joins the thread (nothing when not started).
  void stop();

 private:
  void look_until_stopped(std::chrono::nanoseconds every);
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace hetscale::interpose

#pragma once
// One entry per thread (a struct with an `int id`, the kernel's thread id),
// made at the thread's first need of it; its thread writes it, any thread
// may read all of them. Entries live as long as the registry, which the
// library never destroys: a thread may still use its entry while the process
// exits.
#include <sys/syscall.h>
#include <unistd.h>

#include <memory>
#include <mutex>
#include <vector>

namespace hetscale::interpose {

template <class Entry>
class ThreadRegistry {
 public:
  // A new entry for the calling thread.
  Entry& add() {
    std::lock_guard lock(mutex_);
    entries_.push_back(std::make_unique<Entry>());
    entries_.back()->id = static_cast<int>(syscall(SYS_gettid));
    return *entries_.back();
  }

  template <class Visit>
  void for_each(Visit&& visit) {
    std::lock_guard lock(mutex_);
    for (const auto& entry : entries_) visit(*entry);
  }

 private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<Entry>> entries_;
};

}  // namespace hetscale::interpose

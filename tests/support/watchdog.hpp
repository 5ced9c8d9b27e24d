#pragma once
// Ends the test process if the code under test does not return (gtest has no
// time limit of its own): SIGALRM after `seconds`, cancelled on scope exit.
#include <unistd.h>

namespace hetscale::testing_support {

class Watchdog {
 public:
  explicit Watchdog(unsigned seconds) { alarm(seconds); }
  ~Watchdog() { alarm(0); }
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;
};

}  // namespace hetscale::testing_support

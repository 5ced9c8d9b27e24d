// at_speed --speeds v1,v2,... --slot K [--record FILE] COMMAND: runs COMMAND
// with /bin/sh -c as hetscale farm's client K (1-based) runs a task at the
// emulated speed v_K: after it, sleeps until its CPU time / v_K has passed
// since it began. Exits with the command's exit code. With --record, appends
// "CPU_SECONDS<TAB>COMMAND" to FILE (one write). For GNU parallel, whose job
// slot {%} is K:
//   parallel -j 8 at_speed --speeds 0.5,... --slot {%} {} :::: tasks.txt
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "hetscale/io/number_list.hpp"
#include "hetscale/measure/emulated_node.hpp"
#include "hetscale/run/shell_task.hpp"

int main(int argc, char** argv) {
  const bool recorded = argc == 8 && std::string(argv[5]) == "--record";
  if ((argc != 6 && !recorded) || std::string(argv[1]) != "--speeds" || std::string(argv[3]) != "--slot") {
    std::fprintf(stderr, "usage: at_speed --speeds v1,v2,... --slot K [--record FILE] COMMAND\n");
    return 2;
  }
  const char* command = argv[argc - 1];
  try {
    const auto speeds = hetscale::io::parse_number_list(argv[2], "--speeds");
    const long slot = std::strtol(argv[4], nullptr, 10);
    if (slot < 1 || static_cast<std::size_t>(slot) > speeds.size()) {
      std::fprintf(stderr, "at_speed: --slot must be from 1 to %zu, got %s\n", speeds.size(), argv[4]);
      return 2;
    }
    hetscale::measure::tighten_timer_slack();
    const double started = hetscale::measure::monotonic_seconds();
    const auto outcome = hetscale::run::run_shell_task(command);
    hetscale::measure::finish_at_speed(started, outcome.cpu_seconds, speeds[static_cast<std::size_t>(slot - 1)]);
    if (recorded) {
      const std::string line = std::to_string(outcome.cpu_seconds) + "\t" + command + "\n";
      const int fd = open(argv[6], O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
      if (fd < 0 || write(fd, line.data(), line.size()) != static_cast<ssize_t>(line.size())) {
        std::fprintf(stderr, "at_speed: cannot append to %s\n", argv[6]);
        return 2;
      }
      close(fd);
    }
    return outcome.exit_code;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "at_speed: %s\n", error.what());
    return 2;
  }
}

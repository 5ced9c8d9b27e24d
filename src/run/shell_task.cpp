#include "hetscale/run/shell_task.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>

#include <fmt/core.h>

#include "hetscale/run/stop_signals.hpp"

namespace hetscale::run {
namespace {

constexpr int command_not_started = 127;
// After SIGTERM, how long the task's group has to end before SIGKILL.
constexpr auto grace = std::chrono::milliseconds(500);

// A file descriptor closed when it goes out of scope.
class Descriptor {
 public:
  explicit Descriptor(int fd) : fd_(fd) {}
  ~Descriptor() {
    if (fd_ >= 0) close(fd_);
  }
  Descriptor(const Descriptor&) = delete;
  Descriptor& operator=(const Descriptor&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

int open_output(const std::string& path) {
  if (path.empty()) return open("/dev/null", O_WRONLY | O_CLOEXEC);
  return open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
}

double seconds_of(const timeval& time) {
  return static_cast<double>(time.tv_sec) + 1e-6 * static_cast<double>(time.tv_usec);
}

void pause_for(long nanoseconds) {
  const timespec pause{0, nanoseconds};
  nanosleep(&pause, nullptr);
}

// Waits for `pid` until it ends, `deadline` passes (no deadline when
// `bounded` is false) or, when `stoppable`, the run is asked to stop; true
// when it ended, its status and usage filled in.
bool wait_for(pid_t pid, bool bounded, std::chrono::steady_clock::time_point deadline, int& status, rusage& usage,
              bool stoppable = false) {
  long pause_ns = 100'000;
  for (;;) {
    const pid_t ended = wait4(pid, &status, WNOHANG, &usage);
    if (ended == pid) return true;
    if (ended < 0 && errno != EINTR) {  // not ours to wait for (SIGCHLD ignored by whoever started us)
      status = -1;
      return true;
    }
    if (bounded && std::chrono::steady_clock::now() >= deadline) return false;
    if (stoppable && stop_signal() != 0) return false;
    pause_for(pause_ns);
    pause_ns = std::min(pause_ns * 2, 10'000'000L);
  }
}

}  // namespace

ShellTaskOutcome run_shell_task(const std::string& command, const ShellTaskOptions& options) {
  ShellTaskOutcome outcome;
  const auto not_started = [&](const std::string& why) {
    outcome.exit_code = command_not_started;
    outcome.failure = why;
    return outcome;
  };
  const Descriptor input(open("/dev/null", O_RDONLY | O_CLOEXEC));
  const Descriptor output(open_output(options.output_path));
  if (output.get() < 0)
    return not_started(fmt::format("cannot write {}: {}", options.output_path, std::strerror(errno)));
  const Descriptor errors(open_output(options.error_path));
  if (errors.get() < 0)
    return not_started(fmt::format("cannot write {}: {}", options.error_path, std::strerror(errno)));

  // A child is waited for only when SIGCHLD is not ignored (a disposition
  // inherited from whoever started this process).
  struct sigaction child_signal {};
  if (sigaction(SIGCHLD, nullptr, &child_signal) == 0 && child_signal.sa_handler == SIG_IGN) signal(SIGCHLD, SIG_DFL);
  const pid_t parent = getpid();
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid < 0) return not_started(fmt::format("cannot start /bin/sh: {}", std::strerror(errno)));
  if (pid == 0) {
    // The child: a process group of its own, ended with this process (a
    // client killed mid-task leaves no shell behind), then the shell.
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(command_not_started);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    signal(SIGPIPE, SIG_DFL);
    if (dup2(input.get(), STDIN_FILENO) < 0 || dup2(output.get(), STDOUT_FILENO) < 0 ||
        dup2(errors.get(), STDERR_FILENO) < 0)
      _exit(command_not_started);
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(command_not_started);
  }
  setpgid(pid, pid);  // also here: the group exists before a timeout or a stop can signal it
  add_task_group(pid);

  int status = 0;
  rusage usage{};
  const bool bounded = options.timeout_seconds > 0.0;
  const auto deadline =
      start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                  std::chrono::duration<double>(bounded ? options.timeout_seconds : 0.0));
  if (!wait_for(pid, bounded, deadline, status, usage, true)) {
    outcome.interrupted = stop_signal() != 0;
    outcome.timed_out = !outcome.interrupted;
    kill(-pid, SIGTERM);
    if (!wait_for(pid, true, std::chrono::steady_clock::now() + grace, status, usage)) {
      kill(-pid, SIGKILL);
      wait_for(pid, false, {}, status, usage);
    }
    kill(-pid, SIGKILL);  // children that outlived the shell
  }
  remove_task_group(pid);
  outcome.cpu_seconds = seconds_of(usage.ru_utime) + seconds_of(usage.ru_stime);
  if (status == -1) {
    outcome.exit_code = command_not_started;
    outcome.failure = fmt::format("cannot wait for /bin/sh: {}", std::strerror(errno));
  } else if (WIFEXITED(status)) {
    outcome.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    outcome.signal = WTERMSIG(status);
    outcome.exit_code = 128 + outcome.signal;
    // The stop's handler ended the group before the wait saw the stop asked.
    if (!outcome.timed_out && stop_signal() != 0) outcome.interrupted = true;
  }
  return outcome;
}

}  // namespace hetscale::run

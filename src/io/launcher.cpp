#include "hetscale/io/launcher.hpp"

#include <cerrno>
#include <cstdio>
#include <cstdlib>

#include <fcntl.h>
#include <unistd.h>

#include <fmt/core.h>

namespace hetscale::io {
namespace {

// The variable the launcher (Open MPI, MPICH) sets first of `variables`, or null.
const char* launcher_variable(std::initializer_list<const char*> variables) {
  for (const char* variable : variables)
    if (const char* value = std::getenv(variable); value && *value) return value;
  return nullptr;
}

const char* launcher_rank_text() { return launcher_variable({"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"}); }

// Whether the parent process's stderr is a terminal (Linux: /proc).
bool parent_stderr_is_terminal() {
  const std::string path = fmt::format("/proc/{}/fd/2", getppid());
  const int descriptor = open(path.c_str(), O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
  if (descriptor < 0) return false;
  const bool terminal = isatty(descriptor) == 1;
  close(descriptor);
  return terminal;
}

}  // namespace

bool started_by_launcher() { return launcher_rank_text() != nullptr; }

int launcher_rank() {
  const char* rank = launcher_rank_text();
  return rank ? std::atoi(rank) : 0;
}

std::size_t launcher_size() {
  const char* size = launcher_variable({"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"});
  return size ? static_cast<std::size_t>(std::atol(size)) : 0;
}

ProgressOutput progress_output_on_rank(int rank) {
  const ProgressOutput chosen = progress_output_from_environment();
  if (rank != 0) return ProgressOutput::never;
  if (chosen != ProgressOutput::automatic || isatty(STDERR_FILENO) == 1) return chosen;
  // Under mpiexec a rank's stderr is a pipe to the launcher, which copies it
  // to its own stderr as it comes: progress is shown when that is a terminal.
  if (launcher_rank_text() && parent_stderr_is_terminal()) return ProgressOutput::always;
  return ProgressOutput::never;
}

void say_on_stderr(const std::string& line) {
  // One write(2) (a pipe takes up to PIPE_BUF bytes whole); a longer line
  // goes on from where a partial write stopped.
  std::fflush(stderr);
  for (std::size_t written = 0; written < line.size();) {
    const ssize_t now = ::write(STDERR_FILENO, line.data() + written, line.size() - written);
    if (now < 0 && errno == EINTR) continue;
    if (now <= 0) return;
    written += static_cast<std::size_t>(now);
  }
}

}  // namespace hetscale::io

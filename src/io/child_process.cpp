#include "hetscale/io/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include <fmt/core.h>

#include "hetscale/io/number_list.hpp"

extern char** environ;

namespace hetscale::io {
namespace {

// A pipe whose ends close themselves.
struct Pipe {
  int read_end = -1, write_end = -1;
  Pipe() {
    int ends[2];
    if (pipe2(ends, O_CLOEXEC) != 0)
      throw std::runtime_error(fmt::format("cannot create a pipe: {}", std::strerror(errno)));
    read_end = ends[0];
    write_end = ends[1];
  }
  ~Pipe() {
    close_read();
    close_write();
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  void close_read() {
    if (read_end >= 0) ::close(read_end);
    read_end = -1;
  }
  void close_write() {
    if (write_end >= 0) ::close(write_end);
    write_end = -1;
  }
};

// SIGPIPE held back while writing to a child that may have gone, so that a
// child that exits early is an exit code, not the end of this process.
class SigpipeBlocked {
 public:
  SigpipeBlocked() {
    sigemptyset(&pipe_signal_);
    sigaddset(&pipe_signal_, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_signal_, &previous_);
    sigset_t pending;
    sigpending(&pending);
    callers_pending_ = sigismember(&pending, SIGPIPE) == 1;
  }
  // A SIGPIPE the writes raised is taken; one the caller already had pending
  // (blocked) is the caller's and stays pending.
  ~SigpipeBlocked() {
    const timespec none{0, 0};
    if (!callers_pending_)
      while (sigtimedwait(&pipe_signal_, nullptr, &none) > 0) {
      }
    pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
  }
  SigpipeBlocked(const SigpipeBlocked&) = delete;
  SigpipeBlocked& operator=(const SigpipeBlocked&) = delete;

 private:
  sigset_t pipe_signal_{}, previous_{};
  bool callers_pending_ = false;
};

}  // namespace

ProgramOutput run_program(const std::vector<std::string>& arguments, std::string_view input) {
  if (arguments.empty()) throw std::invalid_argument("run_program: no program given");
  Pipe to_child, from_child, errors_from_child;

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, to_child.read_end, STDIN_FILENO);
  posix_spawn_file_actions_adddup2(&actions, from_child.write_end, STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, errors_from_child.write_end, STDERR_FILENO);
  std::vector<char*> argv;
  for (const auto& argument : arguments) argv.push_back(const_cast<char*>(argument.c_str()));
  argv.push_back(nullptr);
  pid_t child = 0;
  const int spawned = posix_spawnp(&child, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) throw ProgramUnavailable(fmt::format("cannot run {}: {}", arguments[0], std::strerror(spawned)));
  to_child.close_read();
  from_child.close_write();
  errors_from_child.close_write();
  // Writes that take what the pipe has room for: a blocking write of the whole
  // input waits for the child to read it all while the child waits for its
  // output to be read (cat with more input than a pipe holds).
  fcntl(to_child.write_end, F_SETFL, fcntl(to_child.write_end, F_GETFL) | O_NONBLOCK);

  ProgramOutput result;
  {
    SigpipeBlocked hold;
    std::size_t written = 0;
    if (input.empty()) to_child.close_write();
    std::array<char, 65536> buffer{};
    while (from_child.read_end >= 0 || errors_from_child.read_end >= 0) {
      std::array<pollfd, 3> watched{};
      nfds_t count = 0;
      auto watch = [&](int fd, short events) {
        if (fd >= 0) watched[count++] = pollfd{fd, events, 0};
      };
      watch(to_child.write_end, POLLOUT);
      watch(from_child.read_end, POLLIN);
      watch(errors_from_child.read_end, POLLIN);
      if (poll(watched.data(), count, -1) < 0) {
        if (errno == EINTR) continue;
        break;
      }
      for (nfds_t i = 0; i < count; ++i) {
        const auto& entry = watched[i];
        if (entry.revents == 0) continue;
        if (entry.fd == to_child.write_end) {
          const ssize_t n = ::write(entry.fd, input.data() + written, input.size() - written);
          if (n > 0) written += static_cast<std::size_t>(n);
          if (n < 0 && errno != EINTR && errno != EAGAIN) written = input.size();  // the child stopped reading
          if (written == input.size()) to_child.close_write();
          continue;
        }
        const ssize_t n = ::read(entry.fd, buffer.data(), buffer.size());
        if (n > 0) {
          (entry.fd == from_child.read_end ? result.output : result.errors)
              .append(buffer.data(), static_cast<std::size_t>(n));
        } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
          if (entry.fd == from_child.read_end)
            from_child.close_read();
          else
            errors_from_child.close_read();
        }
      }
    }
    to_child.close_write();
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  return result;
}

namespace {

// An executable file (a directory is searchable, X_OK, but no program).
bool executable_file(const std::string& path) {
  struct stat status {};
  return stat(path.c_str(), &status) == 0 && S_ISREG(status.st_mode) && access(path.c_str(), X_OK) == 0;
}

}  // namespace

std::optional<std::string> program_path(const std::string& program) {
  if (program.empty()) return std::nullopt;
  if (program.find('/') != std::string::npos)
    return executable_file(program) ? std::optional<std::string>(program) : std::nullopt;
  const char* path = std::getenv("PATH");
  for (const std::string_view folder : split_at(path ? path : "/usr/bin:/bin", ':')) {
    const std::string candidate = std::string(folder.empty() ? "." : folder) + "/" + program;
    if (executable_file(candidate)) return candidate;
  }
  return std::nullopt;
}

bool program_available(const std::string& program) { return program_path(program).has_value(); }

}  // namespace hetscale::io

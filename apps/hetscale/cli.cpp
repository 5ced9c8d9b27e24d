#include "cli.hpp"

#include <cerrno>
#include <chrono>
#include <thread>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include <fcntl.h>
#include <unistd.h>

#include <fmt/core.h>

#include "hetscale/io/files.hpp"
#include "hetscale/io/number_list.hpp"
#include "hetscale/mpi/farm.hpp"
#include "hetscale/run/stop_signals.hpp"

namespace hetscale::cli {

Output written_and_shown(const std::string& json, const std::string& out, bool print_json,
                         const std::function<std::string()>& text) {
  if (!out.empty()) io::write_file_atomically(out, json);
  return {print_json ? json : text()};
}

int print(const Output& output) {
  std::fwrite(output.text.data(), 1, output.text.size(), stdout);
  return output.code;
}

double single_number(const std::string& text, const std::string& option) {
  const auto values = io::parse_number_list(text, option);
  if (values.size() != 1) throw InputError(option, "", fmt::format("expects one number, got {}", values.size()));
  return values.front();
}

std::size_t count_option(const std::string& text, const std::string& option) {
  const double value = single_number(text, option);
  if (value < 1.0 || value != std::floor(value) || value > 1e9)
    throw InputError(option, "", fmt::format("must be a whole number >= 1, got {:g}", value));
  return static_cast<std::size_t>(value);
}

std::vector<double> per_rank_speeds(const std::string& text, const std::string& option, int ranks) {
  if (text.empty()) return {};
  auto speeds = io::parse_positive_list(text, option);
  if (speeds.size() != static_cast<std::size_t>(ranks))
    throw InputError(option, "", fmt::format("{} speeds for {} ranks: give one per rank", speeds.size(), ranks));
  return speeds;
}

std::vector<double> emulated_speeds_option(const std::string& text, int ranks) {
  auto speeds = per_rank_speeds(text, "--speeds", ranks);
  for (const double speed : speeds)
    if (speed > 1.0) throw InputError("--speeds", "", fmt::format("must be in (0, 1], got {}", speed));
  return speeds;
}

namespace {

// The rank mpiexec gave this process (Open MPI or MPICH), or null when it was
// not started by mpiexec.
const char* launcher_rank_text() {
  for (const char* variable : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"})
    if (const char* value = std::getenv(variable); value && *value) return value;
  return nullptr;
}

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

io::ProgressOutput progress_output_on_rank(int rank) {
  const io::ProgressOutput chosen = io::progress_output_from_environment();
  if (rank != 0) return io::ProgressOutput::never;
  if (chosen != io::ProgressOutput::automatic || isatty(STDERR_FILENO) == 1) return chosen;
  // Under mpiexec a rank's stderr is a pipe to the launcher, which copies it
  // to its own stderr as it comes: progress is shown when that is a terminal.
  if (launcher_rank_text() && parent_stderr_is_terminal()) return io::ProgressOutput::always;
  return io::ProgressOutput::never;
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

int run_mpi_command(int& argc, char**& argv, const std::function<void(int rank, int ranks)>& prepare,
                    const std::function<int(int rank, int ranks)>& body) {
  mpi::MpiSession mpi(argc, argv);
  try {
    prepare(mpi.rank(), mpi.size());
  } catch (const std::invalid_argument& error) {
    if (mpi.rank() == 0) say_on_stderr(fmt::format("hetscale: {}\n", error.what()));
    return exit_bad_input;
  }
  try {
    return body(mpi.rank(), mpi.size());
  } catch (const run::Stopped& stopped) {
    // Every rank is stopping and the launcher is ending the job: this rank
    // ends as a process ended by the signal says (128 + signal). The others
    // leave rank 0 the time to say what stopped: a rank that exits first
    // makes Open MPI's mpiexec kill the rest at once (SIGKILL).
    std::fflush(stdout);
    if (mpi.rank() != 0) std::this_thread::sleep_for(std::chrono::seconds(2));  // resumed after a signal
    std::_Exit(128 + stopped.signal());
  } catch (const std::exception& error) {
    say_on_stderr(fmt::format("hetscale: internal error on rank {}: {}\n", mpi.rank(), error.what()));
    mpi::MpiSession::abort(exit_internal_error);
  }
}

namespace {
// A path relative to this executable's folder.
std::filesystem::path beside_executable(const char* relative) {
  std::error_code error;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
  return (self.parent_path() / relative).lexically_normal();
}

// An installed hetscale: its data where `cmake --install` put it, relative to
// the executable (HETSCALE_INSTALLED_DATA, cmake/install.cmake).
bool installed() { return std::filesystem::is_directory(beside_executable(HETSCALE_INSTALLED_DATA)); }
}  // namespace

std::string home_dir() {
  if (const char* home = std::getenv("HETSCALE_HOME"); home && *home) return home;
  return installed() ? beside_executable(HETSCALE_INSTALLED_DATA).string() : HETSCALE_HOME;
}

std::string helper_path(const std::string& name, const std::string& built) {
  return installed() ? (beside_executable(HETSCALE_INSTALLED_HELPERS) / name).string() : built;
}

}  // namespace hetscale::cli

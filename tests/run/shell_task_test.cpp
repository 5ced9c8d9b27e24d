// A shell command as a task: /bin/sh -c in a process group of its own, its
// exit code or ending signal (128 + the signal), its output to files or
// discarded, its CPU time, a timeout that ends the whole group (SIGTERM, then
// SIGKILL after a grace), and an output file that cannot be opened as an
// outcome, not an exception. No test times the task except generous upper
// bounds that catch a hang.
#include "hetscale/run/shell_task.hpp"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "support/watchdog.hpp"

#include "hetscale/io/files.hpp"
#include "hetscale/run/stop_signals.hpp"

namespace hetscale::run {
namespace {

using testing_support::Watchdog;

// A file of the test's own temporary folder.
std::string PathIn(const io::TemporaryFolder& folder, const std::string& name) {
  return (std::filesystem::path(folder.path()) / name).string();
}

// The process `pid` has ended: no such process, or a zombie waiting for its
// new parent to reap it. Asked again for up to 5 s, the kernel's delivery of
// SIGKILL and the reaping being asynchronous.
bool ProcessEnds(pid_t pid) {
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  for (;;) {
    if (kill(pid, 0) != 0 && errno == ESRCH) return true;
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const auto name_end = text.rfind(')');
    if (!stat || name_end == std::string::npos || name_end + 2 >= text.size()) return true;  // gone meanwhile
    const auto name_begin = text.find('(');
    const auto running = text.substr(name_begin + 1, name_end - name_begin - 1);
    const char state = text[name_end + 2];
    if (state == 'Z' || state == 'X') return true;
    if (std::chrono::steady_clock::now() >= give_up) {
      ADD_FAILURE() << "process " << pid << " (" << running << ") is still in state " << state;
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

// The process number a task wrote to `path` (0 if none).
pid_t PidIn(const std::string& path) {
  std::ifstream file(path);
  long pid = 0;
  file >> pid;
  return static_cast<pid_t>(pid);
}

double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST(ShellTask, SuccessIsExitCodeZero) {
  const Watchdog watchdog(60);
  const auto outcome = run_shell_task("true");
  EXPECT_EQ(outcome.exit_code, 0);
  EXPECT_EQ(outcome.signal, 0);
  EXPECT_FALSE(outcome.timed_out);
  EXPECT_EQ(outcome.failure, "");
  EXPECT_TRUE(outcome.succeeded());
}

TEST(ShellTask, ExitCodePassesThrough) {
  const Watchdog watchdog(60);
  const auto outcome = run_shell_task("exit 7");
  EXPECT_EQ(outcome.exit_code, 7);
  EXPECT_EQ(outcome.signal, 0);
  EXPECT_FALSE(outcome.timed_out);
  EXPECT_EQ(outcome.failure, "");
  EXPECT_FALSE(outcome.succeeded());
}

TEST(ShellTask, EndedBySignalIs128PlusTheSignal) {
  const Watchdog watchdog(60);
  const auto outcome = run_shell_task("kill -9 $$");
  EXPECT_EQ(outcome.signal, 9);
  EXPECT_EQ(outcome.exit_code, 137);
  EXPECT_FALSE(outcome.timed_out);
  EXPECT_FALSE(outcome.succeeded());
}

TEST(ShellTask, StandardOutputAndErrorGoToTheirFiles) {
  const Watchdog watchdog(60);
  const io::TemporaryFolder folder("hetscale-shell-task-test");
  ShellTaskOptions options;
  options.output_path = PathIn(folder, "out.txt");
  options.error_path = PathIn(folder, "err.txt");
  const auto outcome = run_shell_task("echo to output; echo to errors >&2", options);
  EXPECT_TRUE(outcome.succeeded());
  EXPECT_EQ(io::read_text_file(options.output_path), "to output\n");
  EXPECT_EQ(io::read_text_file(options.error_path), "to errors\n");
}

// An output file is emptied first, not appended to.
TEST(ShellTask, OutputFileIsTruncated) {
  const Watchdog watchdog(60);
  const io::TemporaryFolder folder("hetscale-shell-task-test");
  ShellTaskOptions options;
  options.output_path = PathIn(folder, "out.txt");
  std::ofstream(options.output_path) << "an older and much longer content\n";
  EXPECT_TRUE(run_shell_task("echo new", options).succeeded());
  EXPECT_EQ(io::read_text_file(options.output_path), "new\n");
}

// With no files the output is discarded: nothing of it reaches this
// process's own output, and the task still succeeds.
TEST(ShellTask, DefaultDiscardsOutput) {
  const Watchdog watchdog(60);
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  const auto outcome = run_shell_task("echo hetscale-discarded-output; echo hetscale-discarded-errors >&2");
  const std::string output = testing::internal::GetCapturedStdout();
  const std::string errors = testing::internal::GetCapturedStderr();
  EXPECT_TRUE(outcome.succeeded());
  EXPECT_EQ(output.find("hetscale-discarded"), std::string::npos) << output;
  EXPECT_EQ(errors.find("hetscale-discarded"), std::string::npos) << errors;
}

// Standard input is empty: a task that reads it ends at once.
TEST(ShellTask, StandardInputIsEmpty) {
  const Watchdog watchdog(60);
  const io::TemporaryFolder folder("hetscale-shell-task-test");
  ShellTaskOptions options;
  options.output_path = PathIn(folder, "out.txt");
  EXPECT_TRUE(run_shell_task("cat; echo read", options).succeeded());
  EXPECT_EQ(io::read_text_file(options.output_path), "read\n");
}

TEST(ShellTask, BusyLoopHasCpuTime) {
  const Watchdog watchdog(120);
  const auto outcome = run_shell_task("i=0; while [ $i -lt 300000 ]; do i=$((i + 1)); done");
  EXPECT_TRUE(outcome.succeeded());
  EXPECT_GT(outcome.cpu_seconds, 0.0);
}

// The timeout ends the shell and the children it started: a background
// `sleep` is gone too once run_shell_task returns.
TEST(ShellTask, TimeoutEndsTheTaskAndItsChildren) {
  const Watchdog watchdog(60);
  const io::TemporaryFolder folder("hetscale-shell-task-test");
  const std::string pid_file = PathIn(folder, "child.pid");
  ShellTaskOptions options;
  options.timeout_seconds = 0.5;
  const auto start = std::chrono::steady_clock::now();
  const auto outcome = run_shell_task("sleep 30 & echo $! > '" + pid_file + "'; wait", options);
  EXPECT_LT(SecondsSince(start), 20.0);
  EXPECT_TRUE(outcome.timed_out);
  EXPECT_FALSE(outcome.succeeded());
  EXPECT_NE(outcome.signal, 0);
  EXPECT_EQ(outcome.exit_code, 128 + outcome.signal);
  const pid_t child = PidIn(pid_file);
  ASSERT_GT(child, 0) << "the task wrote no process number to " << pid_file;
  EXPECT_TRUE(ProcessEnds(child));
}

// A task that ignores SIGTERM is ended by SIGKILL after the grace.
TEST(ShellTask, TimeoutEndsATaskThatIgnoresTerm) {
  const Watchdog watchdog(60);
  ShellTaskOptions options;
  options.timeout_seconds = 0.5;
  const auto start = std::chrono::steady_clock::now();
  const auto outcome = run_shell_task("trap '' TERM; sleep 30", options);
  EXPECT_LT(SecondsSince(start), 20.0);
  EXPECT_TRUE(outcome.timed_out);
  EXPECT_EQ(outcome.signal, SIGKILL);
  EXPECT_EQ(outcome.exit_code, 128 + SIGKILL);
  EXPECT_FALSE(outcome.succeeded());
}

// SIGTERM (as mpiexec sends it when interrupted) while StopOnSignals lives:
// the handler ends the running task's whole group at once, the task is
// interrupted (not timed out, not a success), and the stop is asked.
TEST(ShellTask, StopSignalEndsTheTaskAndItsChildren) {
  const Watchdog watchdog(60);
  const io::TemporaryFolder folder("hetscale-shell-task-test");
  const std::string pid_file = PathIn(folder, "child.pid");
  const StopOnSignals stop;
  EXPECT_EQ(stop_signal(), 0);
  std::thread signaller([&pid_file] {
    while (PidIn(pid_file) == 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    kill(getpid(), SIGTERM);
  });
  const auto start = std::chrono::steady_clock::now();
  const auto outcome = run_shell_task("sleep 30 & echo $! > '" + pid_file + "'; wait", {});
  signaller.join();
  EXPECT_LT(SecondsSince(start), 20.0);
  EXPECT_TRUE(outcome.interrupted);
  EXPECT_FALSE(outcome.timed_out);
  EXPECT_FALSE(outcome.succeeded());
  EXPECT_EQ(stop_signal(), SIGTERM);
  EXPECT_THROW(throw_if_stopped(), Stopped);
  EXPECT_TRUE(ProcessEnds(PidIn(pid_file)));
}

// Without StopOnSignals nothing asks for a stop.
TEST(ShellTask, NoStopWithoutTheHandlers) {
  EXPECT_EQ(stop_signal(), 0);
  EXPECT_NO_THROW(throw_if_stopped());
}

// A task that ends within its timeout is not timed out.
TEST(ShellTask, TaskWithinItsTimeoutIsNotTimedOut) {
  const Watchdog watchdog(60);
  ShellTaskOptions options;
  options.timeout_seconds = 30.0;
  const auto outcome = run_shell_task("exit 3", options);
  EXPECT_FALSE(outcome.timed_out);
  EXPECT_EQ(outcome.exit_code, 3);
  EXPECT_EQ(outcome.signal, 0);
}

// An output file in a missing folder: the task is not started, and the
// outcome says why, with the shell's "not found" exit code.
TEST(ShellTask, OutputInMissingFolderIsAFailureNotACrash) {
  const Watchdog watchdog(60);
  const io::TemporaryFolder folder("hetscale-shell-task-test");
  const std::string marker = PathIn(folder, "ran.txt");
  ShellTaskOptions options;
  options.output_path = PathIn(folder, "no-such-folder/out.txt");
  const auto outcome = run_shell_task("touch '" + marker + "'", options);
  EXPECT_NE(outcome.failure, "");
  EXPECT_NE(outcome.failure.find("no-such-folder/out.txt"), std::string::npos) << outcome.failure;
  EXPECT_EQ(outcome.exit_code, 127);
  EXPECT_FALSE(outcome.succeeded());
  EXPECT_FALSE(std::filesystem::exists(marker));
}

TEST(ShellTask, ErrorsInMissingFolderIsAFailureNotACrash) {
  const Watchdog watchdog(60);
  const io::TemporaryFolder folder("hetscale-shell-task-test");
  ShellTaskOptions options;
  options.error_path = PathIn(folder, "no-such-folder/err.txt");
  const auto outcome = run_shell_task("true", options);
  EXPECT_NE(outcome.failure.find("no-such-folder/err.txt"), std::string::npos) << outcome.failure;
  EXPECT_EQ(outcome.exit_code, 127);
  EXPECT_FALSE(outcome.succeeded());
}

}  // namespace
}  // namespace hetscale::run

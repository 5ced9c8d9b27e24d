#include "hetscale/io/child_process.hpp"

#include <signal.h>
#include <unistd.h>

#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "support/watchdog.hpp"

namespace hetscale::io {
namespace {

// Several megabytes that are not one byte repeated (a lost or reordered
// block would show), larger than any pipe buffer.
std::string large_input() {
  std::string text;
  for (int line = 0; text.size() < 6 * 1024 * 1024; ++line) text += "line " + std::to_string(line) + " of the input\n";
  return text;
}

using testing_support::Watchdog;

TEST(RunProgram, CatEchoesStandardInputToStandardOutput) {
  const auto result = run_program({"cat"}, "one\ntwo\n");
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.output, "one\ntwo\n");
  EXPECT_EQ(result.errors, "");
}

TEST(RunProgram, NoInputClosesStandardInput) {
  const Watchdog watchdog(60);
  const auto result = run_program({"cat"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.output, "");
}

// cat writes while it reads: with the input written in one blocking call the
// child's output pipe fills and both wait for each other.
TEST(RunProgram, CatEchoesSeveralMegabytesWithoutDeadlock) {
  const Watchdog watchdog(60);
  const std::string input = large_input();
  const auto result = run_program({"cat"}, input);
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.output.size(), input.size());
  EXPECT_TRUE(result.output == input);
}

TEST(RunProgram, StandardErrorIsCollectedApartWithTheExitCode) {
  const auto result = run_program({"sh", "-c", "echo out; echo x >&2; exit 3"});
  EXPECT_EQ(result.exit_code, 3);
  EXPECT_EQ(result.output, "out\n");
  EXPECT_EQ(result.errors, "x\n");
}

TEST(RunProgram, ArgumentsArePassedAsTheyAre) {
  const auto result = run_program({"sh", "-c", "printf '%s|' \"$@\"", "sh", "a b", "", "'c'"});
  EXPECT_EQ(result.exit_code, 0);
  EXPECT_EQ(result.output, "a b||'c'|");
}

TEST(RunProgram, ProgramEndedBySignalIs128PlusTheSignal) {
  const auto result = run_program({"sh", "-c", "kill -TERM $$"});
  EXPECT_EQ(result.exit_code, 128 + SIGTERM);
}

// The child exits without reading: writing to it raises SIGPIPE, which must not
// end this process; the child's exit code is the result, and SIGPIPE is neither
// left blocked nor pending afterwards.
TEST(RunProgram, ChildThatDoesNotReadItsInputGivesItsExitCode) {
  const Watchdog watchdog(60);
  const std::string input = large_input();
  const auto result = run_program({"sh", "-c", "exit 5"}, input);
  EXPECT_EQ(result.exit_code, 5);

  const auto partial = run_program({"head", "-c", "10"}, input);
  EXPECT_EQ(partial.exit_code, 0);
  EXPECT_EQ(partial.output, input.substr(0, 10));

  sigset_t blocked, pending;
  sigemptyset(&blocked);
  pthread_sigmask(SIG_BLOCK, nullptr, &blocked);
  EXPECT_EQ(sigismember(&blocked, SIGPIPE), 0);
  sigpending(&pending);
  EXPECT_EQ(sigismember(&pending, SIGPIPE), 0);
}

// A SIGPIPE the caller already had pending (blocked) stays the caller's: still
// pending, and still blocked, after a run whose writes raised their own.
TEST(RunProgram, LeavesTheCallersPendingSigpipe) {
  const Watchdog watchdog(60);
  sigset_t pipe_signal, previous, pending, blocked;
  sigemptyset(&pipe_signal);
  sigaddset(&pipe_signal, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe_signal, &previous);
  raise(SIGPIPE);
  const auto result = run_program({"sh", "-c", "exit 5"}, large_input());
  EXPECT_EQ(result.exit_code, 5);
  sigpending(&pending);
  EXPECT_EQ(sigismember(&pending, SIGPIPE), 1);
  pthread_sigmask(SIG_BLOCK, nullptr, &blocked);
  EXPECT_EQ(sigismember(&blocked, SIGPIPE), 1);
  const timespec none{0, 0};
  while (sigtimedwait(&pipe_signal, nullptr, &none) > 0) {
  }
  pthread_sigmask(SIG_SETMASK, &previous, nullptr);
}

TEST(RunProgram, MissingProgramThrowsNamingIt) {
  try {
    run_program({"hetscale-no-such-program", "--version"}, "input");
    FAIL() << "expected ProgramUnavailable";
  } catch (const ProgramUnavailable& error) {  // the machine lacks it: not a bug, not bad input
    EXPECT_NE(std::string(error.what()).find("hetscale-no-such-program"), std::string::npos) << error.what();
  }
}

TEST(RunProgram, NoProgramIsMisuse) { EXPECT_THROW(run_program({}), std::invalid_argument); }

TEST(ProgramAvailable, FindsProgramsOnPathAndByPath) {
  EXPECT_TRUE(program_available("sh"));
  EXPECT_FALSE(program_available("hetscale-no-such-program"));
  EXPECT_FALSE(program_available(""));
  EXPECT_TRUE(program_available("/bin/sh"));
  EXPECT_FALSE(program_available("/nonexistent/hetscale/sh"));
}

// A directory is searchable (X_OK) but not a program.
TEST(ProgramAvailable, DirectoryIsNotAProgram) {
  EXPECT_FALSE(program_available("/tmp"));
  EXPECT_FALSE(program_available("/"));
}

}  // namespace
}  // namespace hetscale::io

#include "hetscale/io/progress.hpp"

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "hetscale/io/input_error.hpp"

namespace hetscale::io {
namespace {

// A temporary file as the progress stream (not a terminal), and what was
// written to it.
class StreamFile {
 public:
  StreamFile() : file_(std::tmpfile(), &std::fclose) {}
  std::FILE* get() const { return file_.get(); }
  std::string content() const {
    std::fflush(file_.get());
    std::rewind(file_.get());
    std::string text;
    for (int c; (c = std::fgetc(file_.get())) != EOF;) text += static_cast<char>(c);
    return text;
  }

 private:
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file_;
};

// Sets HETSCALE_PROGRESS for one test and restores it after.
class ProgressEnvironment : public ::testing::Test {
 protected:
  void SetUp() override {
    if (const char* value = std::getenv("HETSCALE_PROGRESS")) saved_ = value;
  }
  void TearDown() override {
    if (saved_)
      setenv("HETSCALE_PROGRESS", saved_->c_str(), 1);
    else
      unsetenv("HETSCALE_PROGRESS");
  }

 private:
  std::optional<std::string> saved_;
};

TEST(ProgressLine, ShowsTheBarStepsElapsedTimeLeftAndWhat) {
  // 7 of 18 steps in 42 s: 6 s a step, 11 steps left, 66 s.
  EXPECT_EQ(progress_line("sweep", 7, 18, 42.0, "N=700", 20),
            "sweep  [########------------]  7/18  elapsed 0:42  left ~1:06  N=700");
}

TEST(ProgressLine, BarIsDoneOverTotalToTheNearestCharacter) {
  EXPECT_EQ(progress_line("x", 1, 4, 1.0, "", 8), "x  [##------]  1/4  elapsed 0:01  left ~0:03");
  EXPECT_EQ(progress_line("x", 1, 3, 1.0, "", 10), "x  [###-------]  1/3  elapsed 0:01  left ~0:02");
  EXPECT_EQ(progress_line("x", 2, 3, 1.0, "", 10), "x  [#######---]  2/3  elapsed 0:01  left ~0:01");
}

TEST(ProgressLine, BarIsFullOnlyWhenEveryStepIsDone) {
  EXPECT_EQ(progress_line("x", 199, 200, 1.0, "", 10).substr(0, 15), "x  [#########-]");
  EXPECT_EQ(progress_line("x", 200, 200, 1.0, "", 10).substr(0, 15), "x  [##########]");
}

TEST(ProgressLine, NoEstimateBeforeTheFirstStepNorAfterTheLast) {
  EXPECT_EQ(progress_line("farm", 0, 11, 3.2, "", 4), "farm  [----]  0/11  elapsed 0:03");
  EXPECT_EQ(progress_line("farm", 11, 11, 125.0, "best 2", 4), "farm  [####]  11/11  elapsed 2:05  best 2");
}

TEST(ProgressLine, TimesAreMinutesAndSecondsThenHoursFromAnHour) {
  EXPECT_EQ(progress_line("", 1, 2, 59.4, "", 0), "1/2  elapsed 0:59  left ~0:59");
  EXPECT_EQ(progress_line("", 1, 2, 59.6, "", 0), "1/2  elapsed 1:00  left ~1:00");
  EXPECT_EQ(progress_line("", 1, 2, 3599.0, "", 0), "1/2  elapsed 59:59  left ~59:59");
  EXPECT_EQ(progress_line("", 1, 2, 3600.0, "", 0), "1/2  elapsed 1:00:00  left ~1:00:00");
  // 1 h 2 min 5 s elapsed, 3 steps left at that pace: 3 h 6 min 15 s.
  EXPECT_EQ(progress_line("", 1, 4, 3725.0, "", 0), "1/4  elapsed 1:02:05  left ~3:06:15");
}

TEST(ProgressLine, WidthIsTheBarsWidthAndZeroLeavesItOut) {
  EXPECT_EQ(progress_line("run", 1, 2, 0.0, "", 1), "run  [-]  1/2  elapsed 0:00  left ~0:00");
  EXPECT_EQ(progress_line("run", 1, 2, 0.0, "", 30),
            "run  [###############---------------]  1/2  elapsed 0:00  left ~0:00");
  EXPECT_EQ(progress_line("run", 1, 2, 0.0, "", 0), "run  1/2  elapsed 0:00  left ~0:00");
}

TEST(ProgressLine, CutToColumnsLeavesTheLastColumnFree) {
  EXPECT_EQ(cut_to_columns("abcdef", 4), "abc");
  EXPECT_EQ(cut_to_columns("abcd", 4), "abc");
  EXPECT_EQ(cut_to_columns("abc", 4), "abc");
  EXPECT_EQ(cut_to_columns("abc", 1), "");
  EXPECT_EQ(cut_to_columns("abcdef", 0), "abcdef");  // no width known: not cut
}

TEST(ProgressLine, RejectsImpossibleCounts) {
  EXPECT_THROW(progress_line("x", 0, 0, 0.0, "", 10), std::invalid_argument);
  EXPECT_THROW(progress_line("x", 3, 2, 0.0, "", 10), std::invalid_argument);
  EXPECT_THROW(progress_line("x", 1, 2, -1.0, "", 10), std::invalid_argument);
}

// What a Progress of two steps, "N=100" and "N=200", prints to a file.
std::string two_steps_printed(ProgressOutput output) {
  const StreamFile stream;
  {
    Progress progress("sweep", 2, stream.get(), output);
    EXPECT_EQ(progress.enabled(), output == ProgressOutput::always);
    progress.step("N=100");
    progress.step("N=200");
    EXPECT_EQ(progress.done(), 2u);
    // The destructor ends the line.
  }
  return stream.content();
}

TEST(Progress, PrintsNothingWhenForcedOff) { EXPECT_EQ(two_steps_printed(ProgressOutput::never), ""); }

TEST_F(ProgressEnvironment, PrintsNothingToAStreamThatIsNotATerminal) {
  unsetenv("HETSCALE_PROGRESS");
  EXPECT_EQ(two_steps_printed(ProgressOutput::automatic), "");
}

TEST(Progress, PrintsOneLineThatRewritesItselfWhenForcedOn) {
  const std::string first = "\rsweep  [##########----------]  1/2  elapsed 0:00  left ~0:00  N=100\x1b[K";
  const std::string second = "\rsweep  [####################]  2/2  elapsed 0:00  N=200\x1b[K\n";
  EXPECT_EQ(two_steps_printed(ProgressOutput::always), first + second);
}

// On a terminal 30 columns wide (a pseudo-terminal), the line is cut to 29
// characters, so it never wraps; the terminal turns the final new line into
// "\r\n".
TEST_F(ProgressEnvironment, CutsTheLineToTheWidthOfItsTerminal) {
  unsetenv("HETSCALE_PROGRESS");
  int controller = -1, terminal = -1;
  winsize size{};
  size.ws_col = 30;
  size.ws_row = 24;
  ASSERT_EQ(openpty(&controller, &terminal, nullptr, nullptr, &size), 0);
  std::FILE* stream = fdopen(terminal, "w");
  ASSERT_NE(stream, nullptr);
  {
    Progress progress("sweep", 2, stream);
    ASSERT_TRUE(progress.enabled());
    progress.step("N=100");
  }
  std::fclose(stream);
  std::string shown;
  pollfd ready{controller, POLLIN, 0};
  char buffer[256];
  while (poll(&ready, 1, 200) == 1 && (ready.revents & POLLIN)) {
    const ssize_t got = read(controller, buffer, sizeof buffer);
    if (got <= 0) break;
    shown.append(buffer, static_cast<std::size_t>(got));
  }
  close(controller);
  EXPECT_EQ(shown, "\rsweep  [##########----------]\x1b[K\r\n");
}

TEST(Progress, FinishEndsTheLineOnceAndOnlyIfSomethingWasPrinted) {
  const StreamFile stream;
  {
    Progress progress("farm", 5, stream.get(), ProgressOutput::always);
    progress.finish();
    EXPECT_EQ(stream.content(), "");
    progress.step();
    progress.finish();
    progress.finish();
  }
  EXPECT_EQ(stream.content(), "\rfarm  [####----------------]  1/5  elapsed 0:00  left ~0:00\x1b[K\n");
}

TEST(Progress, RejectsNoStepsAndAStepBeyondTheTotal) {
  const StreamFile stream;
  EXPECT_THROW(Progress("x", 0, stream.get(), ProgressOutput::never), std::invalid_argument);
  Progress progress("x", 1, stream.get(), ProgressOutput::never);
  progress.step();
  EXPECT_THROW(progress.step(), std::invalid_argument);
}

TEST_F(ProgressEnvironment, EnvironmentOverridesTheAutomaticChoice) {
  const StreamFile stream;
  setenv("HETSCALE_PROGRESS", "always", 1);
  EXPECT_EQ(progress_output_from_environment(), ProgressOutput::always);
  EXPECT_TRUE(Progress("x", 1, stream.get()).enabled());
  EXPECT_FALSE(Progress("x", 1, stream.get(), ProgressOutput::never).enabled());
  setenv("HETSCALE_PROGRESS", "never", 1);
  EXPECT_EQ(progress_output_from_environment(), ProgressOutput::never);
  EXPECT_FALSE(Progress("x", 1, stream.get()).enabled());
  EXPECT_TRUE(Progress("x", 1, stream.get(), ProgressOutput::always).enabled());
  setenv("HETSCALE_PROGRESS", "", 1);
  EXPECT_EQ(progress_output_from_environment(), ProgressOutput::automatic);
}

TEST_F(ProgressEnvironment, AnUnknownEnvironmentValueIsBadInput) {
  setenv("HETSCALE_PROGRESS", "yes", 1);
  try {
    progress_output_from_environment();
    FAIL() << "expected InputError";
  } catch (const InputError& error) {
    EXPECT_STREQ(error.what(), "HETSCALE_PROGRESS: must be always or never (or unset: on a terminal only), got 'yes'");
  }
}

}  // namespace
}  // namespace hetscale::io

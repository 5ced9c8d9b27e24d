// The job log of a task run (schema "hetscale.task-log/1", JSON Lines): the
// lines TaskLogWriter writes are what read_task_log reads back for --resume
// (every end, the attempts begun, which tasks are done, which were handed
// out and never ended); a log of another task list, or a bad line, is an
// InputError naming the file and the line; only the last line may be cut
// short (a run killed mid-write), and is then ignored.
#include "hetscale/record/task_log.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "hetscale/io/files.hpp"
#include "hetscale/io/input_error.hpp"
#include "support/assertions.hpp"

namespace hetscale {
namespace {

const std::vector<std::string> commands = {"echo zero", "echo one", "echo two", "echo three", "echo four"};

TaskStart Start(std::size_t task, std::size_t attempt) {
  TaskStart start;
  start.task = task;
  start.attempt = attempt;
  start.client = 1 + task % 2;
  start.time = 1700000000.25 + static_cast<double>(task);
  return start;
}

TaskEnd End(std::size_t task, std::size_t attempt, TaskOutcome outcome) {
  TaskEnd end;
  end.task = task;
  end.attempt = attempt;
  end.command = commands[task];
  end.client = 1 + task % 2;
  end.host = "node-" + std::to_string(task);
  end.start = 1700000000.5 + static_cast<double>(task);
  end.end = end.start + 1.75;
  end.exit_code = outcome == TaskOutcome::succeeded ? 0 : 3;
  end.cpu_seconds = 0.5;
  end.outcome = outcome;
  return end;
}

class TaskLogTest : public ::testing::Test {
 protected:
  std::string PathOf(const std::string& name) const { return (std::filesystem::path(folder_.path()) / name).string(); }

  // Writes `lines` through a TaskLogWriter to a fresh file; its path.
  std::string Written(const std::vector<std::string>& lines, const std::string& name = "log.jsonl") const {
    const std::string path = PathOf(name);
    TaskLogWriter writer(path, false, "--results");
    for (const auto& line : lines) writer.write_line(line);
    return path;
  }

  // Writes `text` as it is; its path.
  std::string WrittenText(const std::string& text, const std::string& name = "log.jsonl") const {
    const std::string path = PathOf(name);
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }

  // The what() of the InputError that reading `path` for `list` throws.
  static std::string ReadError(const std::string& path, const std::vector<std::string>& list = commands) {
    return testing_support::ErrorMessage([&] { read_task_log(path, list); });
  }

 private:
  io::TemporaryFolder folder_{"hetscale-task-log-test"};
};

// ---------------------------------------------------------------- reading back

TEST_F(TaskLogTest, WrittenLinesAreReadBack) {
  const auto path = Written({
      task_log_header_line(commands.size()),
      task_log_line(Start(0, 1)),
      task_log_line(Start(1, 1)),
      task_log_line(End(0, 1, TaskOutcome::succeeded)),
      task_log_line(End(1, 1, TaskOutcome::retrying)),
      task_log_line(Start(1, 2)),
      task_log_line(End(1, 2, TaskOutcome::succeeded)),
      task_log_line(Start(2, 1)),
      task_log_line(End(2, 1, TaskOutcome::retrying)),
      task_log_line(Start(3, 1)),
      task_log_line(Start(4, 1)),
      task_log_line(End(4, 1, TaskOutcome::failed)),
  });
  const auto state = read_task_log(path, commands);
  EXPECT_FALSE(state.cut_last_line);
  EXPECT_EQ(state.attempts, (std::vector<std::size_t>{1, 2, 1, 1, 1}));
  // 0 succeeded; 1 retried, then succeeded; 2 retrying only; 3 never ended;
  // 4 failed for good.
  EXPECT_EQ(state.done, (std::vector<bool>{true, true, false, false, true}));
  EXPECT_EQ(state.in_flight, (std::vector<std::size_t>{3}));

  ASSERT_EQ(state.ends.size(), 5u);
  EXPECT_EQ(state.ends[0].task, 0u);
  EXPECT_EQ(state.ends[1].task, 1u);
  EXPECT_EQ(state.ends[1].attempt, 1u);
  EXPECT_EQ(state.ends[1].outcome, TaskOutcome::retrying);
  EXPECT_EQ(state.ends[2].task, 1u);
  EXPECT_EQ(state.ends[2].attempt, 2u);
  EXPECT_EQ(state.ends[2].outcome, TaskOutcome::succeeded);
  EXPECT_EQ(state.ends[4].outcome, TaskOutcome::failed);

  // Every field of an end line, as written.
  const TaskEnd expected = End(1, 1, TaskOutcome::retrying);
  const TaskEnd& read = state.ends[1];
  EXPECT_EQ(read.command, expected.command);
  EXPECT_EQ(read.client, expected.client);
  EXPECT_EQ(read.host, expected.host);
  EXPECT_EQ(read.start, expected.start);
  EXPECT_EQ(read.end, expected.end);
  EXPECT_EQ(read.exit_code, expected.exit_code);
  EXPECT_EQ(read.signal, expected.signal);
  EXPECT_EQ(read.timed_out, expected.timed_out);
  EXPECT_EQ(read.cpu_seconds, expected.cpu_seconds);
}

TEST_F(TaskLogTest, SignalAndTimeoutAreReadBack) {
  TaskEnd timed_out = End(0, 1, TaskOutcome::failed);
  timed_out.signal = 9;
  timed_out.exit_code = 137;
  timed_out.timed_out = true;
  const auto path =
      Written({task_log_header_line(commands.size()), task_log_line(Start(0, 1)), task_log_line(timed_out)});
  const auto state = read_task_log(path, commands);
  ASSERT_EQ(state.ends.size(), 1u);
  EXPECT_EQ(state.ends[0].signal, 9);
  EXPECT_EQ(state.ends[0].exit_code, 137);
  EXPECT_TRUE(state.ends[0].timed_out);
  EXPECT_TRUE(state.done[0]);
}

TEST_F(TaskLogTest, HeaderAloneHasNothingDone) {
  const auto state = read_task_log(Written({task_log_header_line(commands.size())}), commands);
  EXPECT_TRUE(state.ends.empty());
  EXPECT_EQ(state.attempts, std::vector<std::size_t>(commands.size(), 0));
  EXPECT_EQ(state.done, std::vector<bool>(commands.size(), false));
  EXPECT_TRUE(state.in_flight.empty());
  EXPECT_FALSE(state.cut_last_line);
}

// A retry handed out after a retrying end is in flight again.
TEST_F(TaskLogTest, RetryHandedOutAndNeverEndedIsInFlight) {
  const auto path = Written({task_log_header_line(commands.size()), task_log_line(Start(2, 1)),
                             task_log_line(End(2, 1, TaskOutcome::retrying)), task_log_line(Start(2, 2))});
  const auto state = read_task_log(path, commands);
  EXPECT_EQ(state.attempts[2], 2u);
  EXPECT_FALSE(state.done[2]);
  EXPECT_EQ(state.in_flight, (std::vector<std::size_t>{2}));
}

// An attempt a stop ended is neither done nor lost: it was running when the
// run stopped, and runs again; a replay leaves it out.
TEST_F(TaskLogTest, StoppedAttemptRunsAgain) {
  TaskEnd stopped = End(1, 1, TaskOutcome::stopped);
  stopped.signal = 15;
  stopped.exit_code = 143;
  const auto path = Written({task_log_header_line(commands.size()), task_log_line(Start(0, 1)),
                             task_log_line(Start(1, 1)), task_log_line(End(0, 1, TaskOutcome::succeeded)),
                             task_log_line(stopped)});
  const auto state = read_task_log(path, commands);
  EXPECT_EQ(state.done, (std::vector<bool>{true, false, false, false, false}));
  EXPECT_EQ(state.in_flight, (std::vector<std::size_t>{1}));
  ASSERT_EQ(state.ends.size(), 2u);
  EXPECT_EQ(state.ends[1].outcome, TaskOutcome::stopped);
  const auto replay = read_task_log_for_replay(path);
  EXPECT_EQ(replay.tasks, (std::vector<std::size_t>{0}));
}

// ---------------------------------------------------------------- another list

TEST_F(TaskLogTest, LogOfAnotherTaskCountIsAnInputError) {
  const auto path = Written({task_log_header_line(commands.size() + 1)});
  const auto message = ReadError(path);
  ASSERT_NE(message, "");
  EXPECT_NE(message.find(path), std::string::npos) << message;
  EXPECT_NE(message.find("line 1"), std::string::npos) << message;
  EXPECT_NE(message.find("another task list"), std::string::npos) << message;
}

TEST_F(TaskLogTest, LogOfAnotherCommandIsAnInputError) {
  TaskEnd other = End(1, 1, TaskOutcome::succeeded);
  other.command = "echo something else";
  const auto path = Written({task_log_header_line(commands.size()), task_log_line(Start(1, 1)), task_log_line(other)});
  const auto message = ReadError(path);
  ASSERT_NE(message, "");
  EXPECT_NE(message.find(path), std::string::npos) << message;
  EXPECT_NE(message.find("line 3"), std::string::npos) << message;
  EXPECT_NE(message.find("another task list"), std::string::npos) << message;
}

TEST_F(TaskLogTest, TaskBeyondTheListIsAnInputError) {
  std::vector<std::string> shorter(commands.begin(), commands.begin() + 2);
  const auto path = Written({task_log_header_line(shorter.size()), task_log_line(Start(4, 1))});
  const auto message = ReadError(path, shorter);
  ASSERT_NE(message, "");
  EXPECT_NE(message.find(path), std::string::npos) << message;
  EXPECT_NE(message.find("line 2"), std::string::npos) << message;
  EXPECT_NE(message.find("another task list"), std::string::npos) << message;
}

// ---------------------------------------------------------------- cut and bad lines

// A run killed in the middle of a write leaves its last line cut short (no
// newline, not JSON): ignored, and said so.
TEST_F(TaskLogTest, CutLastLineIsIgnored) {
  const std::string cut = task_log_line(End(1, 1, TaskOutcome::succeeded));
  const auto path = WrittenText(task_log_header_line(commands.size()) + task_log_line(Start(0, 1)) +
                                task_log_line(End(0, 1, TaskOutcome::succeeded)) + task_log_line(Start(1, 1)) +
                                cut.substr(0, cut.size() / 2));
  const auto state = read_task_log(path, commands);
  EXPECT_TRUE(state.cut_last_line);
  ASSERT_EQ(state.ends.size(), 1u);
  EXPECT_EQ(state.ends[0].task, 0u);
  EXPECT_TRUE(state.done[0]);
  EXPECT_FALSE(state.done[1]);
  EXPECT_EQ(state.in_flight, (std::vector<std::size_t>{1}));
}

// Resumed again after a second stop: the lines appended after a cut line
// start on a line of their own (the cut one is dropped), so the log stays
// readable however many times a run is stopped and resumed.
TEST_F(TaskLogTest, AppendingAfterACutLastLineDropsIt) {
  const std::string cut = task_log_line(End(1, 1, TaskOutcome::succeeded));
  const auto path = WrittenText(task_log_header_line(commands.size()) + task_log_line(Start(1, 1)) +
                                cut.substr(0, cut.size() / 2));
  {
    TaskLogWriter writer(path, true, "--results");
    EXPECT_FALSE(writer.was_empty());
    writer.write_line(task_log_line(Start(1, 2)));
    writer.write_line(task_log_line(End(1, 2, TaskOutcome::succeeded)));
  }
  const auto state = read_task_log(path, commands);
  EXPECT_FALSE(state.cut_last_line);
  ASSERT_EQ(state.ends.size(), 1u);
  EXPECT_EQ(state.ends[0].attempt, 2u);
  EXPECT_TRUE(state.done[1]);
  EXPECT_TRUE(state.in_flight.empty());
}

// A log whose only line is cut short is emptied: the header is due again.
TEST_F(TaskLogTest, AppendingToALogOfOneCutLineEmptiesIt) {
  const std::string header = task_log_header_line(commands.size());
  const auto path = WrittenText(header.substr(0, header.size() / 2));
  TaskLogWriter writer(path, true, "--results");
  EXPECT_TRUE(writer.was_empty());
  EXPECT_EQ(std::filesystem::file_size(path), 0u);
}

TEST_F(TaskLogTest, BadLineInTheMiddleIsAnInputErrorNamingTheLine) {
  const auto path =
      WrittenText(task_log_header_line(commands.size()) + task_log_line(Start(0, 1)) +
                  "{\"event\": \"end\", \"task\": 0, \n" + task_log_line(End(0, 1, TaskOutcome::succeeded)));
  const auto message = ReadError(path);
  ASSERT_NE(message, "");
  EXPECT_NE(message.find(path), std::string::npos) << message;
  EXPECT_NE(message.find("line 3"), std::string::npos) << message;
}

TEST_F(TaskLogTest, LineMissingAFieldIsAnInputErrorNamingLineAndField) {
  const auto path = WrittenText(task_log_header_line(commands.size()) +
                                "{\"event\": \"start\", \"task\": 0, \"attempt\": 1, \"client\": 1}\n");
  const auto message = ReadError(path);
  ASSERT_NE(message, "");
  EXPECT_NE(message.find(path), std::string::npos) << message;
  EXPECT_NE(message.find("line 2"), std::string::npos) << message;
  EXPECT_NE(message.find("time"), std::string::npos) << message;
}

TEST_F(TaskLogTest, FileWithoutHeaderIsAnInputError) {
  const auto path = Written({task_log_line(Start(0, 1))});
  const auto message = ReadError(path);
  ASSERT_NE(message, "");
  EXPECT_NE(message.find(path), std::string::npos) << message;
  EXPECT_NE(message.find("line 1"), std::string::npos) << message;
}

TEST_F(TaskLogTest, MissingFileIsAnInputErrorNamingIt) {
  const auto path = PathOf("no-such-log.jsonl");
  const auto message = ReadError(path);
  ASSERT_NE(message, "");
  EXPECT_NE(message.find(path), std::string::npos) << message;
}

// ---------------------------------------------------------------- the writer

TEST_F(TaskLogTest, WriterWithoutAppendEmptiesAnExistingFile) {
  const auto path = WrittenText("an older log\n");
  {
    TaskLogWriter writer(path, false, "--results");
    EXPECT_TRUE(writer.was_empty());
    EXPECT_EQ(io::read_text_file(path), "");
    writer.write_line(task_log_header_line(2));
    // No buffer of its own: the line is in the file once write_line returns.
    EXPECT_EQ(io::read_text_file(path), task_log_header_line(2));
  }
  EXPECT_EQ(io::read_text_file(path), task_log_header_line(2));
}

TEST_F(TaskLogTest, WriterWithAppendKeepsAnExistingFile) {
  const std::string older = task_log_header_line(commands.size()) + task_log_line(Start(0, 1));
  const auto path = WrittenText(older);
  {
    TaskLogWriter writer(path, true, "--results");
    EXPECT_FALSE(writer.was_empty());
    EXPECT_EQ(io::read_text_file(path), older);
    writer.write_line(task_log_line(End(0, 1, TaskOutcome::succeeded)));
  }
  EXPECT_EQ(io::read_text_file(path), older + task_log_line(End(0, 1, TaskOutcome::succeeded)));
  EXPECT_TRUE(read_task_log(path, commands).done[0]);
}

TEST_F(TaskLogTest, WriterWithAppendCreatesAMissingFileAsEmpty) {
  const auto path = PathOf("new.jsonl");
  TaskLogWriter writer(path, true, "--results");
  EXPECT_TRUE(writer.was_empty());
  EXPECT_TRUE(std::filesystem::exists(path));
}

TEST_F(TaskLogTest, WriterWithAppendOfAnEmptyFileWasEmpty) {
  const auto path = WrittenText("");
  TaskLogWriter writer(path, true, "--results");
  EXPECT_TRUE(writer.was_empty());
}

TEST_F(TaskLogTest, WriterInAMissingFolderIsAnInputErrorNamingTheOption) {
  const auto path = PathOf("no-such-folder/log.jsonl");
  const auto message = testing_support::ErrorMessage([&] { TaskLogWriter writer(path, false, "--my-results"); });
  ASSERT_NE(message, "");
  EXPECT_NE(message.find("--my-results"), std::string::npos) << message;
  EXPECT_NE(message.find(path), std::string::npos) << message;
}

// --------------------------------------------------------------------- replay

// Each task's last attempt, its time on its client x the client's speed (the
// header's); a task that never ended is left out; the makespan spans the
// attempts replayed.
TEST_F(TaskLogTest, ReplayCostsAreTimesTimesTheClientsSpeed) {
  TaskEnd first = End(0, 1, TaskOutcome::retrying), retry = End(0, 2, TaskOutcome::succeeded),
          other = End(2, 1, TaskOutcome::succeeded);
  first.client = 1, first.start = 100.0, first.end = 104.0;
  retry.client = 2, retry.start = 104.0, retry.end = 110.0;
  other.client = 1, other.start = 101.0, other.end = 103.0;
  const auto path = WrittenText(task_log_header_line(commands.size(), {0.5, 0.25}) + task_log_line(first) +
                                task_log_line(Start(1, 1)) + task_log_line(retry) + task_log_line(other));
  const auto replay = read_task_log_for_replay(path);
  EXPECT_EQ(replay.tasks_in_list, commands.size());
  EXPECT_EQ(replay.speeds, (std::vector<double>{0.5, 0.25}));
  EXPECT_EQ(replay.tasks, (std::vector<std::size_t>{0, 2}));
  ASSERT_EQ(replay.task_seconds.size(), 2u);
  EXPECT_DOUBLE_EQ(replay.task_seconds[0], 6.0 * 0.25);  // the retry on client 2
  EXPECT_DOUBLE_EQ(replay.task_seconds[1], 2.0 * 0.5);
  EXPECT_DOUBLE_EQ(replay.makespan, 110.0 - 101.0);
}

TEST_F(TaskLogTest, ReplayWithoutSpeedsTakesSpeedOne) {
  TaskEnd end = End(3, 1, TaskOutcome::succeeded);
  end.start = 10.0, end.end = 12.5;
  const auto replay = read_task_log_for_replay(WrittenText(task_log_header_line(commands.size()) + task_log_line(end)));
  EXPECT_TRUE(replay.speeds.empty());
  EXPECT_EQ(replay.task_seconds, (std::vector<double>{2.5}));
}

TEST_F(TaskLogTest, ReplayRefusesALogWithNothingEndedOrAClientWithoutASpeed) {
  const auto nothing = WrittenText(task_log_header_line(commands.size()) + task_log_line(Start(0, 1)), "nothing.jsonl");
  EXPECT_TRUE(testing_support::ThrowsInvalidArgumentNaming([&] { read_task_log_for_replay(nothing); }, {nothing, "no task that ended"}));
  TaskEnd end = End(1, 1, TaskOutcome::succeeded);
  end.client = 3;
  const auto beyond = WrittenText(task_log_header_line(commands.size(), {1.0, 0.5}) + task_log_line(end), "beyond.jsonl");
  EXPECT_TRUE(testing_support::ThrowsInvalidArgumentNaming([&] { read_task_log_for_replay(beyond); },
                                          {beyond, "line 2: client", "2 speeds"}));
}

TEST(TaskLogOutcomeName, IsTheLogsWord) {
  EXPECT_EQ(to_string(TaskOutcome::succeeded), "succeeded");
  EXPECT_EQ(to_string(TaskOutcome::retrying), "retrying");
  EXPECT_EQ(to_string(TaskOutcome::failed), "failed");
  EXPECT_EQ(to_string(TaskOutcome::stopped), "stopped");
}

}  // namespace
}  // namespace hetscale

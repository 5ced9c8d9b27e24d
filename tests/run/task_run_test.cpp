// A run of the user's tasks, apart from the transport: the plan (the list,
// what a resumed log says is done, the output folder made, the log opened
// with its header) and the journal (start and end lines, the attempts of a
// resumed log counted on, a stop's `stopped` lines).
#include "hetscale/run/task_run.hpp"

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "hetscale/io/files.hpp"
#include "support/assertions.hpp"

namespace hetscale::run {
namespace {

class TaskRunTest : public ::testing::Test {
 protected:
  io::TemporaryFolder folder{"hetscale-task-run-test"};
  std::string path(const std::string& name) const { return folder.path() + "/" + name; }
  TaskRunRequest request() const {
    TaskRunRequest request;
    request.tasks = path("tasks.txt");
    request.results = path("log.jsonl");
    return request;
  }
  void SetUp() override { io::write_file_atomically(path("tasks.txt"), "echo a\n# a comment\necho b\necho c\n"); }
};

TaskReport report_of(std::size_t id, std::size_t attempt, int exit_code) {
  TaskReport report;
  report.id = id;
  report.attempt = attempt;
  report.client = 1;
  report.host = "h";
  report.start = 10.0;
  report.end = 11.0;
  report.result.exit_code = exit_code;
  return report;
}

TEST_F(TaskRunTest, PlanOfANewRunOpensTheLogWithItsHeader) {
  auto plan = plan_task_run(request(), {1.0, 0.5});
  EXPECT_EQ(plan.commands, (std::vector<std::string>{"echo a", "echo b", "echo c"}));
  EXPECT_EQ(plan.to_run, (std::vector<std::size_t>{0, 1, 2}));
  EXPECT_EQ(plan.done_before, 0u);
  ASSERT_TRUE(plan.log);
  const auto log = io::read_text_file(path("log.jsonl"));
  EXPECT_NE(log.find("\"schema\":\"hetscale.task-log/1\""), std::string::npos) << log;
}

TEST_F(TaskRunTest, JournalWritesAndAResumedPlanRunsWhatIsNotDone) {
  {
    auto plan = plan_task_run(request(), {});
    TaskRunJournal journal(plan);
    journal.started({0, "echo a"}, 1, 1, 1.0);
    journal.started({1, "echo b"}, 1, 2, 1.0);
    journal.started({2, "echo c"}, 1, 1, 2.0);
    EXPECT_EQ(journal.ended(report_of(0, 1, 0), false).outcome, TaskOutcome::succeeded);
    EXPECT_EQ(journal.ended(report_of(1, 1, 3), true).outcome, TaskOutcome::retrying);
    EXPECT_EQ(journal.running(), (std::vector<std::size_t>{2}));
    journal.stopped(5.0, [](std::size_t client) { return "host-" + std::to_string(client); });
    EXPECT_TRUE(journal.running().empty());
  }
  auto resumed_request = request();
  resumed_request.resume = true;
  auto plan = plan_task_run(resumed_request, {});
  EXPECT_EQ(plan.done_before, 1u);
  EXPECT_EQ(plan.to_run, (std::vector<std::size_t>{1, 2}));
  EXPECT_EQ(plan.in_flight, (std::vector<std::size_t>{2})) << "stopped: it runs again";
  EXPECT_EQ(plan.attempts_before, (std::vector<std::size_t>{1, 1, 1}));
  // A resumed attempt counts on from the log's.
  TaskRunJournal journal(plan);
  journal.started({1, "echo b"}, 1, 1, 20.0);
  EXPECT_EQ(journal.ended(report_of(1, 1, 0), false).attempt, 2u);
}

TEST_F(TaskRunTest, OutputFolderIsMadeAndErrorsNameTheField) {
  auto with_output = request();
  with_output.output_dir = path("out/run-1");
  plan_task_run(with_output, {});
  EXPECT_TRUE(std::filesystem::is_directory(path("out/run-1")));
  with_output.output_dir = path("tasks.txt/out");
  EXPECT_TRUE(testing_support::ThrowsInvalidArgumentNaming([&] { plan_task_run(with_output, {}); },
                                                           {"output-dir: cannot make the folder"}));
  TaskRunRequest from_template;
  from_template.command = "echo";
  from_template.inputs = path("tasks.txt");
  EXPECT_TRUE(testing_support::ThrowsInvalidArgumentNaming([&] { plan_task_run(from_template, {}); },
                                                           {"command: "}));
}

}  // namespace
}  // namespace hetscale::run

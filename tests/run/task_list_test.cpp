// Task lists: a file of shell commands (blank lines and # comments skipped,
// CRLF line ends), shell_quoted (checked by /bin/sh itself reading the word
// back), and a command template whose {} each input line replaces. Bad input
// is an InputError naming the file or the option.
#include "hetscale/run/task_list.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "hetscale/io/files.hpp"
#include "hetscale/io/input_error.hpp"
#include "hetscale/run/shell_task.hpp"
#include "support/assertions.hpp"

namespace hetscale::run {
namespace {

using Commands = std::vector<std::string>;

// What /bin/sh prints for `printf %s WORD`: the word the shell read, as one
// argument, written to a file of `folder` and read back.
std::string PrintedByShell(const io::TemporaryFolder& folder, const std::string& word) {
  ShellTaskOptions options;
  options.output_path = (std::filesystem::path(folder.path()) / "printed.txt").string();
  const auto outcome = run_shell_task("printf %s " + word, options);
  EXPECT_TRUE(outcome.succeeded()) << "exit code " << outcome.exit_code << ", failure " << outcome.failure;
  return io::read_text_file(options.output_path);
}

// ---------------------------------------------------------------- task file

TEST(TaskListFile, OneCommandPerLineInOrder) {
  EXPECT_EQ(commands_from_task_file("echo a\necho b\necho c\n", "tasks.txt"), (Commands{"echo a", "echo b", "echo c"}));
}

// Comments and blank lines are no task and take no number: the task numbers
// count commands only.
TEST(TaskListFile, CommentsAndBlankLinesAreSkippedAndNotCounted) {
  const auto commands = commands_from_task_file(
      "# the first task follows\n"
      "\n"
      "echo zero\n"
      "   \t \n"
      "  # an indented comment\n"
      "\t#a tabbed one\n"
      "echo one # not a comment: # is not the first character\n"
      "\n",
      "tasks.txt");
  EXPECT_EQ(commands, (Commands{"echo zero", "echo one # not a comment: # is not the first character"}));
}

TEST(TaskListFile, LastLineWithoutNewlineIsACommand) {
  EXPECT_EQ(commands_from_task_file("echo a\necho b", "tasks.txt"), (Commands{"echo a", "echo b"}));
}

TEST(TaskListFile, CrlfLineEndsGiveCommandsWithoutCarriageReturns) {
  EXPECT_EQ(commands_from_task_file("# a comment\r\necho a\r\n\r\necho b\r\n", "tasks.txt"),
            (Commands{"echo a", "echo b"}));
}

TEST(TaskListFile, OnlyCommentsIsAnInputErrorNamingTheSource) {
  const auto message = testing_support::ErrorMessage(
      [] { commands_from_task_file("# nothing to do\n\n  # still nothing\n", "my-tasks.txt"); });
  ASSERT_NE(message, "");
  EXPECT_NE(message.find("my-tasks.txt"), std::string::npos) << message;
}

TEST(TaskListFile, EmptyTextIsAnInputErrorNamingTheSource) {
  const auto message = testing_support::ErrorMessage([] { commands_from_task_file("", "empty.txt"); });
  ASSERT_NE(message, "");
  EXPECT_NE(message.find("empty.txt"), std::string::npos) << message;
}

// ---------------------------------------------------------------- shell_quoted

TEST(TaskListQuoting, IsSingleQuotedWithQuotesEscaped) {
  EXPECT_EQ(shell_quoted("a b"), "'a b'");
  EXPECT_EQ(shell_quoted(""), "''");
  EXPECT_EQ(shell_quoted("it's"), "'it'\\''s'");
}

// The shell reads each quoted text back as the text itself, one argument:
// spaces, quotes, $, backticks, backslashes, a newline, a leading dash.
TEST(TaskListQuoting, ShellReadsTheQuotedTextBackUnchanged) {
  const io::TemporaryFolder folder("hetscale-task-list-test");
  const std::vector<std::string> texts = {
      "plain",
      "two  spaces and\ta tab",
      "it's 'quoted'",
      "''",
      "$HOME and ${PATH} and $(echo no)",
      "`echo no` and \\` too",
      "back\\slash \\n and \"double\" quotes",
      "a\nnewline",
      "-n",
      "* ? [a] ~ ; & | < > ( ) { } #",
  };
  for (const auto& text : texts) EXPECT_EQ(PrintedByShell(folder, shell_quoted(text)), text) << text;
}

// ---------------------------------------------------------------- template

TEST(TaskListTemplate, EveryPlaceholderIsReplacedByTheQuotedLine) {
  const auto commands = commands_from_template("cp {} {}.bak && echo {}", "a\nb c\n", "--command", "inputs.txt");
  EXPECT_EQ(commands, (Commands{"cp 'a' 'a'.bak && echo 'a'", "cp 'b c' 'b c'.bak && echo 'b c'"}));
}

// Run by the shell, an input with spaces and quotes stays one argument in
// every place of the template.
TEST(TaskListTemplate, InputStaysOneArgumentWhenRun) {
  const io::TemporaryFolder folder("hetscale-task-list-test");
  const auto commands = commands_from_template("printf '[%s]' {} x{}y", "it's a $test\n", "--command", "inputs.txt");
  ASSERT_EQ(commands.size(), 1u);
  ShellTaskOptions options;
  options.output_path = (std::filesystem::path(folder.path()) / "printed.txt").string();
  const auto outcome = run_shell_task(commands[0], options);
  EXPECT_TRUE(outcome.succeeded()) << "exit code " << outcome.exit_code << ", failure " << outcome.failure;
  EXPECT_EQ(io::read_text_file(options.output_path), "[it's a $test][xit's a $testy]");
}

// An input holding {} is an argument like any other: not replaced again.
TEST(TaskListTemplate, PlaceholderInAnInputIsNotReplaced) {
  EXPECT_EQ(commands_from_template("run {} {}", "x{}y\n", "--command", "inputs.txt"), (Commands{"run 'x{}y' 'x{}y'"}));
}

TEST(TaskListTemplate, WithoutPlaceholderIsAnInputErrorNamingTheOption) {
  const auto message =
      testing_support::ErrorMessage([] { commands_from_template("echo hello", "a\n", "--command", "inputs.txt"); });
  ASSERT_NE(message, "");
  EXPECT_NE(message.find("--command"), std::string::npos) << message;
  EXPECT_NE(message.find("echo hello"), std::string::npos) << message;
}

// Every line is an input, an empty one too: it gives the command with an
// empty argument.
TEST(TaskListTemplate, EmptyMiddleLineGivesAnEmptyArgument) {
  EXPECT_EQ(commands_from_template("run {}", "a\n\nb\n", "--command", "inputs.txt"),
            (Commands{"run 'a'", "run ''", "run 'b'"}));
}

TEST(TaskListTemplate, TrailingNewlineAddsNoInput) {
  EXPECT_EQ(commands_from_template("run {}", "a\nb\n", "--command", "inputs.txt"),
            commands_from_template("run {}", "a\nb", "--command", "inputs.txt"));
  EXPECT_EQ(commands_from_template("run {}", "a\nb\n", "--command", "inputs.txt").size(), 2u);
}

TEST(TaskListTemplate, CrlfInputsLoseTheirCarriageReturns) {
  EXPECT_EQ(commands_from_template("run {}", "a\r\nb\r\n", "--command", "inputs.txt"),
            (Commands{"run 'a'", "run 'b'"}));
}

TEST(TaskListTemplate, NoInputIsAnInputErrorNamingTheInputs) {
  const auto message =
      testing_support::ErrorMessage([] { commands_from_template("run {}", "", "--command", "my-inputs.txt"); });
  ASSERT_NE(message, "");
  EXPECT_NE(message.find("my-inputs.txt"), std::string::npos) << message;
}

}  // namespace
}  // namespace hetscale::run

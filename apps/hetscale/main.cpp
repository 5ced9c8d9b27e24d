// hetscale: the command line. It parses arguments (commands.list), calls the
// library and prints; every computation lives in the library.
#include <cstdio>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include "cli.hpp"
#include "command_table.hpp"
#include "hetscale/io/child_process.hpp"
#include "hetscale/mpi/farm.hpp"

namespace {

using namespace hetscale;
using namespace hetscale::cli;

}  // namespace

int main(int argc, char** argv) {
  if (argc == 1) {
    std::fputs(first_commands().c_str(), stdout);
    return 0;
  }
  CLI::App app{
      "hetscale: define, measure, predict and optimize the efficiency of parallel programs on "
      "heterogeneous parallel computers",
      "hetscale"};
  app.set_version_flag("--version", std::string(HETSCALE_VERSION));
  app.require_subcommand(1);
  const CommandLine commands(app, command_table());
  const bool speaker = io::launcher_rank() == 0;
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == 0) return speaker ? app.exit(error) : 0;  // --help, --version
    if (speaker) io::say_on_stderr(fmt::format("hetscale: {} (see hetscale --help)\n", error.what()));
    return io::exit_bad_input;
  }
  const auto& command = commands.chosen();
  try {
    commands.check_rules();
  } catch (const InputError& error) {
    // An MPI command says it once MPI runs on every rank: a rank ending
    // before then makes mpiexec end the job before rank 0 has spoken.
    if (command.mpi) return mpi::run_on_every_rank(argc, argv, [&](int, int) { throw error; }, {});
    if (speaker) io::say_on_stderr(fmt::format("hetscale: {}\n", error.what()));
    return io::exit_bad_input;
  }
  if (command.mpi) return command.mpi(commands.arguments(), argc, argv);
  try {
    return print(command.run(commands.arguments()));
  } catch (const std::invalid_argument& error) {
    io::say_on_stderr(fmt::format("hetscale: {}\n", error.what()));
    return io::exit_bad_input;
  } catch (const io::ProgramUnavailable& error) {
    // Not a bug of hetscale: the machine lacks a program; said as it is.
    io::say_on_stderr(fmt::format("hetscale: {}\n", error.what()));
    return io::exit_internal_error;
  } catch (const std::exception& error) {
    io::say_on_stderr(fmt::format("hetscale: internal error: {}\n", error.what()));
    return io::exit_internal_error;
  }
}

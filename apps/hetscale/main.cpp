// hetscale: the command line. It parses arguments (commands.list), calls the
// library and prints; every computation lives in the library.
#include <cstdio>
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/core.h>

#include "cli.hpp"
#include "command_table.hpp"
#include "hetscale/io/child_process.hpp"

namespace {

using namespace hetscale;
using namespace hetscale::cli;

// What `hetscale` with no arguments prints: the five commands a newcomer
// needs first, one example each.
constexpr const char* first_commands =
    "hetscale: how efficient is your parallel program on unequal, loaded nodes, and what would a different split\n"
    "or machine give?\n"
    "\n"
    "Five commands to start with:\n"
    "  measure   where your MPI program's time goes, per rank, unmodified\n"
    "              mpiexec -np 4 hetscale measure --out run-4.json -- ./app ARGS\n"
    "  analyze   how efficient the run was, its largest loss and what fixing it would gain\n"
    "              hetscale analyze run-4.json\n"
    "  report    your runs as one HTML page: where the time goes, speed-up against the fewest ranks, MPI calls\n"
    "              hetscale report run-1.json run-2.json run-4.json --out report.html\n"
    "  predict   how long a run on more processes would take, from runs at 3 or more counts\n"
    "              hetscale predict run-1.json run-2.json run-4.json --at 16\n"
    "  farm      run your own tasks on MPI ranks, faster nodes taking more, resumable\n"
    "              mpiexec -np 5 hetscale farm --command 'xz -6 -k {}' --inputs files.txt --results log.jsonl\n"
    "\n"
    "hetscale --help lists every command; hetscale COMMAND --help says more.\n";

}  // namespace

int main(int argc, char** argv) {
  if (argc == 1) {
    std::fputs(first_commands, stdout);
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

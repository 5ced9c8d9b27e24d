// hetscale-smpi: hetscale's kernel commands (`kernel`, `scale sweep`) built
// against SimGrid's MPI (SMPI). smpirun runs it once per rank on the hosts of
// a simulated platform; `hetscale simulate kernel|sweep` writes the platform
// and calls smpirun. The commands are the same code as on real MPI
// (kernel_commands.cpp), compiled with HETSCALE_SMPI: blocking MPI calls,
// no emulated speeds, simulated clocks, each computed block charged its flop
// at its host's speed, marked speeds read from the hosts.
#include <mpi.h>

#include <iostream>
#include <sstream>
#include <string>

#include <CLI/CLI.hpp>

#include "cli.hpp"
#include "command_table.hpp"
#include "mpi/simulated_host.hpp"

namespace {

using namespace hetscale;
using namespace hetscale::cli;

// Before any command runs, a message for the user (an option's error, the
// help) is printed by rank 0 alone: every rank starts MPI to learn its rank.
int speak_once(const std::string& text, bool to_stderr, int code, int& argc, char**& argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) (to_stderr ? std::cerr : std::cout) << text << std::flush;
  MPI_Finalize();
  return code;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    mpi::simulated::require_deterministic_configuration();
  } catch (const std::exception& error) {
    return speak_once(std::string("hetscale-smpi: ") + error.what() + "\n", true, io::exit_bad_input, argc, argv);
  }
  CLI::App app{"hetscale-smpi: hetscale's kernels on SimGrid's MPI (run by smpirun; see `hetscale simulate`)"};
  app.set_version_flag("--version", std::string(HETSCALE_VERSION));
  app.require_subcommand(1);
  const CommandLine commands(app, command_table());  // kernel and scale sweep
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == 0) {  // --help, --version
      std::ostringstream out, err;
      app.exit(error, out, err);
      return speak_once(out.str(), false, 0, argc, argv);
    }
    return speak_once(std::string("hetscale: ") + error.what() + " (see hetscale simulate --help)\n", true,
                      io::exit_bad_input, argc, argv);
  }
  return commands.chosen().mpi(commands.arguments(), argc, argv);
}

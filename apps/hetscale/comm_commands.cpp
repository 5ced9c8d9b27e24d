#include "cli.hpp"

namespace hetscale::cli {

void add_bench_comm_command(CLI::App& /*bench*/, Actions& /*actions*/) {}

}  // namespace hetscale::cli

#include "cli.hpp"

namespace hetscale::cli {

void add_scale_run_commands(CLI::App& /*scale*/, Actions& /*actions*/) {}
void add_kernel_commands(CLI::App& /*app*/, Actions& /*actions*/) {}
void add_bench_speed_command(CLI::App& /*bench*/, Actions& /*actions*/) {}

}  // namespace hetscale::cli

#include "cli.hpp"

namespace hetscale::cli {

void add_scale_commands(CLI::App& /*scale*/, Actions& /*actions*/) {}

}  // namespace hetscale::cli

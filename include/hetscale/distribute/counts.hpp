#pragma once
// How many of `units` equal units of work (a farm's tasks, a kernel's rows)
// each of the processes gets: the one place that decides it, for the farm's
// static policies and the kernels' row distributions alike. No transport.
#include <cstddef>
#include <vector>

namespace hetscale::distribute {

// Block: the same count to every one of `parts`, the first `units % parts`
// one more. Throws std::invalid_argument for parts = 0.
std::vector<std::size_t> even_counts(std::size_t units, std::size_t parts);

// In proportion to the speeds: the largest remainder (Hamilton) apportionment
// of units * v_i / sum v, ties to the lower index (Chen et al. 2008 Section 4.1's
// shares by marked speed, APGA 2004's proportional split). Throws
// std::invalid_argument for no speeds or a speed that is not > 0.
std::vector<std::size_t> proportional_counts(std::size_t units, const std::vector<double>& speeds);

}  // namespace hetscale::distribute

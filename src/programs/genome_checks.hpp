#pragma once
// What every objective checks of a genome it is given (private to programs/).
#include <cstddef>
#include <stdexcept>
#include <string>

#include <fmt/core.h>

#include "hetscale/ga/genetic_algorithm.hpp"

namespace hetscale::programs {

inline void require_genome_size(const ga::Genome& genome, std::size_t expected, const std::string& objective) {
  if (genome.size() != expected)
    throw std::invalid_argument(
        fmt::format("{} objective: genome must have {} genes, got {}", objective, expected, genome.size()));
}

}  // namespace hetscale::programs

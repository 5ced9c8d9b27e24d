#pragma once
// What the GA engine's tests share.
#include <cstddef>

#include "hetscale/ga/genetic_algorithm.hpp"

namespace hetscale::ga::testing {

// Mixed genes: even genes real with optimum 0.5, odd genes choices with optimum 1; 0 at the optimum.
inline double mixed_fitness(const Genome& genome) {
  double sum = 0.0;
  for (std::size_t g = 0; g < genome.size(); ++g)
    sum += g % 2 == 0 ? (genome[g] - 0.5) * (genome[g] - 0.5) : (genome[g] != 1.0 ? 1.0 : 0.0);
  return sum;
}

}  // namespace hetscale::ga::testing

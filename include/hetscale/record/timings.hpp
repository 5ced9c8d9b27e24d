#pragma once
// Timings of one program at several processor counts and problem sizes, for
// Majumdar 1999's serial-fraction fit: CSV with the header `procs,size,seconds`.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "hetscale/record/sweep.hpp"

namespace hetscale {

struct Timing {
  std::size_t procs = 1;
  double size = 0.0;     // problem size (Majumdar 1999: number of histories N_h)
  double seconds = 0.0;  // elapsed time tau_N
  std::size_t line = 0;  // line in the file, for messages
};

struct Timings {
  std::string source;
  std::vector<Timing> rows;
};

Timings parse_timings_csv(std::string_view text, const std::string& source);
Timings read_timings(const std::string& path);
// Several files read as one (for example the single-process runs and the
// multi-process runs of `hetscale scale sweep --timings`): their rows in
// order, their sources joined by " + ". Throws std::invalid_argument for no paths.
Timings read_timings(const std::vector<std::string>& paths);

// The CSV parse_timings_csv reads: the header, then one row per timing
// (seconds to 9 significant digits).
std::string timings_csv(const Timings& timings);
// A sweep's points as timings on its processes (procs = the sweep's processes).
Timings sweep_timings(const Sweep& sweep);

}  // namespace hetscale

#pragma once
// Where and how a file's data were measured: the "context" of a speed model
// (hetscale.fpm/1), a sweep (hetscale.sweep/1) and a communication profile
// (hetscale.comm-profile/1). The keys hetscale reads are typed fields; the
// object is kept whole as read or as its writer made it (`written_json`), so
// a file read and written again keeps every key; it is written with its keys
// in order of their names. Read and written in one place,
// src/io/provenance_json.hpp.
#include <optional>
#include <string>
#include <vector>

namespace hetscale::io {

struct Provenance {
  std::string tool, host, date, mpi_library;  // "" when not said
  std::optional<int> ranks;
  std::string kernel;                   // a speed model's benchmark kernel
  std::optional<double> order;          // its matrix order or row length
  std::string measured;                 // how: "one rank at a time" or "all ranks at once"
  std::vector<double> emulated_speeds;  // per rank (empty: none)
  std::string distribution;             // a sweep's rows: "fpm:MODEL" when by a speed model ("": marked speeds)
  std::string written_json = "{}";      // the whole object (a JSON object)
};

}  // namespace hetscale::io

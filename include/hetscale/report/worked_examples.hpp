#pragma once
// What `hetscale analyze`, `hetscale fit serial` and `hetscale demo` print,
// from the files they are given: read, analysed, shown as tables or JSON.
#include <cstddef>
#include <string>
#include <vector>

namespace hetscale::report {

// A run record's analysis (of its region `region` when one is named), with
// the node speeds of a platform file when one is given; a run with no
// computation shows its times and MPI functions.
// `model_path`: a speed model of each rank's cores and device (bench fpm
// --device) for the run's offloaded work; empty: none.
std::string analysis_of_files(const std::string& run_path, const std::string& platform_path, bool json,
                              const std::string& region = "", const std::string& model_path = "");

// The serial fraction of timings files read as one; `serial_time` names where
// tau_1 comes from (line, through-origin, measured).
std::string serial_fit_of_files(const std::vector<std::string>& timings_paths, bool json,
                                const std::string& serial_time = "line");

// The papers' worked examples recomputed from data/ beside their published
// values, then the analyses of examples/, as commands with their outputs. Run
// from the project folder (paths are shown relative to it).
struct WorkedExamples {
  std::string text;
  std::size_t disagreeing = 0;  // paper values not reproduced
};
WorkedExamples worked_examples(bool json);

}  // namespace hetscale::report

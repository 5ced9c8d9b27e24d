#pragma once
// What `hetscale measure` tells the interposition library in each rank
// (docs/measure.md): handed over in the measured program's environment, one
// HETSCALE_MEASURE_* variable a setting, written by the launcher and read by
// the library through this one type, so that a variable's name is spelled in
// one place.
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace hetscale::measure {

struct MeasureSettings {
  std::string program;            // PROGRAM as the user named it
  std::string out, talp_json;     // the run record's and the TALP document's paths; empty: none
  std::vector<double> speeds;     // relative speed per rank (given, a platform's or the emulated ones); empty: all 1
  std::string speeds_source;      // where `speeds` come from, as the record says it
  std::vector<double> emulated_speeds;          // emulate rank i at speed v_i; empty: no emulation
  std::vector<double> emulated_thread_speeds;   // emulate thread t of each OpenMP team at v_t; empty: none
  std::optional<double> latency, bandwidth;     // the transfer model, when given (else calibrated at MPI_Init)
  std::string transfer_model_source;            // where they come from, as the record says it
  std::string trace;                            // the folder each rank writes its trace to; empty: none
  bool time_every_call = false;                 // no runs of short calls (measure/short_calls.hpp)

  // The variables and their values, unset ones left out.
  std::vector<std::pair<std::string, std::string>> to_environment() const;
  // The settings from `lookup` (the process's environment by default); a
  // value that does not read as its type is left at its default (the
  // library runs inside the user's program and never stops it).
  static MeasureSettings from_environment(const std::function<const char*(const char*)>& lookup = std::getenv);
};

}  // namespace hetscale::measure

#pragma once
// What rank 0 writes inside MPI_Finalize from what every rank sent it: the
// run record (hetscale.run/1, its regions in its context) and the same run in
// DLB TALP's JSON layout. A file that cannot be written is said on stderr and
// the program goes on: it is the user's program.
#include <string>

#include "gathered.hpp"
#include "hetscale/measure/measure_settings.hpp"

namespace hetscale::interpose {

// To settings.out: the run, its MPI functions, how the ranks shared the hosts,
// the emulation and each rank's threads in its context.
void write_run_record(const Gathered& gathered, const measure::MeasureSettings& settings,
                      const std::string& transfer_model_source, const std::string& clock_name);

// To `path`.
void write_talp_json(const Gathered& gathered, const std::string& path);

}  // namespace hetscale::interpose

#pragma once
// Sharing units of work between a measured run's OpenMP threads: each thread
// of each rank as a processor of the constant speed analyze gives it (its
// work / (work + held) in the parallel regions, OpenMpThreads), written as a
// speed model of one point a thread (a marked speed) that `hetscale
// partition` splits units by, as it splits them between nodes.
#include <string>

#include "hetscale/platform/speed_model.hpp"
#include "hetscale/record/run_record.hpp"

namespace hetscale {

// The threads' model: one node a thread, named "NODE tT" (rank-0 t1). Throws
// InputError naming the record's source and context.openmp.threads when
// no rank has two threads or more with work.
SpeedModel thread_speed_model(const RunRecord& run);

// The model `partition --model PATH` splits by: a speed model (hetscale.fpm/1),
// or a run record's threads (hetscale.run/1).
SpeedModel read_partition_model(const std::string& path);

}  // namespace hetscale

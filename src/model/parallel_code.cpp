#include "hetscale/model/parallel_code.hpp"

#include <numeric>

#include "model/checks.hpp"

namespace hetscale::model {

double stage_execution_time(double computation_time, double communication_time) {
  return computation_time + communication_time;
}

double stage_computation_time(double sequential_time, double processors) {
  detail::require_positive(processors, "p_l");
  return sequential_time / processors;
}

double stage_communication_time(double size_term, double overhead_term, double data_per_processor) {
  return size_term * data_per_processor + overhead_term;
}

double structure_term(double per_processor, double constant, double processors) {
  return per_processor * processors + constant;
}

double program_execution_time(std::span<const double> stage_execution_times) {
  return std::accumulate(stage_execution_times.begin(), stage_execution_times.end(), 0.0);
}

}  // namespace hetscale::model

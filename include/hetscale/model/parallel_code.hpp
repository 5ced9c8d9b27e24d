#pragma once
// Stage-GA, Section II: the predicted execution time of a parallel code,
// stage (level) by stage. The optimizer's cost model (optimizer/cost_model)
// and the communication structures' costs (record/comm_profile) call these.
#include <span>

namespace hetscale::model {

// Stage-GA, Eq 1: t_exec^l = t_comp^l + t_comm^l
double stage_execution_time(double computation_time, double communication_time);

// Stage-GA, Eq 2: t_comp^l = t_seq^l / p_l
double stage_computation_time(double sequential_time, double processors);

// Stage-GA, Eq 3: t_comm^l = f1(c_l, p_l) d_l + f2(c_l, p_l), for d_l data per processor
double stage_communication_time(double size_term, double overhead_term, double data_per_processor);

// Stage-GA, Eq 3: f1 and f2 have the form a p_l + b, a and b constants of the structure c_l
double structure_term(double per_processor, double constant, double processors);

// Stage-GA, Eq 4: T = sum over the L stages of t_exec^l
double program_execution_time(std::span<const double> stage_execution_times);

}  // namespace hetscale::model

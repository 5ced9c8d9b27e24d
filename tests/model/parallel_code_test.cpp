// Stage-GA, Eqs 1-4: the predicted time of a parallel code, stage by stage,
// on hand-computed values and on the Hessenberg program H1 of Table IV.
#include "hetscale/model/parallel_code.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

namespace hetscale::model {
namespace {

// A stage of 2^31 operations on Stage-GA's 1 Gflop/s processors (docs/optimizer.md):
// t_seq = 2.147483648 s; on 16 processors t_comp = t_seq / 16 = 0.134217728 s (Eq 2).
TEST(ParallelCode, ComputationTimeIsTheSequentialTimeSharedByTheProcessors) {
  EXPECT_DOUBLE_EQ(stage_computation_time(2.147483648, 1.0), 2.147483648);
  EXPECT_DOUBLE_EQ(stage_computation_time(2.147483648, 16.0), 0.134217728);
  EXPECT_THROW(stage_computation_time(1.0, 0.0), std::invalid_argument);
  EXPECT_THROW(stage_computation_time(1.0, -4.0), std::invalid_argument);
}

// Eq 3 with f1 = 2e-9 p + 1e-8 s per double and f2 = 5e-5 p + 1e-4 s, p = 4, d = 1000 doubles:
//   f1 = 1.8e-8, f2 = 3e-4, t_comm = 1.8e-8 x 1000 + 3e-4 = 3.18e-4 s.
TEST(ParallelCode, CommunicationTimeIsASizeTermAndAnOverhead) {
  const double f1 = structure_term(2e-9, 1e-8, 4.0);
  const double f2 = structure_term(5e-5, 1e-4, 4.0);
  EXPECT_DOUBLE_EQ(f1, 1.8e-8);
  EXPECT_DOUBLE_EQ(f2, 3e-4);
  EXPECT_DOUBLE_EQ(stage_communication_time(f1, f2, 1000.0), 3.18e-4);
  EXPECT_DOUBLE_EQ(stage_communication_time(f1, f2, 0.0), f2);  // no data: the overhead alone
}

TEST(ParallelCode, StageTimeIsComputationPlusCommunication) {
  EXPECT_DOUBLE_EQ(stage_execution_time(0.134217728, 3.18e-4), 0.134535728);
}

// H1 on one processor per level (its exact optimum, tests/cli/golden/optimize_h1_exact.txt):
// four levels of 2^31 operations and one of 2^20, no communication: T = 8.590983168 s (Eq 4).
TEST(ParallelCode, ProgramTimeIsTheSumOfItsStages) {
  const std::vector<double> stages{2.147483648, 2.147483648, 0.001048576, 2.147483648, 2.147483648};
  EXPECT_DOUBLE_EQ(program_execution_time(stages), 8.590983168);
  EXPECT_EQ(program_execution_time({}), 0.0);
}

}  // namespace
}  // namespace hetscale::model

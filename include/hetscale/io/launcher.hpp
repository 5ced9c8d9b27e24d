#pragma once
// The MPI launcher (mpiexec, srun) that started this process, as it tells
// its processes before MPI is initialised (Open MPI's and MPICH's variables),
// and speaking through it: lines on stderr and progress shown by one rank.
#include <cstddef>
#include <string>

#include "hetscale/io/progress.hpp"

namespace hetscale::io {

// Exit codes of hetscale's commands beside 0 (done) and 1 (a check failed):
// bad input (InputError, said in one line), and a bug or a program the
// machine lacks.
inline constexpr int exit_bad_input = 2;
inline constexpr int exit_internal_error = 3;

// Whether an MPI launcher started this process.
bool started_by_launcher();
// Its rank under the launcher (Open MPI or MPICH); 0 when not started by one.
int launcher_rank();
// The ranks the launcher started, when it says; 0 if unknown.
std::size_t launcher_size();

// Whether a progress line is shown on `rank`: on rank 0 alone, as
// HETSCALE_PROGRESS says, else when stderr is a terminal, or under mpiexec
// (whose ranks write to it through a pipe) when mpiexec's is. Every rank
// checks HETSCALE_PROGRESS (InputError), so a bad value stops them all.
ProgressOutput progress_output_on_rank(int rank);

// `line` (with its newline) on stderr in one write: under mpiexec the
// launcher's own messages (a rank exited non-zero) come out on the same
// stderr, and a line written in pieces can be cut by them when the machine
// is busy.
void say_on_stderr(const std::string& line);

}  // namespace hetscale::io

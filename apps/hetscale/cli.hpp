#pragma once
// What every command file of the command line shares: how a command reports
// its output and exit code, and how option values become numbers. Commands
// are added by one function per group (add_*_commands); main.cpp only parses
// and runs the chosen action.
#include <cstddef>
#include <functional>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "hetscale/io/input_error.hpp"
#include "hetscale/io/progress.hpp"

namespace hetscale::cli {

inline constexpr int exit_bad_input = 2;
inline constexpr int exit_internal_error = 3;  // a bug, or a program the machine lacks (io::ProgramUnavailable)

// What a command prints on stdout, and its exit code.
struct Output {
  std::string text;
  int code = 0;
};

// The command chosen on the command line: either an ordinary action, whose
// output main prints (std::invalid_argument becomes one line on stderr and
// exit code 2), or an MPI action that runs on every rank, prints for itself
// and returns the exit code.
struct Actions {
  std::function<Output()> action;
  std::function<int(int& argc, char**& argv)> mpi_action;
};

// The ending of a command that makes a document: `json` written to `out`
// (atomically) when it is given, and shown: itself with --json
// (`print_json`), else the text `text` makes.
Output written_and_shown(const std::string& json, const std::string& out, bool print_json,
                         const std::function<std::string()>& text);
// An output printed on stdout (an MPI command's rank 0); its exit code.
int print(const Output& output);

// `line` (with its newline) on stderr in one write: under mpiexec the
// launcher's own messages (a rank exited non-zero) come out on the same
// stderr, and a line written in pieces (std::cerr << a << b) can be cut by
// them when the machine is busy.
void say_on_stderr(const std::string& line);

// Exactly one number.
double single_number(const std::string& text, const std::string& option);
// A whole number >= 1 (and <= 1e9).
std::size_t count_option(const std::string& text, const std::string& option);
// Speeds given per rank (--speeds, --marked-speeds): none when `text` is
// empty, else one number > 0 for each of `ranks` (InputError naming the option).
std::vector<double> per_rank_speeds(const std::string& text, const std::string& option, int ranks);
// --speeds: emulated relative speeds, per rank as above, each in (0, 1].
std::vector<double> emulated_speeds_option(const std::string& text, int ranks);

// A setting as the library names it ("speeds") and the option that gives it:
// the same word after "--" unless named ({"size", "--sizes"}).
struct OptionName {
  OptionName(const char* field, const char* option = "") : field(field), option(option) {}
  std::string_view field, option;
};

// Runs `call`. The library names a setting by its field ("speeds"); an
// InputError whose source is one of `fields` is said again naming its
// option (--speeds), so that no option's name is spelled in the library.
template <class Call>
auto with_options_named(std::initializer_list<OptionName> fields, Call call) -> decltype(call()) {
  try {
    return call();
  } catch (const InputError& error) {
    for (const auto& field : fields)
      if (error.source() == field.field)
        throw InputError(field.option.empty() ? "--" + error.source() : std::string(field.option), error.field(),
                         error.problem());
    throw;
  }
}

// A name turned into its value; a name the library does not know is bad
// input to `option`.
template <class FromString>
auto named_choice(FromString from_string, const std::string& name, const std::string& option) {
  try {
    return from_string(name);
  } catch (const std::invalid_argument& error) {
    throw InputError(option, "", error.what());
  }
}

// The rank of this process under mpiexec, before MPI is initialised (Open MPI
// or MPICH); 0 when not started by mpiexec.
int launcher_rank();
// Whether an MPI launcher (mpiexec, srun) started this process.
bool started_by_launcher();

// Whether an MPI command's progress line is shown on this rank: on rank 0
// alone, as HETSCALE_PROGRESS says, else when stderr is a terminal, or under
// mpiexec (whose ranks write to it through a pipe) when mpiexec's is. Every
// rank checks HETSCALE_PROGRESS (InputError), so a bad value stops them all.
io::ProgressOutput progress_output_on_rank(int rank);

// An MPI command, run on every rank: MPI is started, `prepare` checks the
// input (each rank the same checks, so a bad input stops every rank with exit
// code 2 and one line on stderr from rank 0), then `body` runs and returns the
// exit code. Any other exception ends every rank at once (exit code 3).
int run_mpi_command(int& argc, char**& argv, const std::function<void(int rank, int ranks)>& prepare,
                    const std::function<int(int rank, int ranks)>& body);

// The folder of examples/ and data/: HETSCALE_HOME if set, else an installed
// hetscale's share/hetscale, else the project folder it was built from.
std::string home_dir();

// A program or library hetscale runs (libhetscale_measure.so, hetscale-smpi):
// an installed hetscale's copy in lib/hetscale, else `built`.
std::string helper_path(const std::string& name, const std::string& built);

// The farm's options a task run shares with the GA farm (main.cpp).
struct GeneralFarmOptions {
  std::string policy;
  std::string speeds, out, label;
  bool json = false;
  std::string ga_options_given;  // the first GA option given, such as "--population" (none: empty)
};
// hetscale farm --tasks | --command (task_commands.cpp, docs/tasks.md).
struct TaskRunOptions {
  std::string tasks, command, inputs, results, output_dir;
  bool resume = false;
  std::size_t retries = 0;
  double timeout = 0.0;
};
void add_task_run_options(CLI::App& farm, TaskRunOptions& options);
bool task_run_requested(const TaskRunOptions& options);
// Runs on every rank; returns the exit code (how many tasks failed, 101 for more than 100).
int run_task_farm(const TaskRunOptions& options, const GeneralFarmOptions& farm, int& argc, char**& argv);

// Each command's options and action, one file per group; main.cpp creates the
// top-level commands (in the order of a user's day, each with what it answers)
// and hands each to its function here.
void add_measure_command(CLI::App& measure, Actions& actions);      // measure_commands.cpp (PMPI)
void add_report_command(CLI::App& report, Actions& actions);        // report_commands.cpp (HTML)
void add_predict_command(CLI::App& predict, Actions& actions);      // predict_commands.cpp
void add_partition_commands(CLI::App& partition, CLI::App& model,
                            Actions& actions);                      // partition_commands.cpp: partition, model fpm
void add_simulate_commands(CLI::App& simulate, Actions& actions);   // simulate_commands.cpp: farm, platform
void add_simulate_kernel_commands(CLI::App& simulate, Actions& actions);  // simulate_kernel_commands.cpp (SMPI)
void add_optimize_command(CLI::App& optimize, Actions& actions);    // optimize_commands.cpp
void add_bench_speed_command(CLI::App& bench, Actions& actions);    // kernel_commands.cpp: bench speed (MPI)
void add_bench_comm_command(CLI::App& bench, Actions& actions);     // comm_commands.cpp: bench comm (MPI)
void add_bench_steps_command(CLI::App& bench, Actions& actions);    // comm_commands.cpp: bench steps (MPI)
void add_bench_fpm_command(CLI::App& bench, Actions& actions);      // partition_commands.cpp: bench fpm
void add_kernel_command(CLI::App& kernel, Actions& actions);        // kernel_commands.cpp: kernel (MPI)
void add_scale_commands(CLI::App& scale, Actions& actions);         // scale_commands.cpp: psi, predict, fit
void add_scale_run_commands(CLI::App& scale, Actions& actions);     // kernel_commands.cpp: sweep (MPI)

}  // namespace hetscale::cli

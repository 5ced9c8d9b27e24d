// The cost of measuring with `hetscale measure`: each program run
// plain and measured, in turn, several times in one run of this benchmark;
// the fastest of each is compared (other work on a shared machine can only
// slow a run down), and the ratios printed as a Markdown table.
//
//   measure_overhead [--check]
//
// - per call: 1,000,000 MPI_Allreduce calls of one double on one rank (no
//   partner to wait for): the time measuring adds to each call, in ns;
// - 100,000 small MPI_Allreduce calls on 2 ranks (about 0.4 us each here):
//   the overhead on the loop, goal under 10 %;
// - a polling loop: 2,000,000 MPI_Testany calls on a receive not yet
//   matched, back to back on one rank (the time added to each call, goal
//   40 ns), and on 2 ranks with 100 steps of arithmetic between two polls
//   (about 0.4 us a poll, a program that computes while it polls: the overhead on
//   the loop, goal under 10 %);
// - LAMMPS from Debian (the Lennard-Jones melt of tests/measure/data) on 2
//   ranks: the overhead on LAMMPS's own Loop time and on the whole run (which
//   also holds the transfer model's calibration in MPI_Init), goal under 1 %.
// --check exits 1 when a goal is missed.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include <fmt/core.h>

namespace {

const std::string work_dir = (std::filesystem::temp_directory_path() / "hetscale-measure-overhead").string();

// What a command printed on stdout (stderr kept), or nothing when it failed.
std::optional<std::string> output_of(const std::string& command) {
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return std::nullopt;
  std::string text;
  char buffer[4096];
  for (std::size_t read; (read = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) text.append(buffer, read);
  return pclose(pipe) == 0 ? std::optional(text) : std::nullopt;
}

double seconds_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// One timed run: the program's own figure (parsed by `pattern`) and the wall time.
struct Timing {
  double own = 0.0, wall = 0.0;
};

Timing run_once(const std::string& command, const std::regex& pattern) {
  std::fprintf(stderr, "$ %s\n", command.c_str());
  const double start = seconds_now();
  const auto text = output_of(command);
  const double wall = seconds_now() - start;
  std::smatch match;
  if (!text || !std::regex_search(*text, match, pattern)) {
    std::fprintf(stderr, "measure_overhead: the run failed or printed no time: %s\n", command.c_str());
    std::exit(1);
  }
  return {std::stod(match[1].str()), wall};
}

// The fastest of `runs` plain and `runs` measured runs, taken in turn.
struct Comparison {
  Timing plain{1e300, 1e300}, measured{1e300, 1e300};
  double overhead() const { return measured.own / plain.own - 1.0; }
  double wall_overhead() const { return measured.wall / plain.wall - 1.0; }
};

Comparison compare(int ranks, const std::string& program, const std::regex& pattern, int runs) {
  std::filesystem::create_directories(work_dir);
  const std::string launcher = fmt::format("{} {} {} {}", HETSCALE_MPIEXEC, HETSCALE_MPIEXEC_NP_FLAG, ranks,
                                           HETSCALE_MPIEXEC_FLAGS);
  const std::string measured = fmt::format("{} measure --out {}/record.json --", HETSCALE_CLI, work_dir);
  Comparison fastest;
  for (int run = 0; run < runs; ++run) {
    for (bool measuring : {false, true}) {
      const auto timing = run_once(fmt::format("cd {} && {} {} {} 2>&1", work_dir, launcher,
                                               measuring ? measured : std::string(), program),
                                   pattern);
      auto& best = measuring ? fastest.measured : fastest.plain;
      best.own = std::min(best.own, timing.own);
      best.wall = std::min(best.wall, timing.wall);
    }
  }
  return fastest;
}

std::string percent(double fraction) { return fmt::format("{:+.2f} %", 100.0 * fraction); }

}  // namespace

int main(int argc, char** argv) {
  const bool check = argc > 1 && std::string(argv[1]) == "--check";
  const std::regex loop_time(R"(allreduce_loop: \d+ calls in ([0-9.eE+-]+) s)");
  bool met = true;

  const long per_call_calls = 1'000'000;
  const auto single = compare(1, fmt::format("{} {}", HETSCALE_ALLREDUCE_LOOP, per_call_calls), loop_time, 5);
  const double added_ns = (single.measured.own - single.plain.own) / per_call_calls * 1e9;

  const auto pair = compare(2, fmt::format("{} 100000", HETSCALE_ALLREDUCE_LOOP), loop_time, 5);
  const bool loop_met = pair.overhead() < 0.10;
  met = met && loop_met;

  const std::regex polling_time(R"(testany_loop: \d+ calls in ([0-9.eE+-]+) s)");
  const long polls = 2'000'000;
  const auto polling_one = compare(1, fmt::format("{} {}", HETSCALE_TESTANY_LOOP, polls), polling_time, 5);
  const double polling_added_ns = (polling_one.measured.own - polling_one.plain.own) / polls * 1e9;
  const bool polling_call_met = polling_added_ns <= 40.0;
  const auto polling_two = compare(2, fmt::format("{} {} 100", HETSCALE_TESTANY_LOOP, polls), polling_time, 5);
  const bool polling_loop_met = polling_two.overhead() < 0.10;
  met = met && polling_call_met && polling_loop_met;

  std::printf("\n## The cost of measuring (hetscale measure), fastest of 5 runs each, plain and measured in turn\n\n");
  std::printf("| program | ranks | plain | measured | overhead | goal |\n|---|---|---|---|---|---|\n");
  std::printf("| %ld MPI_Allreduce (per call: %.1f ns added; plain %.1f ns a call) | 1 | %.6f s | %.6f s | %s | - |\n",
              per_call_calls, added_ns, single.plain.own / per_call_calls * 1e9, single.plain.own,
              single.measured.own, percent(single.overhead()).c_str());
  std::printf("| 100000 MPI_Allreduce (%.2f us a call) | 2 | %.6f s | %.6f s | %s | < 10 %%: %s |\n",
              pair.plain.own / 1e5 * 1e6, pair.plain.own, pair.measured.own, percent(pair.overhead()).c_str(),
              loop_met ? "met" : "missed");

  std::printf("| %ld MPI_Testany polls (per call: %.1f ns added; plain %.1f ns a call) | 1 | %.6f s | %.6f s | %s | "
              "<= 40 ns a call: %s |\n",
              polls, polling_added_ns, polling_one.plain.own / polls * 1e9, polling_one.plain.own,
              polling_one.measured.own, percent(polling_one.overhead()).c_str(), polling_call_met ? "met" : "missed");
  std::printf("| %ld MPI_Testany polls, 100 steps of arithmetic between two (%.1f ns a poll) | 2 | %.6f s | %.6f s | "
              "%s | < 10 %%: %s |\n", polls,
              polling_two.plain.own / polls * 1e9, polling_two.plain.own, polling_two.measured.own,
              percent(polling_two.overhead()).c_str(), polling_loop_met ? "met" : "missed");

  const std::string lammps = HETSCALE_LMP;
  if (lammps.empty() || lammps.find("NOTFOUND") != std::string::npos) {
    std::printf("| LAMMPS | 2 | - | - | - | not run: lmp not found (scripts/install-deps installs lammps) |\n");
    met = false;
  } else {
    const std::regex lammps_loop(R"(Loop time of ([0-9.eE+-]+) on)");
    const auto melt = compare(2, fmt::format("{} -log none -in {}", lammps, HETSCALE_LJ_MELT), lammps_loop, 3);
    const bool lammps_met = melt.overhead() < 0.01;
    met = met && lammps_met;
    std::printf("| LAMMPS lj-melt, its Loop time (3 runs each) | 2 | %.3f s | %.3f s | %s | < 1 %%: %s |\n",
                melt.plain.own, melt.measured.own, percent(melt.overhead()).c_str(), lammps_met ? "met" : "missed");
    std::printf("| LAMMPS lj-melt, the whole run's wall time | 2 | %.3f s | %.3f s | %s | - |\n", melt.plain.wall,
                melt.measured.wall, percent(melt.wall_overhead()).c_str());
  }
  std::printf("\n");
  return check && !met ? 1 : 0;
}

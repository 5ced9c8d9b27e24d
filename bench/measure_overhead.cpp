// The cost of measuring with `hetscale measure`: each program run plain and
// measured in turn, in pairs, several pairs in one run of this benchmark;
// each pair's ratio (measured over plain) is taken and their median
// reported, with the interval between the second smallest and the second
// largest ratio (for 9 pairs, a 96 % interval of the median; for 5, the
// smallest and largest: 94 %). Pairs, not the fastest of each: this
// machine's cores switch between two speeds about 15 % apart, and a pair
// run back to back mostly sees one of them. Printed as a Markdown table.
//
//   measure_overhead [--check] [--openmp]   (--openmp: the OpenMP cost alone)
//
// - per call: 1,000,000 MPI_Allreduce calls of one double on one rank (no
//   partner to wait for): the time measuring adds to each call, in ns;
// - 100,000 small MPI_Allreduce calls on 2 ranks (about 0.3 us each here):
//   the overhead on the loop, goal under 10 %, judged in one run
//   (bench/programs/allreduce_blocks.c: blocks of calls through the library
//   and around it, in turn, in the same processes), and shown for pairs of
//   plain and measured runs too (which this machine's placements of two
//   ranks, 0.25 or 0.5 us a call from run to run, make noisy);
// - a polling loop: 2,000,000 MPI_Testany calls on a receive not yet
//   matched, back to back on one rank (the time added to each call, goal
//   40 ns), and on 2 ranks with 100 steps of arithmetic between two polls
//   (about 0.4 us a poll, a program that computes while it polls: the overhead on
//   the loop, goal under 10 %);
// - LAMMPS from Debian (the Lennard-Jones melt of tests/measure/data) on 2
//   ranks: the overhead on LAMMPS's own Loop time and on the whole run (which
//   also holds the transfer model's calibration in MPI_Init), in pairs of
//   runs in turn, whose ratios swing by 10 to 30 points here; and on 1 rank,
//   a plain and a measured run at the same time, one on each core (taskset),
//   the cores swapped from pair to pair: both see the same state of the
//   machine (its cores' speed, a neighbour), so the pair's ratio keeps the
//   cost of measuring and little else. Goal under 1 %, judged on the latter.
// - OpenMP (bench/programs/openmp_regions.c: 100,000 parallel regions of
//   two threads, about 10 us each here, the median of 20 chunks) measured
//   with --openmp, LLVM's tool interface off (OMP_TOOL=disabled) and on:
//   what the OpenMP states cost, goal under 2 %; beside it, in the same
//   rounds, the program alone with a tool that asks for no callback (the
//   floor any tool pays).
// --check exits 1 when a goal is missed (judged on the median).
#include <algorithm>
#include <cmath>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <regex>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

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

// The numbers `pattern` finds in what `command` printed (its groups, from
// 1); the benchmark stops when the run fails or prints none.
std::vector<double> figures_of(const std::string& command, const std::regex& pattern) {
  std::fprintf(stderr, "$ %s\n", command.c_str());
  const auto text = output_of(command);
  std::smatch match;
  if (!text || !std::regex_search(*text, match, pattern)) {
    std::fprintf(stderr, "measure_overhead: the run failed or printed no time: %s\n", command.c_str());
    std::exit(1);
  }
  std::vector<double> figures;
  for (std::size_t group = 1; group < match.size(); ++group) figures.push_back(std::stod(match[group].str()));
  return figures;
}

Timing run_once(const std::string& command, const std::regex& pattern) {
  const double start = seconds_now();
  const double own = figures_of(command, pattern).front();
  return {own, seconds_now() - start};
}

// `pairs` pairs of a plain and a measured run, in turn: the median of the
// plain runs' times and of the measured ones', and of the pairs' ratios
// (own figure and wall time) with the interval of the median.
struct Comparison {
  double plain = 0.0, measured = 0.0;  // medians of the programs' own figures
  double plain_wall = 0.0, measured_wall = 0.0;
  double ratio = 1.0, ratio_low = 1.0, ratio_high = 1.0;  // measured / plain, own figure
  double wall_ratio = 1.0;
  double difference = 0.0;  // median of measured - plain, own figure
  double overhead() const { return ratio - 1.0; }
  double wall_overhead() const { return wall_ratio - 1.0; }
};

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// The median's interval of n values: from the k-th smallest to the k-th
// largest, k the largest with P(Binomial(n, 1/2) < k) <= 2.5 % (the
// interval holds the median with 95 % or more), at least 1: for 5 values
// the smallest to the largest (94 %), for 9 the second to the eighth (96 %),
// for 15 the fourth to the twelfth (96 %).
std::pair<double, double> median_interval(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  double below = 0.0, term = std::pow(0.5, static_cast<double>(n));  // P(B = j), from j = 0
  std::size_t k = 1;
  for (std::size_t j = 0; j + 1 < n / 2; ++j) {
    below += term;  // P(B <= j)
    if (below > 0.025) break;
    k = j + 1;
    term *= static_cast<double>(n - j) / static_cast<double>(j + 1);
  }
  return {values[k - 1], values[n - k]};
}

// The median of the ratios and its interval.
void set_ratio(Comparison& comparison, std::vector<double> ratios) {
  comparison.ratio = median(ratios);
  std::tie(comparison.ratio_low, comparison.ratio_high) = median_interval(std::move(ratios));
}

// The medians of paired figures, plain and measured, and of their ratios
// (measured over plain) with its interval.
Comparison paired(const std::vector<double>& plain, const std::vector<double>& measured) {
  std::vector<double> ratios;
  for (std::size_t k = 0; k < plain.size(); ++k) ratios.push_back(measured[k] / plain[k]);
  Comparison comparison;
  comparison.plain = median(plain);
  comparison.measured = median(measured);
  set_ratio(comparison, std::move(ratios));
  return comparison;
}

// What the two runs of a pair add before the program: nothing beside
// measuring; measuring beside measuring and tracing.
enum class Beside { plain, tracing };

Comparison compare(int ranks, const std::string& program, const std::regex& pattern, int pairs,
                   Beside beside = Beside::plain) {
  std::filesystem::create_directories(work_dir);
  const std::string launcher =
      fmt::format("{} {} {} {}", HETSCALE_MPIEXEC, HETSCALE_MPIEXEC_NP_FLAG, ranks, HETSCALE_MPIEXEC_FLAGS);
  const std::string measuring_only = fmt::format("{} measure --out {}/record.json --", HETSCALE_CLI, work_dir);
  const std::string baseline = beside == Beside::tracing ? measuring_only : std::string();
  const std::string measured =
      beside == Beside::tracing
          ? fmt::format("{} measure --out {}/record.json --trace {}/trace --", HETSCALE_CLI, work_dir, work_dir)
          : measuring_only;
  std::vector<double> plain, measured_own, plain_wall, measured_wall, ratios, wall_ratios, differences;
  for (int pair = 0; pair < pairs; ++pair) {
    Timing timings[2];
    for (bool measuring : {false, true})
      timings[measuring] = run_once(
          fmt::format("cd {} && {} {} {} 2>&1", work_dir, launcher, measuring ? measured : baseline, program), pattern);
    plain.push_back(timings[0].own);
    measured_own.push_back(timings[1].own);
    plain_wall.push_back(timings[0].wall);
    measured_wall.push_back(timings[1].wall);
    ratios.push_back(timings[1].own / timings[0].own);
    wall_ratios.push_back(timings[1].wall / timings[0].wall);
    differences.push_back(timings[1].own - timings[0].own);
  }
  Comparison comparison;
  comparison.plain = median(plain);
  comparison.measured = median(measured_own);
  comparison.plain_wall = median(plain_wall);
  comparison.measured_wall = median(measured_wall);
  comparison.wall_ratio = median(wall_ratios);
  comparison.difference = median(differences);
  set_ratio(comparison, std::move(ratios));
  return comparison;
}

// The overhead and its interval: "+5.0 % (+2.1 .. +8.3 %)".
std::string overhead_text(const Comparison& c) {
  return fmt::format("{:+.2f} % ({:+.1f} .. {:+.1f} %)", 100.0 * c.overhead(), 100.0 * (c.ratio_low - 1.0),
                     100.0 * (c.ratio_high - 1.0));
}

// The trace's size per action, from the manifest of the last traced run.
std::string trace_size() {
  std::ifstream in(work_dir + "/trace/manifest.json");
  const auto manifest = nlohmann::json::parse(in, nullptr, false);
  if (manifest.is_discarded() || !manifest.contains("actions")) return "-";
  double actions = 0.0, bytes = 0.0;
  for (const auto& count : manifest["actions"]) actions += count.get<double>();
  for (const auto& name : manifest["files"])
    bytes += static_cast<double>(std::filesystem::file_size(work_dir + "/trace/" + name.get<std::string>()));
  return actions > 0.0 ? fmt::format("{:.1f} bytes (gzip) an action, {:.0f} actions a rank", bytes / actions,
                                     actions / manifest["actions"].size())
                       : "-";
}

// `pairs` pairs of a plain and a measured run of `program` on one rank each,
// at the same time, each on a core of its own (the cores swapped each pair):
// the middle one of the figures each prints (a program that runs its work
// three times: the other copy runs beside the middle one's whole time, so
// neither has the machine to itself, which a lone core's turbo would favour).
Comparison compare_side_by_side(const std::string& program, const std::regex& pattern, int pairs) {
  std::filesystem::create_directories(work_dir);
  const std::string launcher =
      fmt::format("{} {} 1 {}", HETSCALE_MPIEXEC, HETSCALE_MPIEXEC_NP_FLAG, HETSCALE_MPIEXEC_FLAGS);
  const auto figure_in = [&](const std::string& file) {
    std::ifstream in(file);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::vector<double> figures;
    for (auto match = std::sregex_iterator(text.begin(), text.end(), pattern); match != std::sregex_iterator(); ++match)
      figures.push_back(std::stod((*match)[1].str()));
    if (figures.empty()) {
      std::fprintf(stderr, "measure_overhead: a side-by-side run printed no time (%s)\n", file.c_str());
      std::exit(1);
    }
    return figures[figures.size() / 2];
  };
  std::vector<double> plain, measured;
  for (int pair = 0; pair < pairs; ++pair) {
    const int plain_core = pair % 2, measured_core = 1 - plain_core;
    const std::string command = fmt::format(
        "cd {0} && (taskset -c {1} {2} {3} > {0}/plain.out 2>&1 & "
        "taskset -c {4} {2} {5} measure --out {0}/side.json -- {3} > {0}/measured.out 2>&1 & wait)",
        work_dir, plain_core, launcher, program, measured_core, HETSCALE_CLI);
    std::fprintf(stderr, "$ %s\n", command.c_str());
    if (std::system(command.c_str()) != 0) {
      std::fprintf(stderr, "measure_overhead: the side-by-side runs failed: %s\n", command.c_str());
      std::exit(1);
    }
    plain.push_back(figure_in(work_dir + "/plain.out"));
    measured.push_back(figure_in(work_dir + "/measured.out"));
  }
  return paired(plain, measured);
}

// Measured runs of allreduce_blocks: the median of their ratios (through the
// library over around it) and its interval, as Comparison holds them.
Comparison compare_blocks(int runs) {
  std::filesystem::create_directories(work_dir);
  const std::regex blocks_time(R"(allreduce_blocks: around ([0-9.eE+-]+) s through ([0-9.eE+-]+) s)");
  std::vector<double> around, through;
  for (int run = 0; run < runs; ++run) {
    const std::string command = fmt::format("cd {} && {} {} 2 {} {} measure --out {}/record.json -- {} 2>&1", work_dir,
                                            HETSCALE_MPIEXEC, HETSCALE_MPIEXEC_NP_FLAG, HETSCALE_MPIEXEC_FLAGS,
                                            HETSCALE_CLI, work_dir, HETSCALE_ALLREDUCE_BLOCKS);
    const auto figures = figures_of(command, blocks_time);
    around.push_back(figures[0]);
    through.push_back(figures[1]);
  }
  return paired(around, through);
}

// What --trace adds to measuring: stated, no goal (the issue asks for its cost).
void print_tracing_cost() {
  const std::regex loop_time(R"(allreduce_loop: \d+ calls in ([0-9.eE+-]+) s)");
  const auto loop = compare(2, fmt::format("{} 100000", HETSCALE_ALLREDUCE_LOOP), loop_time, 9, Beside::tracing);
  const std::string loop_size = trace_size();
  std::printf("## The cost of tracing (measure --trace) beside measuring alone: pairs in turn, medians\n\n");
  std::printf(
      "| program | ranks | measured | measured and traced | overhead of the trace | trace size |\n"
      "|---|---|---|---|---|---|\n");
  std::printf("| 100000 MPI_Allreduce | 2 | %.6f s | %.6f s | %s | %s |\n", loop.plain, loop.measured,
              overhead_text(loop).c_str(), loop_size.c_str());
  const std::string lammps = HETSCALE_LMP;
  if (!lammps.empty() && lammps.find("NOTFOUND") == std::string::npos) {
    const std::regex lammps_loop(R"(Loop time of ([0-9.eE+-]+) on)");
    const auto melt =
        compare(2, fmt::format("{} -log none -in {}", lammps, HETSCALE_LJ_MELT), lammps_loop, 5, Beside::tracing);
    std::printf("| LAMMPS lj-melt, its Loop time | 2 | %.3f s | %.3f s | %s | %s |\n", melt.plain, melt.measured,
                overhead_text(melt).c_str(), trace_size().c_str());
  }
  std::printf("\n");
}

// What measuring OpenMP's states adds: a loop of short parallel regions of
// two threads on LLVM's runtime, in rounds of four runs: measured (measure
// --openmp) with the tool interface off (OMP_TOOL=disabled) and on; and the
// program alone on the runtime with the interface off and with a tool that
// asks for no callback (bench/programs/ompt_null_tool.c), the floor any tool
// pays. Each round's two ratios and their difference (what hetscale's
// callbacks add to the floor) are taken, and their medians shown. The
// issue's goal, judged on the measured pair: under 2 %.
bool print_openmp_cost() {
  const std::regex loop_time(R"(openmp_regions: \d+ regions in ([0-9.eE+-]+) s)");
  const double regions = 100000;
  const int rounds = 15;
  setenv("OMP_NUM_THREADS", "2", 1);
  std::filesystem::create_directories(work_dir);
  // A rank's threads may use every core (Open MPI binds a rank to one by default).
  const std::string launcher = fmt::format("cd {} && {} {} 1 {} --bind-to none", work_dir, HETSCALE_MPIEXEC,
                                           HETSCALE_MPIEXEC_NP_FLAG, HETSCALE_MPIEXEC_FLAGS);
  const std::string program = fmt::format("{} {:.0f}", HETSCALE_OPENMP_REGIONS, regions);
  const std::string measured =
      fmt::format("{} measure --openmp --out {}/record.json -- {}", HETSCALE_CLI, work_dir, program);
  const std::string null_tool = HETSCALE_OMPT_NULL_TOOL, libomp = HETSCALE_LIBOMP;
  std::vector<std::string> commands = {launcher + " env OMP_TOOL=disabled " + measured, launcher + " " + measured};
  const bool with_floor = !null_tool.empty();
  if (with_floor) {
    commands.push_back(fmt::format("{} env OMP_TOOL=disabled LD_PRELOAD={} {}", launcher, libomp, program));
    commands.push_back(fmt::format("{} env LD_PRELOAD={}:{} {}", launcher, libomp, null_tool, program));
  }
  std::vector<std::vector<double>> times(commands.size());
  for (int round = 0; round < rounds; ++round)
    for (std::size_t k = 0; k < commands.size(); ++k)
      times[k].push_back(run_once(commands[k] + " 2>&1", loop_time).own);
  const auto tool = paired(times[0], times[1]);
  const bool met = tool.overhead() < 0.02;
  std::printf(
      "## The cost of measuring OpenMP's states (measure --openmp, the tool interface off and on): %d rounds in "
      "turn, medians\n\n",
      rounds);
  std::printf("| program | threads | tool off | tool on | overhead | goal |\n|---|---|---|---|---|---|\n");
  std::printf(
      "| %.0f parallel regions (%.2f us a region), measured | 2 | %.6f s | %.6f s | %s (%.2f us a region) | "
      "under 2 %%: %s |\n",
      regions, tool.plain / regions * 1e6, tool.plain, tool.measured, overhead_text(tool).c_str(),
      tool.overhead() * tool.plain / regions * 1e6, met ? "met" : "missed");
  if (with_floor) {
    const auto alone = paired(times[2], times[3]);
    std::vector<double> beyond;
    for (int round = 0; round < rounds; ++round)
      beyond.push_back(times[1][round] / times[0][round] - times[3][round] / times[2][round]);
    const auto [low, high] = median_interval(beyond);
    std::printf("| the same alone, a tool that asks for no callback | 2 | %.6f s | %.6f s | %s | - |\n\n", alone.plain,
                alone.measured, overhead_text(alone).c_str());
    std::printf("hetscale's callbacks beyond that floor: %+.2f points (%+.1f .. %+.1f)\n", 100.0 * median(beyond),
                100.0 * low, 100.0 * high);
  }
  std::printf("\n");
  return met;
}

}  // namespace

int main(int argc, char** argv) {
  bool check = false, openmp_only = false;
  for (int i = 1; i < argc; ++i) {
    check = check || std::string(argv[i]) == "--check";
    openmp_only = openmp_only || std::string(argv[i]) == "--openmp";
  }
  if (openmp_only) return print_openmp_cost() || !check ? 0 : 1;
  const std::regex loop_time(R"(allreduce_loop: \d+ calls in ([0-9.eE+-]+) s)");
  bool met = true;

  const long per_call_calls = 1'000'000;
  const auto single = compare(1, fmt::format("{} {}", HETSCALE_ALLREDUCE_LOOP, per_call_calls), loop_time, 9);
  const double added_ns = single.difference / per_call_calls * 1e9;

  const auto pair = compare(2, fmt::format("{} 100000", HETSCALE_ALLREDUCE_LOOP), loop_time, 9);
  const auto blocks = compare_blocks(9);
  const bool loop_met = blocks.overhead() < 0.10;
  met = met && loop_met;

  const std::regex polling_time(R"(testany_loop: \d+ calls in ([0-9.eE+-]+) s)");
  const long polls = 2'000'000;
  const auto polling_one = compare(1, fmt::format("{} {}", HETSCALE_TESTANY_LOOP, polls), polling_time, 9);
  const double polling_added_ns = polling_one.difference / polls * 1e9;
  const bool polling_call_met = polling_added_ns <= 40.0;
  const auto polling_two = compare(2, fmt::format("{} {} 100", HETSCALE_TESTANY_LOOP, polls), polling_time, 9);
  const bool polling_loop_met = polling_two.overhead() < 0.10;
  met = met && polling_call_met && polling_loop_met;

  std::printf(
      "\n## The cost of measuring (hetscale measure): pairs of a plain and a measured run in turn, medians "
      "(9 pairs; LAMMPS 5), the overhead's interval in brackets\n\n");
  std::printf(
      "| program | ranks | plain | measured | overhead (median of the pairs) | goal |\n|---|---|---|---|---|---|\n");
  std::printf("| %ld MPI_Allreduce (per call: %.1f ns added; plain %.1f ns a call) | 1 | %.6f s | %.6f s | %s | - |\n",
              per_call_calls, added_ns, single.plain / per_call_calls * 1e9, single.plain, single.measured,
              overhead_text(single).c_str());
  std::printf("| 100000 MPI_Allreduce (%.2f us a call), pairs of runs | 2 | %.6f s | %.6f s | %s | - |\n",
              pair.plain / 1e5 * 1e6, pair.plain, pair.measured, overhead_text(pair).c_str());
  std::printf(
      "| 100000 MPI_Allreduce in blocks of 5000 through the library and around it (PMPI_), in turn in one measured "
      "run (9 runs) | 2 | %.6f s | %.6f s | %s | < 10 %%: %s |\n",
      blocks.plain, blocks.measured, overhead_text(blocks).c_str(), loop_met ? "met" : "missed");

  std::printf(
      "| %ld MPI_Testany polls (per call: %.1f ns added; plain %.1f ns a call) | 1 | %.6f s | %.6f s | %s | "
      "<= 40 ns a call: %s |\n",
      polls, polling_added_ns, polling_one.plain / polls * 1e9, polling_one.plain, polling_one.measured,
      overhead_text(polling_one).c_str(), polling_call_met ? "met" : "missed");
  std::printf(
      "| %ld MPI_Testany polls, 100 steps of arithmetic between two (%.1f ns a poll) | 2 | %.6f s | %.6f s | "
      "%s | < 10 %%: %s |\n",
      polls, polling_two.plain / polls * 1e9, polling_two.plain, polling_two.measured,
      overhead_text(polling_two).c_str(), polling_loop_met ? "met" : "missed");

  const std::string lammps = HETSCALE_LMP;
  if (lammps.empty() || lammps.find("NOTFOUND") != std::string::npos) {
    std::printf("| LAMMPS | 2 | - | - | - | not run: lmp not found (scripts/install-deps installs lammps) |\n");
    met = false;
  } else {
    const std::regex lammps_loop(R"(Loop time of ([0-9.eE+-]+) on)");
    const std::string melt_program = fmt::format("{} -log none -in {}", lammps, HETSCALE_LJ_MELT);
    const auto melt = compare(2, melt_program, lammps_loop, 5);
    const auto side_by_side = compare_side_by_side(
        fmt::format("{} -log none -var melt {} -in {}", lammps, HETSCALE_LJ_MELT, HETSCALE_LJ_MELT_THREE_RUNS),
        lammps_loop, 9);
    const bool lammps_met = side_by_side.overhead() < 0.01;
    met = met && lammps_met;
    std::printf("| LAMMPS lj-melt, its Loop time, pairs of runs | 2 | %.3f s | %.3f s | %s | - |\n", melt.plain,
                melt.measured, overhead_text(melt).c_str());
    std::printf("| LAMMPS lj-melt, the whole run's wall time, pairs of runs | 2 | %.3f s | %.3f s | %+.2f %% | - |\n",
                melt.plain_wall, melt.measured_wall, 100.0 * melt.wall_overhead());
    std::printf(
        "| LAMMPS lj-melt, its Loop time, a plain and a measured run at the same time on the two cores (the middle of "
        "three runs; 9 pairs) | "
        "1 | %.3f s | %.3f s | %s | < 1 %%: %s |\n",
        side_by_side.plain, side_by_side.measured, overhead_text(side_by_side).c_str(), lammps_met ? "met" : "missed");
  }
  std::printf("\n");
  print_tracing_cost();
  met = print_openmp_cost() && met;
  return check && !met ? 1 : 0;
}

// How well `hetscale predict` predicts a larger run it has not seen (its
// goals): runs at a few small scales are fitted (hetscale::scaling_of_runs and
// hetscale::predict_scaling with the default search, as `hetscale predict`
// fits them), and each prediction of t_par is compared with a run made at the
// larger scale and held out of the fit.
//
//   prediction_accuracy [--check] [--quick] [--family farm|kernels|measured]
//
// Three families, each run through the command line as a user would run it,
// the records read back with the library:
//   farm      the GA task farm on MPI (`mpiexec -np c+1 hetscale farm --policy
//             adaptive --objective synthetic ...`), clients emulated at the
//             first c speeds of the cycle 1, 0.5, 0.25, 0.75; c = 2, 3, 4, 6, 8
//             fitted, 16 and 32 held out. Real time on a shared machine: noisy.
//   kernels   ge (N = 1000) and mm (N = 2000) in the simulator (`hetscale
//             simulate kernel ... --platform data/platforms/sunwulf.json
//             --hosts K`, the platform's first K hosts): K = 2, 3, 4, 6, 8
//             fitted, 16 and 32 held out. Simulated time: deterministic.
//   measured  bench/programs/split_work (a fixed amount of CPU work split over
//             the ranks in proportion to their speeds, an MPI_Allreduce a step:
//             strong scaling) under `mpiexec -np K hetscale measure
//             --emulate-speeds ...`, speeds 0.15 x the farm's cycle so that
//             16 ranks ask for less than this machine's 2 cores; K = 2, 3, 4,
//             6, 8 fitted, 16 held out.
// The farm and the measured program run 3 times at each scale (--repetitions):
// each scale's value, fitted or held out, is the median of its runs
// (`hetscale predict --measure median`).
// Each family is fitted over C (the sum of the nodes' marked speeds: the farm's
// declared client speeds, a kernel's marked_speed_Mflops, the emulated speeds
// given to predict as --values for the measured program, whose record does not
// say them) and over p, and predicted at each held-out run's own C and p.
//
// How to read it: one row per prediction, the value and interval `hetscale
// predict` prints for t_par (the sum of its parts' models) beside the t_par of
// the held-out run and the relative error (predicted - measured) / measured;
// beside them, not held to any goal, t_par fitted alone (one series, two
// terms allowed: the search before it was split into parts), to show what
// the parts gain. The summary takes the
// predictions of runs at 2x or more the processes of the largest fitted run
// (over C, X / largest fitted C is then about 2 or more: 1.99 for the Sunwulf
// kernels' first 16 hosts) and prints the median absolute relative error and
// the fraction of measured t_par inside the printed interval; --check exits 1
// unless the median is under 10 % and the fraction at least 80 %,
// saying which goal was missed. Every number is from this one run.
//
// --quick is a smoke test of under a minute and a half: fit at 2, 3, 4 and
// predict 8, small farms and sizes. --family runs one family. --records DIR
// runs nothing: it predicts again from the records an earlier run left in
// DIR (its first line says where; give the --repetitions it ran with).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <unistd.h>

#include <fmt/core.h>
#include <fmt/format.h>

#include "hetscale/analysis/prediction.hpp"
#include "hetscale/io/input_error.hpp"
#include "hetscale/record/run_record.hpp"

namespace {

using namespace hetscale;

// One folder per process, kept: the records can be given to `hetscale predict`.
std::string work_dir =
    (std::filesystem::temp_directory_path() / fmt::format("hetscale-prediction-accuracy-{}", getpid())).string();
bool rerun = true;  // false with --records: read the records already in work_dir

// Runs `hetscale ARGUMENTS` (which name the record's --out), under mpiexec with
// `ranks` processes when ranks > 0; exits 1 when the command fails.
void run_hetscale(int ranks, const std::string& arguments) {
  if (!rerun) return;
  const std::string launcher =
      ranks > 0 ? fmt::format("{} {} {} {} ", HETSCALE_MPIEXEC, HETSCALE_MPIEXEC_NP_FLAG, ranks, HETSCALE_MPIEXEC_FLAGS)
                : std::string();
  const std::string line = fmt::format("{}{} {} > /dev/null", launcher, HETSCALE_CLI, arguments);
  std::fprintf(stderr, "$ %s\n", line.c_str());
  if (std::system(line.c_str()) != 0) {
    std::fprintf(stderr, "prediction_accuracy: the run failed: %s\n", line.c_str());
    std::exit(1);
  }
}

std::string record_path(const std::string& name) { return work_dir + "/" + name + ".json"; }

// The first `count` speeds of a fixed heterogeneous pattern, 1, 0.5, 0.25, 0.75
// repeated, each times `factor`.
std::vector<double> cycled_speeds(std::size_t count, double factor = 1.0) {
  const double cycle[] = {1.0, 0.5, 0.25, 0.75};
  std::vector<double> speeds;
  for (std::size_t i = 0; i < count; ++i) speeds.push_back(cycle[i % std::size(cycle)] * factor);
  return speeds;
}

// v1,v2,... with 6 significant digits (0.225, not 0.22499999999999998).
std::string speed_list(const std::vector<double>& speeds) { return fmt::format("{:.6g}", fmt::join(speeds, ",")); }

// One run of a family: its record, and its C when the record does not say it.
struct ScaledRun {
  RunRecord record;
  std::optional<double> marked_speed_sum;  // given to predict as --values when the scale is C
};

// Runs of one program: the fitted ones (every repetition) and those held out
// to be predicted (the repetitions at each scale).
struct Family {
  std::string name;
  std::vector<ScaledRun> fitted;
  std::vector<std::vector<ScaledRun>> held_out;
};

double scale_of(const ScaledRun& run, ScaleVariable variable) {
  if (variable == ScaleVariable::marked_speed && run.marked_speed_sum) return *run.marked_speed_sum;
  return scale_of_run(run.record, variable);
}

// One held-out run, predicted from a family's fitted runs.
struct HeldOutPrediction {
  std::string family, variable;
  std::vector<double> fitted_scales;
  double at = 0.0;                                                // the held-out run's scale
  double processes_ratio = 0.0;                                   // its processes / the largest fitted run's
  double predicted = 0.0, low = 0.0, high = 0.0, measured = 0.0;  // t_par, s
  // Beside it, not in the goals: t_par fitted alone, with up to two terms.
  double alone_predicted = 0.0;

  double relative_error() const { return (predicted - measured) / measured; }
  double alone_relative_error() const { return (alone_predicted - measured) / measured; }
  bool inside() const { return low <= measured && measured <= high; }
  double scale_ratio() const { return at / fitted_scales.back(); }
  // The predictions the summary and the goals are about.
  bool at_twice_or_more() const { return processes_ratio >= 2.0; }
};

// The model of t_par a family's fit chose.
struct ChosenModel {
  std::string family, variable, model;
  double smape = 0.0;
};

const ComponentPrediction& component_of(const ScalingPrediction& prediction, const char* name) {
  for (const auto& component : prediction.components)
    if (component.name == name) return component;
  std::fprintf(stderr, "prediction_accuracy: %s: no %s predicted\n", prediction.source.c_str(), name);
  std::exit(1);
}

// Fits the family's fitted runs over `variable` and predicts every held-out run.
void predict_family(const Family& family, ScaleVariable variable, std::vector<HeldOutPrediction>& predictions,
                    std::vector<ChosenModel>& models) {
  const std::string variable_name = scale_variable_name(variable);
  const bool values_given = variable == ScaleVariable::marked_speed && family.fitted.front().marked_speed_sum;
  std::vector<RunRecord> records;
  std::vector<double> values;
  std::size_t largest_processes = 0;
  for (const auto& run : family.fitted) {
    records.push_back(run.record);
    if (values_given) values.push_back(scale_of(run, variable));
    largest_processes = std::max(largest_processes, run.record.nodes.size());
  }
  try {
    const auto measurements = scaling_of_runs(records, variable, values_given ? std::optional(values) : std::nullopt);
    // Repetitions become one value by their median (`hetscale predict
    // --measure median`): one run of a few in the same configuration has
    // been seen to take 2.4 times the CPU time it asked for on this machine.
    empirical::SearchOptions options;
    options.measure = empirical::Measure::median;
    for (const auto& repetitions : family.held_out) {
      const auto& run = repetitions.front();
      const auto prediction = predict_scaling(measurements, scale_of(run, variable), options);
      const auto& t_par = component_of(prediction, component_t_par);
      empirical::SearchOptions two_terms = options;
      two_terms.max_terms = 2;
      const auto alone = empirical::search_model(t_par.points, two_terms);
      empirical::ScalingPoint measured{prediction.at, {}};
      for (const auto& repetition : repetitions) measured.values.push_back(repetition.record.t_par);
      predictions.push_back({family.name, variable_name, prediction.scales, prediction.at,
                             static_cast<double>(run.record.nodes.size()) / static_cast<double>(largest_processes),
                             t_par.at.value, t_par.at.low, t_par.at.high,
                             empirical::measured_value(measured, options.measure), alone.function.at(prediction.at)});
      if (&repetitions == &family.held_out.back())
        models.push_back({family.name, variable_name, t_par.fitted.function.text(variable_name), t_par.fitted.smape});
    }
  } catch (const InputError& error) {
    std::fprintf(stderr, "prediction_accuracy: %s: %s\n", family.name.c_str(), error.what());
    std::exit(1);
  }
}

// The scales of each family, and the sizes of what runs: the full benchmark or
// --quick's smoke test.
struct Settings {
  std::vector<std::size_t> farm_fitted{2, 3, 4, 6, 8}, farm_held_out{16, 32};
  std::size_t population = 128, generations = 4;
  std::vector<std::size_t> kernel_fitted{2, 3, 4, 6, 8}, kernel_held_out{16, 32};
  std::size_t ge_size = 1000, mm_size = 2000;
  std::vector<std::size_t> measured_fitted{2, 3, 4, 6, 8}, measured_held_out{16};
  double work_seconds = 3.0;  // split_work's CPU work at speed 1, all ranks together
  std::size_t steps = 4;
  double measured_speed_factor = 0.15;  // 16 ranks: 0.15 x 10 = 1.5 of this machine's 2 cores
  std::size_t repetitions = 3;          // of each run in real time (the farm, the measured program)

  static Settings quick() {
    Settings settings;
    settings.farm_fitted = settings.kernel_fitted = settings.measured_fitted = {2, 3, 4};
    settings.farm_held_out = settings.kernel_held_out = settings.measured_held_out = {8};
    settings.population = 16;
    settings.generations = 2;
    settings.ge_size = settings.mm_size = 300;
    settings.work_seconds = 0.8;
    settings.steps = 2;
    settings.measured_speed_factor = 0.3;  // 8 ranks: 0.3 x 5 = 1.5 cores
    settings.repetitions = 1;
    return settings;
  }
};

// run(count, name) runs one configuration and writes its record to
// record_path(name); repetitions after the first are named "-2", "-3", ...
template <class Run>
Family run_family(const std::string& name, const std::vector<std::size_t>& fitted,
                  const std::vector<std::size_t>& held_out, std::size_t repetitions, const std::string& record_name,
                  const Run& run) {
  Family family{name, {}, {}};
  const auto repeat = [&](std::size_t count) {
    std::vector<ScaledRun> runs;
    for (std::size_t r = 1; r <= repetitions; ++r)
      runs.push_back(run(count, r == 1 ? fmt::format("{}-{}", record_name, count)
                                       : fmt::format("{}-{}-{}", record_name, count, r)));
    return runs;
  };
  for (const auto count : fitted)
    for (auto& run : repeat(count)) family.fitted.push_back(std::move(run));
  for (const auto count : held_out) family.held_out.push_back(repeat(count));
  return family;
}

Family farm_family(const Settings& settings) {
  const double eval_time = 4.0, time_scale = 0.01;
  return run_family(fmt::format("farm, adaptive, {} x {} tasks", settings.population, settings.generations + 1),
                    settings.farm_fitted, settings.farm_held_out, settings.repetitions, "farm",
                    [&](std::size_t clients, const std::string& name) {
                      const std::string out = record_path(name);
                      run_hetscale(
                          static_cast<int>(clients) + 1,
                          fmt::format("farm --policy adaptive --objective synthetic --eval-time {} --time-scale {} "
                                      "--population {} --generations {} --speeds {} --out {}",
                                      eval_time, time_scale, settings.population, settings.generations,
                                      speed_list(cycled_speeds(clients)), out));
                      return ScaledRun{read_run_record(out), std::nullopt};
                    });
}

Family kernel_family(const Settings& settings, const std::string& kernel, std::size_t size) {
  const std::string platform = std::string(HETSCALE_HOME) + "/data/platforms/sunwulf.json";
  return run_family(fmt::format("{}, N = {}, simulated", kernel, size), settings.kernel_fitted,
                    settings.kernel_held_out, 1, fmt::format("{}-{}", kernel, size),
                    [&](std::size_t hosts, const std::string& name) {
                      const std::string out = record_path(name);
                      run_hetscale(0, fmt::format("simulate kernel {} --size {} --hosts {} --platform {} --out {}",
                                                  kernel, size, hosts, platform, out));
                      return ScaledRun{read_run_record(out), std::nullopt};
                    });
}

Family measured_family(const Settings& settings) {
  return run_family(fmt::format("split_work, {} s of work", settings.work_seconds), settings.measured_fitted,
                    settings.measured_held_out, settings.repetitions, "split-work",
                    [&](std::size_t ranks, const std::string& name) {
                      const auto speeds = cycled_speeds(ranks, settings.measured_speed_factor);
                      const std::string out = record_path(name);
                      run_hetscale(
                          static_cast<int>(ranks),
                          fmt::format("measure --emulate-speeds {} --out {} -- {} {} {} {}", speed_list(speeds), out,
                                      HETSCALE_SPLIT_WORK, settings.work_seconds, settings.steps, speed_list(speeds)));
                      double speed_sum = 0.0;
                      for (const double speed : speeds) speed_sum += speed;
                      return ScaledRun{read_run_record(out), speed_sum};
                    });
}

std::string scales_text(const std::vector<double>& scales) {
  std::vector<std::string> texts;
  for (const double scale : scales) texts.push_back(fmt::format("{:.4g}", scale));
  return fmt::format("{}", fmt::join(texts, ", "));
}

void print_table(const std::string& title, const std::vector<HeldOutPrediction>& predictions) {
  fmt::print("### {}\n\n", title);
  fmt::print(
      "| family | variable | scales fitted | X predicted | X / largest fitted | predicted t_par (s) | interval (s) | "
      "measured t_par (s) | relative error | inside interval | in summary (>= 2x p) | t_par fitted alone (s) "
      "| its error |\n");
  fmt::print("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const auto& row : predictions)
    fmt::print(
        "| {} | {} | {} | {:.4g} | {:.2f} | {:.4g} | {:.4g}..{:.4g} | {:.4g} | {:+.1f} % | {} | {} | {:.4g} | {:+.1f} "
        "% |\n",
        row.family, row.variable, scales_text(row.fitted_scales), row.at, row.scale_ratio(), row.predicted, row.low,
        row.high, row.measured, 100.0 * row.relative_error(), row.inside() ? "yes" : "no",
        row.at_twice_or_more() ? "yes" : "no", row.alone_predicted, 100.0 * row.alone_relative_error());
  fmt::print("\n");
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2.0;
}

// The median absolute relative error and the fraction inside the interval.
struct Accuracy {
  std::size_t predictions = 0;
  double median_error = 0.0, coverage = 0.0;
  double alone_median_error = 0.0;  // of t_par fitted alone
};

Accuracy accuracy_of(const std::vector<HeldOutPrediction>& predictions) {
  Accuracy accuracy;
  std::vector<double> errors, alone_errors;
  std::size_t inside = 0;
  for (const auto& row : predictions) {
    errors.push_back(std::abs(row.relative_error()));
    alone_errors.push_back(std::abs(row.alone_relative_error()));
    inside += row.inside() ? 1 : 0;
  }
  accuracy.predictions = errors.size();
  if (errors.empty()) return accuracy;
  accuracy.median_error = median(errors);
  accuracy.alone_median_error = median(alone_errors);
  accuracy.coverage = static_cast<double>(inside) / static_cast<double>(errors.size());
  return accuracy;
}

std::vector<HeldOutPrediction> at_twice_or_more(const std::vector<HeldOutPrediction>& predictions) {
  std::vector<HeldOutPrediction> chosen;
  std::copy_if(predictions.begin(), predictions.end(), std::back_inserter(chosen),
               [](const auto& row) { return row.at_twice_or_more(); });
  return chosen;
}

void print_accuracy_row(const std::string& name, const std::vector<HeldOutPrediction>& predictions) {
  const auto all = accuracy_of(predictions), far = accuracy_of(at_twice_or_more(predictions));
  fmt::print("| {} | {} | {:.1f} % | {:.0f} % | {:.1f} % | {} | {:.1f} % | {:.0f} % | {:.1f} % |\n", name,
             far.predictions, 100.0 * far.median_error, 100.0 * far.coverage, 100.0 * far.alone_median_error,
             all.predictions, 100.0 * all.median_error, 100.0 * all.coverage, 100.0 * all.alone_median_error);
}

int usage() {
  std::fprintf(stderr,
               "usage: prediction_accuracy [--check] [--quick] [--family farm|kernels|measured] [--records DIR]\n"
               "       [--repetitions K]\n");
  return 2;
}

int run_benchmark(int argc, char** argv) {
  bool check = false, quick = false;
  std::string only;
  std::optional<std::size_t> repetitions;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument == "--check")
      check = true;
    else if (argument == "--quick")
      quick = true;
    else if (argument == "--family" && i + 1 < argc)
      only = argv[++i];
    else if (argument == "--records" && i + 1 < argc)
      work_dir = argv[++i], rerun = false;
    else if (argument == "--repetitions" && i + 1 < argc)
      repetitions = std::strtoul(argv[++i], nullptr, 10);
    else
      return usage();
  }
  if (!only.empty() && only != "farm" && only != "kernels" && only != "measured") return usage();
  Settings settings = quick ? Settings::quick() : Settings{};
  if (repetitions) settings.repetitions = *repetitions;
  if (settings.repetitions < 1) return usage();
  std::filesystem::create_directories(work_dir);

  struct Table {
    std::string key, title;
    std::vector<HeldOutPrediction> predictions;
  };
  std::vector<Table> tables;
  std::vector<ChosenModel> models;
  const auto predict_both = [&](const Family& family, Table& table) {
    for (const auto variable : {ScaleVariable::marked_speed, ScaleVariable::processes})
      predict_family(family, variable, table.predictions, models);
  };
  if (only.empty() || only == "farm") {
    tables.push_back({"farm", "Farm on MPI (real time)", {}});
    predict_both(farm_family(settings), tables.back());
  }
  if (only.empty() || only == "kernels") {
    tables.push_back({"kernels", "Kernels in the simulator (SimGrid SMPI, Sunwulf's first hosts, simulated time)", {}});
    predict_both(kernel_family(settings, "ge", settings.ge_size), tables.back());
    predict_both(kernel_family(settings, "mm", settings.mm_size), tables.back());
  }
  if (only.empty() || only == "measured") {
    tables.push_back({"measured", "A measured program (hetscale measure, emulated speeds, real time)", {}});
    predict_both(measured_family(settings), tables.back());
  }

  fmt::print("## How well `hetscale predict` predicts held-out runs{}\n\n", quick ? " (--quick)" : "");
  fmt::print("Records in {}. Search: {}.\n\n", work_dir, empirical::search_description({}));
  std::vector<HeldOutPrediction> every_prediction;
  for (const auto& table : tables) {
    print_table(table.title, table.predictions);
    every_prediction.insert(every_prediction.end(), table.predictions.begin(), table.predictions.end());
  }

  fmt::print("### The t_par models chosen\n\n");
  for (const auto& model : models)
    fmt::print("- {}, over {}: t_par = {} (leave-one-out SMAPE {:.2f} %)\n", model.family, model.variable, model.model,
               model.smape);
  fmt::print("\n");

  fmt::print("### Summary\n\n");
  fmt::print(
      "| predictions of | at >= 2x p: count | median abs. relative error | inside interval | fitted alone: median "
      "abs. error | all: count | median abs. relative error | inside interval | fitted alone: median abs. error |\n");
  fmt::print("|---|---|---|---|---|---|---|---|---|\n");
  for (const auto& table : tables) {
    print_accuracy_row(table.key, table.predictions);
    for (const std::string variable : {"C", "p"}) {
      std::vector<HeldOutPrediction> over;
      std::copy_if(table.predictions.begin(), table.predictions.end(), std::back_inserter(over),
                   [&](const auto& row) { return row.variable == variable; });
      print_accuracy_row(fmt::format("{} over {}", table.key, variable), over);
    }
  }
  print_accuracy_row("every family", every_prediction);
  fmt::print("\n");

  // The goals, on the predictions at 2x or more.
  const auto far = accuracy_of(at_twice_or_more(every_prediction));
  std::vector<std::string> failures;
  if (far.predictions == 0)
    failures.push_back("no prediction at 2x or more the processes of the largest fitted run");
  else {
    if (!(far.median_error < 0.10))
      failures.push_back(fmt::format("the median absolute relative error of t_par at >= 2x is {:.1f} %, not under 10 %",
                                     100.0 * far.median_error));
    if (!(far.coverage >= 0.80))
      failures.push_back(fmt::format(
          "{:.0f} % of the measured t_par at >= 2x are inside the interval, not 80 % or more", 100.0 * far.coverage));
  }
  fmt::print(
      "Goals, at >= 2x: median absolute relative error {:.2f} % (goal < 10 %), inside the "
      "interval {:.0f} % (goal >= 80 %), of {} predictions: {}.\n",
      100.0 * far.median_error, 100.0 * far.coverage, far.predictions, failures.empty() ? "met" : "missed");
  std::fflush(stdout);
  for (const auto& failure : failures)
    std::fprintf(stderr, "prediction_accuracy: %s%s\n", failure.c_str(),
                 check ? "" : " (a goal of --check, not held to here)");
  return check && !failures.empty() ? 1 : 0;
}
}  // namespace

int main(int argc, char** argv) {
  try {
    return run_benchmark(argc, argv);
  } catch (const InputError& error) {  // a record missing or bad (--records)
    std::fprintf(stderr, "prediction_accuracy: %s\n", error.what());
    return 1;
  }
}

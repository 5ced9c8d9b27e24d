// The commands that read a run or compute the papers' models with no run:
// analyze, model hetero | ewf | farm, fit serial, demo.
#include <filesystem>

#include "cli.hpp"
#include "hetscale/analysis/what_if.hpp"
#include "hetscale/io/number_list.hpp"
#include "hetscale/report/json_report.hpp"
#include "hetscale/report/table.hpp"
#include "hetscale/report/worked_examples.hpp"
#include "hetscale/sim/farm_what_if.hpp"

namespace hetscale::cli {

Output run_analyze(const Arguments& arguments) {
  return {with_options_named({"region"}, [&] {
    return report::analysis_of_files(arguments.text("RUN"), arguments.text("--platform"), arguments.flag("--json"),
                                     arguments.text("--region"), arguments.text("--model"));
  })};
}

Output run_model_hetero(const Arguments& arguments) {
  const auto speeds = io::parse_positive_list(arguments.text("--speeds"), "--speeds");
  const auto shares = io::parse_number_list(arguments.text("--shares"), "--shares");
  const double work = io::parse_one_number(arguments.text("--work"), "--work");
  const auto metrics =
      with_options_named({"shares", "work"}, [&] { return evaluate_distribution(speeds, shares, work); });
  return {arguments.flag("--json") ? report::distribution_json(metrics) : report::distribution_table(metrics)};
}

Output run_model_ewf(const Arguments& arguments) {
  const auto speeds = io::parse_positive_list(arguments.text("--speeds"), "--speeds");
  const double ratio = io::parse_one_number(arguments.text("--R"), "--R");
  const auto metrics = with_options_named({"R"}, [&] { return evaluate_worsening(speeds, ratio); });
  return {arguments.flag("--json") ? report::worsening_json(metrics) : report::worsening_table(metrics)};
}

Output run_model_farm(const Arguments& arguments) {
  const auto speeds = io::parse_positive_list(arguments.text("--speeds"), "--speeds");
  const auto tasks = io::parse_count(arguments.text("--tasks"), "--tasks");
  const auto generations = io::parse_count(arguments.text("--generations"), "--generations");
  const double eval_time = io::parse_one_number(arguments.text("--eval-time"), "--eval-time");
  const double latency = io::parse_one_number(arguments.text("--latency"), "--latency");
  const auto what_if = with_options_named({"eval-time", "latency"}, [&] {
    return sim::evaluate_farm_policies(speeds, tasks, generations, eval_time, latency);
  });
  return {arguments.flag("--json") ? report::farm_what_if_json(what_if) : report::farm_what_if_table(what_if)};
}

Output run_fit_serial(const Arguments& arguments) {
  return {with_options_named({"serial-time"}, [&] {
    return report::serial_fit_of_files(arguments.texts("--timings"), arguments.flag("--json"),
                                       arguments.text("--serial-time"));
  })};
}

Output run_demo(const Arguments& arguments) {
  // Paths are shown relative to the project folder, so the output is the same
  // wherever the project lives.
  std::error_code error;
  std::filesystem::current_path(home_dir(), error);
  if (error) throw InputError("HETSCALE_HOME", home_dir(), "cannot enter the project folder: " + error.message());
  const auto examples = report::worked_examples(arguments.flag("--json"));
  return {examples.text, examples.disagreeing == 0 ? 0 : 1};
}

}  // namespace hetscale::cli

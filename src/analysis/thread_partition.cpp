#include "hetscale/analysis/thread_partition.hpp"

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "hetscale/analysis/run_analysis.hpp"
#include "hetscale/io/files.hpp"
#include "hetscale/io/input_error.hpp"

namespace hetscale {

SpeedModel thread_speed_model(const RunRecord& run) {
  SpeedModel model;
  model.source = run.source;
  model.unit = "units";
  for (const auto& rank : analyze_run(run).openmp_threads)
    for (std::size_t k = 0; k < rank.numbers.size(); ++k)
      model.nodes.push_back({fmt::format("{} t{}", rank.node, rank.numbers[k]), "", {{1.0, rank.speeds[k], 0.0}}, {}});
  if (model.nodes.empty())
    throw InputError(run.source, "context.openmp.threads",
                     "this run record (hetscale.run/1) has no rank of two threads or more that worked in parallel "
                     "regions: give a speed model (hetscale.fpm/1, from `hetscale bench fpm`), or a run record "
                     "measured with --openmp (and --emulate-thread-speeds for emulated threads)");
  return model;
}

SpeedModel read_partition_model(const std::string& path) {
  const std::string text = io::read_text_file(path);
  const auto document = nlohmann::json::parse(text, nullptr, false);
  if (document.is_object() && document.value("schema", "") == RunRecord::schema)
    return thread_speed_model(parse_run_record(text, path));
  return parse_speed_model_json(text, path);
}

}  // namespace hetscale

#include "hetscale/report/prediction_report.hpp"

#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "hetscale/report/table.hpp"

namespace hetscale::report {
namespace {

std::string number(double value) { return fmt::format("{:.4g}", value); }

std::string with_unit(double value, const std::string& metric) {
  return metric == "seconds" ? number(value) + " s" : number(value);
}

std::string scale_list(const ScalingPrediction& prediction) {
  std::vector<std::string> scales;
  for (double x : prediction.scales) scales.push_back(fmt::format("{:g}", x));
  return fmt::format("{}", fmt::join(scales, ", "));
}

std::string where(const ScalingPrediction& prediction) {
  const double largest = prediction.scales.back(), smallest = prediction.scales.front();
  if (!prediction.extrapolation) return "interpolation: inside the scales measured";
  if (prediction.at > largest) return fmt::format("extrapolation: {:.3g}x the largest scale measured", prediction.at / largest);
  return fmt::format("extrapolation: {:.3g}x below the smallest scale measured", smallest / prediction.at);
}

nlohmann::ordered_json optional_number(const std::optional<double>& value) {
  return value ? nlohmann::ordered_json(*value) : nlohmann::ordered_json(nullptr);
}

}  // namespace

std::string prediction_text(const ScalingPrediction& prediction) {
  const std::string& v = prediction.variable;
  std::string text = fmt::format("prediction at {} = {:g} from {} ({} scales: {} = {}; {})\n", v, prediction.at,
                                 prediction.source, prediction.scales.size(), v, scale_list(prediction),
                                 where(prediction));
  TextTable table({"part", fmt::format("at {} = {:g}", v, prediction.at), "interval", "SMAPE %", "model"});
  for (const auto& component : prediction.components)
    table.add_row({component.name, with_unit(component.at.value, component.metric),
                   fmt::format("{} .. {}", number(component.at.low), number(component.at.high)),
                   fmt::format("{:.2f}", component.fitted.smape), component.fitted.function.text(v)});
  text += table.render();
  text += fmt::format(
      "models: {}; interval: the models fitted without each measured scale, widened by their errors at the scale "
      "left out\n",
      prediction.search);

  const auto& e = prediction.efficiencies;
  std::vector<std::string> efficiencies;
  if (e.heterogeneous_efficiency)
    efficiencies.push_back(fmt::format("seed 000 e {:.3f} (t_ideal / t_par)", *e.heterogeneous_efficiency));
  if (e.load_balance) efficiencies.push_back(fmt::format("POP load balance {:.3f}", *e.load_balance));
  if (e.communication_efficiency)
    efficiencies.push_back(fmt::format("communication efficiency {:.3f}", *e.communication_efficiency));
  if (e.parallel_efficiency) efficiencies.push_back(fmt::format("parallel efficiency {:.3f}", *e.parallel_efficiency));
  if (!efficiencies.empty())
    text += fmt::format("efficiencies at {} = {:g}: {}\n", v, prediction.at, fmt::join(efficiencies, ", "));
  if (const auto& limiting = prediction.limiting)
    text += fmt::format("limits them: {}, from {:.1f} % of t_par at {} = {:g} to {:.1f} % at {} = {:g}\n", limiting->name,
                        100.0 * limiting->share_measured, v, prediction.scales.back(), 100.0 * limiting->share_predicted,
                        v, prediction.at);
  return text;
}

std::string prediction_json(const ScalingPrediction& prediction) {
  nlohmann::ordered_json out;
  out["schema"] = "hetscale.predict/1";
  out["source"] = prediction.source;
  out["at"] = prediction.at;
  out["variable"] = prediction.variable;
  out["scales"] = prediction.scales;
  out["extrapolation"] = prediction.extrapolation;
  out["search"] = prediction.search;
  auto& predictions = out["predictions"] = nlohmann::ordered_json::object();
  for (const auto& component : prediction.components) {
    const auto& fitted = component.fitted;
    predictions[component.name] = {
        {"value", component.at.value},
        {"low", component.at.low},
        {"high", component.at.high},
        {"model", fitted.function.text(prediction.variable)},
        {"smape", fitted.smape},
        {"rss", fitted.rss},
        {"adjusted_r_squared", std::isfinite(fitted.adjusted_r_squared) ? nlohmann::ordered_json(fitted.adjusted_r_squared)
                                                                          : nlohmann::ordered_json(nullptr)},
        {"metric", component.metric},
        {"hypotheses_tried", fitted.hypotheses_tried}};
  }
  const auto& e = prediction.efficiencies;
  out["efficiencies"] = {{"heterogeneous_efficiency", optional_number(e.heterogeneous_efficiency)},
                         {"load_balance", optional_number(e.load_balance)},
                         {"communication_efficiency", optional_number(e.communication_efficiency)},
                         {"parallel_efficiency", optional_number(e.parallel_efficiency)}};
  if (const auto& limiting = prediction.limiting)
    out["limiting"] = {{"part", limiting->name},
                       {"share_of_t_par_measured", limiting->share_measured},
                       {"share_of_t_par_predicted", limiting->share_predicted}};
  else
    out["limiting"] = nullptr;
  return out.dump(2) + "\n";
}

}  // namespace hetscale::report

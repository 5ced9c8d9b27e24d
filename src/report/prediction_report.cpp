#include "hetscale/report/prediction_report.hpp"

#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "hetscale/io/file_kinds.hpp"
#include "hetscale/io/input_error.hpp"
#include "hetscale/report/table.hpp"
#include "io/strict_json.hpp"

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

// The model as data: {"constant": c0, "terms": [{"coefficient", "power": "1/2", "log_power"}]}.
nlohmann::ordered_json function_json(const empirical::NormalForm& function) {
  nlohmann::ordered_json terms = nlohmann::ordered_json::array();
  for (const auto& [coefficient, term] : function.terms)
    terms.push_back({{"coefficient", coefficient}, {"power", term.power.text()}, {"log_power", term.log_power}});
  return {{"constant", function.constant}, {"terms", terms}};
}

nlohmann::ordered_json points_json(const std::vector<empirical::ScalingPoint>& points) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const auto& point : points) out.push_back({{"x", point.x}, {"values", point.values}});
  return out;
}

}  // namespace

std::string prediction_text(const ScalingPrediction& prediction) {
  const std::string& v = prediction.variable;
  std::string text = fmt::format("prediction at {} = {:g} from {} ({} scales: {} = {}; {})\n", v, prediction.at,
                                 prediction.source, prediction.scales.size(), v, scale_list(prediction),
                                 where(prediction));
  for (const auto& caution : prediction.cautions) text += caution + "\n";
  TextTable table({"part", fmt::format("at {} = {:g}", v, prediction.at), "interval", "SMAPE %", "model"});
  for (const auto& component : prediction.components)
    table.add_row({component.name, with_unit(component.at.value, component.metric),
                   fmt::format("{} .. {}", number(component.at.low), number(component.at.high)),
                   fmt::format("{:.2f}", component.fitted.smape), component.fitted.function.text(v)});
  text += table.render();
  text += fmt::format(
      "models: {}; interval: the models fitted without each measured scale, widened by their errors at the scale "
      "left out and, beyond the scales, by their error per doubling when refitted on the smaller scales\n",
      prediction.search);
  if (!prediction.sums.empty())
    text += fmt::format("added up, not fitted: {} (the interval: the sum of the parts')\n",
                        fmt::join(prediction.sums, "; "));

  const auto& e = prediction.efficiencies;
  std::vector<std::string> efficiencies;
  if (e.heterogeneous_efficiency)
    efficiencies.push_back(fmt::format("heterogeneous e {:.3f} (APGA 2004: t_ideal / t_par)", *e.heterogeneous_efficiency));
  if (e.load_balance) efficiencies.push_back(fmt::format("POP load balance {:.3f}", *e.load_balance));
  if (e.communication_efficiency)
    efficiencies.push_back(fmt::format("communication efficiency {:.3f}", *e.communication_efficiency));
  if (e.parallel_efficiency) efficiencies.push_back(fmt::format("parallel efficiency {:.3f}", *e.parallel_efficiency));
  if (!efficiencies.empty())
    text += fmt::format("efficiencies at {} = {:g}: {}\n", v, prediction.at, fmt::join(efficiencies, ", "));
  if (!e.capped.empty())
    text += fmt::format("capped at 1: {} (the numerator's model exceeds the denominator's there: they disagree)\n",
                        fmt::join(e.capped, ", "));
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
  if (!prediction.cautions.empty()) out["cautions"] = prediction.cautions;
  out["at"] = prediction.at;
  out["variable"] = prediction.variable;
  out["scales"] = prediction.scales;
  out["extrapolation"] = prediction.extrapolation;
  out["search"] = prediction.search;
  out["sums"] = prediction.sums;
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
        {"hypotheses_tried", fitted.hypotheses_tried},
        {"function", function_json(fitted.function)},
        {"points", points_json(component.points)}};
  }
  const auto& e = prediction.efficiencies;
  out["efficiencies"] = {{"heterogeneous_efficiency", optional_number(e.heterogeneous_efficiency)},
                         {"load_balance", optional_number(e.load_balance)},
                         {"communication_efficiency", optional_number(e.communication_efficiency)},
                         {"parallel_efficiency", optional_number(e.parallel_efficiency)},
                         {"capped", e.capped}};
  if (const auto& limiting = prediction.limiting)
    out["limiting"] = {{"part", limiting->name},
                       {"share_of_t_par_measured", limiting->share_measured},
                       {"share_of_t_par_predicted", limiting->share_predicted}};
  else
    out["limiting"] = nullptr;
  return out.dump(2) + "\n";
}

namespace {

template <class T>
T required(const nlohmann::ordered_json& object, const std::string& key, const std::string& path, const std::string& where) {
  const auto found = object.find(key);
  const std::string field = where.empty() ? key : where + "." + key;
  if (found == object.end()) throw InputError(path, field, "is missing");
  try {
    return found->get<T>();
  } catch (const nlohmann::json::exception&) {
    throw InputError(path, field, "has the wrong type");
  }
}

empirical::Exponent exponent_from(const std::string& text, const std::string& path, const std::string& field) {
  const auto slash = text.find('/');
  try {
    std::size_t used = 0;
    const int numerator = std::stoi(text.substr(0, slash), &used);
    if (used != text.substr(0, slash).size()) throw std::invalid_argument(text);
    int denominator = 1;
    if (slash != std::string::npos) {
      denominator = std::stoi(text.substr(slash + 1), &used);
      if (used != text.substr(slash + 1).size()) throw std::invalid_argument(text);
    }
    return empirical::Exponent(numerator, denominator);
  } catch (const std::exception&) {
    throw InputError(path, field, fmt::format("'{}' is not an exponent such as 2, 1/2 or -3/4", text));
  }
}

}  // namespace

PredictionDocument read_prediction_json(const std::string& text, const std::string& path) {
  const auto document = io::parse_ordered_json(text, path);  // the parts in the order predict wrote them
  if (!document.is_object()) throw InputError(path, "", "is not a JSON object; expected hetscale.predict/1");
  if (const auto schema = required<std::string>(document, "schema", path, ""); schema != "hetscale.predict/1")
    throw InputError(path, "schema", io::wrong_kind(schema, "hetscale.predict/1"));
  PredictionDocument read;
  read.path = path;
  read.source = required<std::string>(document, "source", path, "");
  read.variable = required<std::string>(document, "variable", path, "");
  read.search = required<std::string>(document, "search", path, "");
  read.at = required<double>(document, "at", path, "");
  read.extrapolation = required<bool>(document, "extrapolation", path, "");
  const auto predictions = required<nlohmann::ordered_json>(document, "predictions", path, "");
  if (!predictions.is_object()) throw InputError(path, "predictions", "must be an object of parts");
  for (const auto& [name, part] : predictions.items()) {
    const std::string where = "predictions." + name;
    PredictedPart predicted;
    predicted.name = name;
    predicted.metric = required<std::string>(part, "metric", path, where);
    predicted.model = required<std::string>(part, "model", path, where);
    predicted.value = required<double>(part, "value", path, where);
    predicted.low = required<double>(part, "low", path, where);
    predicted.high = required<double>(part, "high", path, where);
    predicted.smape = required<double>(part, "smape", path, where);
    const auto function = required<nlohmann::ordered_json>(part, "function", path, where);
    predicted.function.constant = required<double>(function, "constant", path, where + ".function");
    const auto terms = required<nlohmann::ordered_json>(function, "terms", path, where + ".function");
    if (!terms.is_array()) throw InputError(path, where + ".function.terms", "must be a list");
    for (std::size_t k = 0; k < terms.size(); ++k) {
      const std::string at = fmt::format("{}.function.terms[{}]", where, k);
      predicted.function.terms.push_back(
          {required<double>(terms[k], "coefficient", path, at),
           empirical::Term{exponent_from(required<std::string>(terms[k], "power", path, at), path, at + ".power"),
                           required<int>(terms[k], "log_power", path, at)}});
    }
    const auto points = required<nlohmann::ordered_json>(part, "points", path, where);
    if (!points.is_array()) throw InputError(path, where + ".points", "must be a list");
    for (std::size_t i = 0; i < points.size(); ++i) {
      const std::string at = fmt::format("{}.points[{}]", where, i);
      predicted.points.push_back({required<double>(points[i], "x", path, at),
                                  required<std::vector<double>>(points[i], "values", path, at)});
    }
    read.parts.push_back(std::move(predicted));
  }
  return read;
}

}  // namespace hetscale::report

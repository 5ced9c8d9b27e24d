#pragma once
// `hetscale predict`'s output: a terminal table (each part's model, its
// cross-validation error and its value at the scale asked for, with the
// interval), the efficiencies that follow and the part that limits them; or
// JSON (schema hetscale.predict/1, docs/prediction.md).
#include <string>
#include <vector>

#include "hetscale/analysis/prediction.hpp"

namespace hetscale::report {

std::string prediction_text(const ScalingPrediction& prediction);
std::string prediction_json(const ScalingPrediction& prediction);

// What `hetscale report` reads back of prediction_json: each part's measured
// points, model and prediction. InputError naming the file and the field
// for a document that is not one.
struct PredictedPart {
  std::string name, metric, model;
  double value = 0.0, low = 0.0, high = 0.0, smape = 0.0;
  empirical::NormalForm function;
  std::vector<empirical::ScalingPoint> points;
};
struct PredictionDocument {
  std::string path, source, variable, search;
  double at = 0.0;
  bool extrapolation = false;
  std::vector<PredictedPart> parts;
};
PredictionDocument read_prediction_json(const std::string& text, const std::string& path);

}  // namespace hetscale::report

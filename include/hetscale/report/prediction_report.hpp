#pragma once
// `hetscale predict`'s output: a terminal table (each part's model, its
// cross-validation error and its value at the scale asked for, with the
// interval), the efficiencies that follow and the part that limits them; or
// JSON (schema hetscale.predict/1, docs/prediction.md).
#include <string>

#include "hetscale/analysis/prediction.hpp"

namespace hetscale::report {

std::string prediction_text(const ScalingPrediction& prediction);
std::string prediction_json(const ScalingPrediction& prediction);

}  // namespace hetscale::report

#include "hetscale/measure/hold_back.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace hetscale::measure {

HoldBack::HoldBack(double speed, double quantum)
    : speed_(speed), quantum_(quantum), slowdown_(speed > 0.0 ? 1.0 / speed - 1.0 : 0.0) {
  if (!(speed > 0.0 && speed <= 1.0))
    throw std::invalid_argument("an emulated speed must be in (0, 1], got " + std::to_string(speed));
  if (!(quantum >= 0.0) || !std::isfinite(quantum))
    throw std::invalid_argument("a hold-back quantum must be >= 0, got " + std::to_string(quantum));
}

double HoldBack::computed(double on_cpu, double delay) {
  owed_ += on_cpu * slowdown_;
  const double paid = std::clamp(owed_, 0.0, std::max(delay, 0.0));
  owed_ -= paid;
  return paid;
}

double achieved_speed(double on_cpu, double held, double if_none) {
  const double computed = on_cpu + held;
  return computed > 0.0 ? on_cpu / computed : if_none;
}

}  // namespace hetscale::measure

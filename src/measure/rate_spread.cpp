#include "hetscale/measure/rate_spread.hpp"

#include <algorithm>
#include <cmath>

namespace hetscale::measure {

double rate_spread(double deviation, double magnitude) {
  if (!(magnitude > 0.0) || !(deviation > 0.0)) return 0.0;
  return std::min(1.0, std::sqrt(deviation / magnitude));
}

}  // namespace hetscale::measure

#pragma once
// The transfer model that splits a data-moving call into t_comm and t_idle
// (docs/measure.md): given (--latency, --bandwidth, --comm-profile,
// --platform: the settings), else calibrated at MPI_Init by a ping-pong.
#include <string>

#include "hetscale/measure/measure_settings.hpp"

namespace hetscale::interpose {

struct TransferModel {
  double latency = 1e-6, bandwidth = 1e9;
  std::string source;
};
// The settings' model when they give one, else calibrated (collective over
// MPI_COMM_WORLD: call it on every rank, inside MPI_Init).
TransferModel chosen_transfer_model(const measure::MeasureSettings& settings);

}  // namespace hetscale::interpose

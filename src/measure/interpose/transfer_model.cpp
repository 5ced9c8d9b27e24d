#include "transfer_model.hpp"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include <fmt/core.h>

namespace hetscale::interpose {
namespace {

double seconds_between(std::chrono::steady_clock::time_point from, std::chrono::steady_clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

using Clock = std::chrono::steady_clock;

// A ping-pong between rank 0 and the first rank on another host (rank 1 when
// all share one): latency is the least half round trip of 1 byte in 50,
// bandwidth 1 MiB over the least half round trip of 5 less that latency.
// Every rank gets rank 0's figures. Its time is t_setup, with MPI_Init's
// (initialized()).
TransferModel calibrated_transfer_model() {
  int rank = 0, ranks = 1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &ranks);
  TransferModel model;
  if (ranks < 2) {
    model.source = fmt::format("one rank, nothing to calibrate: defaults (latency {:g} s, bandwidth {:g} bytes/s)",
                               model.latency, model.bandwidth);
    return model;
  }
  std::vector<char> host(MPI_MAX_PROCESSOR_NAME, '\0'), first_host(MPI_MAX_PROCESSOR_NAME, '\0');
  int length = 0;
  PMPI_Get_processor_name(host.data(), &length);
  first_host = host;
  PMPI_Bcast(first_host.data(), MPI_MAX_PROCESSOR_NAME, MPI_CHAR, 0, MPI_COMM_WORLD);
  const int candidate = host == first_host ? ranks : rank;
  int other_host = ranks;
  PMPI_Allreduce(&candidate, &other_host, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  const int partner = other_host < ranks ? other_host : 1;

  constexpr int small_trips = 50, large_trips = 5, large_bytes = 1 << 20;
  std::vector<char> buffer(large_bytes);
  const auto least_half_round_trip = [&](int bytes, int trips) {
    double least = 1e300;
    for (int trip = 0; trip < trips; ++trip) {
      const auto start = Clock::now();
      if (rank == 0) {
        PMPI_Send(buffer.data(), bytes, MPI_BYTE, partner, 0, MPI_COMM_WORLD);
        PMPI_Recv(buffer.data(), bytes, MPI_BYTE, partner, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        PMPI_Recv(buffer.data(), bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        PMPI_Send(buffer.data(), bytes, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
      }
      least = std::min(least, seconds_between(start, Clock::now()) / 2.0);
    }
    return least;
  };
  double figures[2] = {model.latency, model.bandwidth};
  if (rank == 0 || rank == partner) {
    const double latency = least_half_round_trip(1, small_trips);
    const double large = least_half_round_trip(large_bytes, large_trips);
    figures[0] = latency;
    figures[1] = large_bytes / std::max(large - latency, 1e-9);
  }
  PMPI_Bcast(figures, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  model.latency = figures[0];
  model.bandwidth = figures[1];
  model.source = fmt::format(
      "calibrated at MPI_Init by a ping-pong of rank 0 and rank {} ({}): latency {:.3g} s (the least half round trip "
      "of 1 byte in {}), bandwidth {:.4g} bytes/s (1 MiB, the least of {})",
      partner, other_host < ranks ? "another host" : "the same host", model.latency, small_trips, model.bandwidth,
      large_trips);
  return model;
}

}  // namespace

TransferModel chosen_transfer_model(const measure::MeasureSettings& settings) {
  if (!settings.latency && !settings.bandwidth) return calibrated_transfer_model();
  TransferModel model;
  model.latency = settings.latency.value_or(model.latency);
  model.bandwidth = settings.bandwidth.value_or(model.bandwidth);
  model.source = settings.transfer_model_source;
  if (model.source.empty())
    model.source = fmt::format("given (latency {:g} s, bandwidth {:g} bytes/s)", model.latency, model.bandwidth);
  return model;
}


}  // namespace hetscale::interpose

#include "hetscale/mpi/share_by_speed.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

#include <fmt/core.h>

#include "hetscale/platform/speed_model.hpp"
#include "hetscale/share_by_speed.h"

namespace hetscale::mpi {

std::vector<RankShare> shares_by_speed(const std::vector<model::SpeedFunction>& nodes, std::size_t units,
                                       distribute::PartitionAlgorithm algorithm) {
  const auto partition = distribute::partition_by_speed(nodes, units, algorithm);
  std::vector<RankShare> shares;
  std::size_t first = 0;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    shares.push_back({partition.units[i], first, partition.seconds[i], partition.makespan});
    first += partition.units[i];
  }
  return shares;
}

}  // namespace hetscale::mpi

namespace {

// Rank 0's answer for every rank: per rank, its cores' share and its
// device's (units, first, predicted seconds, makespan each); or the error's
// text. Without devices the model has a node per rank.
constexpr int fields = 4, processors = 2;

std::vector<double> answer_on_root(MPI_Comm comm, const char* model_path, long units, const char* algorithm,
                                   bool with_devices, std::string& error) {
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  try {
    if (model_path == nullptr) throw std::invalid_argument("model_path: must name a hetscale.fpm/1 file, got NULL");
    if (units < 1) throw std::invalid_argument(fmt::format("units: must be >= 1, got {}", units));
    const auto kind = hetscale::distribute::partition_algorithm_from_string(algorithm ? algorithm : "numerical");
    if (kind == hetscale::distribute::PartitionAlgorithm::exhaustive)
      throw std::invalid_argument("algorithm: exhaustive is for checking; allowed: geometric, numerical, constant");
    const auto model = hetscale::read_speed_model(model_path);
    // Each node's rank: a device node is the rank of the node before it.
    std::vector<int> rank_of;
    std::size_t devices = 0;
    for (const auto& node : model.nodes) {
      devices += node.device.empty() ? 0 : 1;
      rank_of.push_back(node.device.empty() ? (rank_of.empty() ? 0 : rank_of.back() + 1) : rank_of.back());
    }
    if (devices > 0 && !with_devices)
      throw std::invalid_argument(
          fmt::format("{}: has {} device nodes: share with hetscale_share_with_device, or give a model without devices",
                      model_path, devices));
    const int model_ranks = model.nodes.empty() ? 0 : rank_of.back() + 1;
    if (model_ranks != ranks)
      throw std::invalid_argument(fmt::format("{}: has {} {} for a communicator of {} ranks", model_path, model_ranks,
                                              devices > 0 ? "ranks (nodes of cores)" : "nodes", ranks));
    std::vector<double> answer(static_cast<std::size_t>(ranks) * processors * fields);
    const auto shares = hetscale::mpi::shares_by_speed(model.functions(), static_cast<std::size_t>(units), kind);
    for (std::size_t i = 0; i < shares.size(); ++i) {
      const std::size_t processor = model.nodes[i].device.empty() ? 0 : 1;
      if (i > 0 && processor == 1 && !model.nodes[i - 1].device.empty())
        throw std::invalid_argument(fmt::format("{}: node '{}': a rank has one device here, this is its second",
                                                model_path, model.nodes[i].name));
      double* at = answer.data() + (static_cast<std::size_t>(rank_of[i]) * processors + processor) * fields;
      const auto& share = shares[i];
      at[0] = static_cast<double>(share.units);
      at[1] = static_cast<double>(share.first);
      at[2] = share.predicted_seconds;
      at[3] = share.makespan;
    }
    return answer;
  } catch (const std::exception& failure) {
    error = failure.what();
    return {};
  }
}

hetscale_share share_from(const double* fields_of_share) {
  return {static_cast<long>(fields_of_share[0]), static_cast<long>(fields_of_share[1]), fields_of_share[2],
          fields_of_share[3]};
}

// Both entry points: rank 0 answers, every rank learns its shares or the error.
int share(int fortran_comm, const char* model_path, long units, const char* algorithm, hetscale_share* cores,
          hetscale_share* device, char* error, size_t error_size) {
  MPI_Comm comm = MPI_Comm_f2c(static_cast<MPI_Fint>(fortran_comm));
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  std::string message;
  std::vector<double> answer;
  if (rank == 0) answer = answer_on_root(comm, model_path, units, algorithm, device != nullptr, message);
  // The error's length first (0: none), then the error or the shares.
  int length = static_cast<int>(message.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, comm);
  if (length > 0) {
    message.resize(static_cast<std::size_t>(length));
    MPI_Bcast(message.data(), length, MPI_CHAR, 0, comm);
    if (error != nullptr && error_size > 0) {
      const std::size_t copied = std::min(message.size(), error_size - 1);
      std::memcpy(error, message.data(), copied);
      error[copied] = '\0';
    }
    return 2;
  }
  answer.resize(static_cast<std::size_t>(ranks) * processors * fields);
  MPI_Bcast(answer.data(), ranks * processors * fields, MPI_DOUBLE, 0, comm);
  const double* mine = answer.data() + static_cast<std::size_t>(rank) * processors * fields;
  *cores = share_from(mine);
  if (device != nullptr) *device = share_from(mine + fields);
  return 0;
}

}  // namespace

extern "C" int hetscale_share_by_speed_f(int fortran_comm, const char* model_path, long units, const char* algorithm,
                                         hetscale_share* share, char* error, size_t error_size) {
  return ::share(fortran_comm, model_path, units, algorithm, share, nullptr, error, error_size);
}

extern "C" int hetscale_share_with_device_f(int fortran_comm, const char* model_path, long units, const char* algorithm,
                                            hetscale_share* cores, hetscale_share* device, char* error,
                                            size_t error_size) {
  if (device == nullptr || cores == nullptr) {
    if (error != nullptr && error_size > 0) std::snprintf(error, error_size, "cores and device: must not be NULL");
    return 2;
  }
  return ::share(fortran_comm, model_path, units, algorithm, cores, device, error, error_size);
}

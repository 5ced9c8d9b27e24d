#include "hetscale/mpi/share_by_speed.hpp"

#include <mpi.h>

#include <algorithm>
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

// Rank 0's answer for every rank: per rank units, first, predicted seconds,
// makespan; or the error's text.
constexpr int fields = 4;

std::vector<double> answer_on_root(MPI_Comm comm, const char* model_path, long units, const char* algorithm,
                                   std::string& error) {
  int ranks = 1;
  MPI_Comm_size(comm, &ranks);
  try {
    if (model_path == nullptr) throw std::invalid_argument("model_path: must name a hetscale.fpm/1 file, got NULL");
    if (units < 1) throw std::invalid_argument(fmt::format("units: must be >= 1, got {}", units));
    const auto kind = hetscale::distribute::partition_algorithm_from_string(algorithm ? algorithm : "numerical");
    if (kind == hetscale::distribute::PartitionAlgorithm::exhaustive)
      throw std::invalid_argument("algorithm: exhaustive is for checking; allowed: geometric, numerical, constant");
    const auto model = hetscale::read_speed_model(model_path);
    if (model.nodes.size() != static_cast<std::size_t>(ranks))
      throw std::invalid_argument(
          fmt::format("{}: has {} nodes for a communicator of {} ranks", model_path, model.nodes.size(), ranks));
    std::vector<double> answer;
    for (const auto& share : hetscale::mpi::shares_by_speed(model.functions(), static_cast<std::size_t>(units), kind))
      answer.insert(answer.end(), {static_cast<double>(share.units), static_cast<double>(share.first),
                                   share.predicted_seconds, share.makespan});
    return answer;
  } catch (const std::exception& failure) {
    error = failure.what();
    return {};
  }
}

}  // namespace

extern "C" int hetscale_share_by_speed_f(int fortran_comm, const char* model_path, long units, const char* algorithm,
                                         hetscale_share* share, char* error, size_t error_size) {
  MPI_Comm comm = MPI_Comm_f2c(static_cast<MPI_Fint>(fortran_comm));
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  std::string message;
  std::vector<double> answer;
  if (rank == 0) answer = answer_on_root(comm, model_path, units, algorithm, message);
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
  answer.resize(static_cast<std::size_t>(ranks) * fields);
  MPI_Bcast(answer.data(), ranks * fields, MPI_DOUBLE, 0, comm);
  const double* mine = answer.data() + static_cast<std::size_t>(rank) * fields;
  share->units = static_cast<long>(mine[0]);
  share->first = static_cast<long>(mine[1]);
  share->predicted_seconds = mine[2];
  share->makespan = mine[3];
  return 0;
}

// The bytes an MPI call moves, counted from its arguments: a count of a
// datatype, arrays of counts over a communicator's peers or neighbours, and
// the persistent requests created earlier and started now (docs/measure.md
// says for each class what "bytes" means). Called by the generated wrappers.
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "accounting.hpp"

namespace hetscale::interpose {

namespace {

thread_local std::size_t named_sizes_next __attribute__((tls_model("initial-exec"))) = 0;

bool is_named(MPI_Datatype type) {
  int integers = 0, addresses = 0, types = 0, combiner = 0;
  return PMPI_Type_get_envelope(type, &integers, &addresses, &types, &combiner) == MPI_SUCCESS &&
         combiner == MPI_COMBINER_NAMED;
}

}  // namespace

thread_local MPI_Datatype named_types[named_sizes_kept] __attribute__((tls_model("initial-exec")));
thread_local int named_type_sizes[named_sizes_kept] __attribute__((tls_model("initial-exec")));

double type_bytes_asked(int count, MPI_Datatype type) {
  if (count <= 0 || type == MPI_DATATYPE_NULL) return 0.0;
  int size = 0;
  if (PMPI_Type_size(type, &size) != MPI_SUCCESS) return 0.0;
  if (is_named(type)) {
    const std::size_t k = named_sizes_next++ % named_sizes_kept;
    named_types[k] = type;
    named_type_sizes[k] = size;
  }
  return static_cast<double>(count) * size;
}

double fortran_type_bytes(const void* count, const void* type) {
  if (!count || !type) return 0.0;
  return type_bytes(static_cast<int>(*static_cast<const MPI_Fint*>(count)),
                    MPI_Type_f2c(*static_cast<const MPI_Fint*>(type)));
}

int entries(MPI_Comm comm, CountsOver over) {
  if (comm == MPI_COMM_NULL) return 0;
  int count = 0;
  if (over == CountsOver::peers) {
    int inter = 0;
    PMPI_Comm_test_inter(comm, &inter);
    (inter ? PMPI_Comm_remote_size : PMPI_Comm_size)(comm, &count);
    return count;
  }
  int topology = MPI_UNDEFINED;
  PMPI_Topo_test(comm, &topology);
  if (topology == MPI_CART) {
    PMPI_Cartdim_get(comm, &count);
    return 2 * count;
  }
  if (topology == MPI_GRAPH) {
    int rank = 0;
    PMPI_Comm_rank(comm, &rank);
    PMPI_Graph_neighbors_count(comm, rank, &count);
    return count;
  }
  if (topology == MPI_DIST_GRAPH) {
    int in = 0, out = 0, weighted = 0;
    PMPI_Dist_graph_neighbors_count(comm, &in, &out, &weighted);
    return over == CountsOver::in_neighbours ? in : out;
  }
  return 0;
}

bool is_root(int root, MPI_Comm comm) {
  if (comm == MPI_COMM_NULL) return false;
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (inter) return root == MPI_ROOT;
  int rank = -1;
  PMPI_Comm_rank(comm, &rank);
  return rank == root;
}

namespace {

struct PersistentRequests {
  std::mutex mutex;
  std::map<MPI_Request, double> bytes;
};
PersistentRequests& persistent_requests() {
  static auto* instance = new PersistentRequests;
  return *instance;
}

}  // namespace

void remember_request(MPI_Request request, double bytes) {
  if (request == MPI_REQUEST_NULL) return;
  auto& known = persistent_requests();
  std::lock_guard lock(known.mutex);
  known.bytes[request] = bytes;
}

std::pair<double, double> started(const MPI_Request requests[], int count) {
  if (!requests || count <= 0) return {0.0, 0.0};
  auto& known = persistent_requests();
  std::lock_guard lock(known.mutex);
  std::pair<double, double> messages_bytes{0.0, 0.0};
  for (int i = 0; i < count; ++i) {
    const auto found = known.bytes.find(requests[i]);
    if (found == known.bytes.end()) continue;
    messages_bytes.first += 1.0;
    messages_bytes.second += found->second;
  }
  return messages_bytes;
}

std::pair<double, double> fortran_started(const void* requests, const void* count) {
  if (!requests) return {0.0, 0.0};
  const int n = count ? static_cast<int>(*static_cast<const MPI_Fint*>(count)) : 1;
  std::vector<MPI_Request> handles;
  for (int i = 0; i < n; ++i) handles.push_back(MPI_Request_f2c(static_cast<const MPI_Fint*>(requests)[i]));
  return started(handles.data(), n);
}

double type_bytes_sum(const int counts[], const MPI_Datatype types[], MPI_Datatype type, MPI_Comm comm,
                      CountsOver over) {
  if (!counts) return 0.0;
  const int n = entries(comm, over);
  double bytes = 0.0;
  for (int i = 0; i < n; ++i) bytes += type_bytes(counts[i], types ? types[i] : type);
  return bytes;
}

double fortran_type_bytes_sum(const void* counts, const void* types, const void* type, const void* comm,
                              CountsOver over) {
  if (!counts || !comm || (!types && !type)) return 0.0;
  const auto* fortran_counts = static_cast<const MPI_Fint*>(counts);
  const auto* fortran_types = static_cast<const MPI_Fint*>(types);
  const MPI_Datatype single = type ? MPI_Type_f2c(*static_cast<const MPI_Fint*>(type)) : MPI_DATATYPE_NULL;
  const int n = entries(MPI_Comm_f2c(*static_cast<const MPI_Fint*>(comm)), over);
  double bytes = 0.0;
  for (int i = 0; i < n; ++i)
    bytes += type_bytes(static_cast<int>(fortran_counts[i]),
                        fortran_types ? MPI_Type_f2c(fortran_types[i]) : single);
  return bytes;
}

}  // namespace hetscale::interpose

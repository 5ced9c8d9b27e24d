#include "trace_hooks.hpp"

#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <string>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "accounting.hpp"
#include "hetscale/io/files.hpp"
#include "hetscale/measure/trace_recorder.hpp"
#include "rank_state.hpp"

namespace hetscale::interpose::trace {

bool on = false;

namespace {

struct State {
  std::mutex mutex;
  std::unique_ptr<measure::TraceRecorder> recorder;
  gzFile file = nullptr;
  std::string path;
  double text_bytes = 0.0;
  int rank = 0, ranks = 1;
  double speed = 1.0;  // the speed this rank's computation is counted at
  // Each communicator's ranks in the world (its order); empty: an
  // intercommunicator, not traced.
  std::map<MPI_Comm, std::vector<int>> members;
  std::vector<double> not_replayed = std::vector<double>(function_count);
};

State& state() {
  static auto* instance = new State;
  return *instance;
}

std::uint64_t id_of(MPI_Request request) {
  std::uint64_t id = 0;
  std::memcpy(&id, &request, std::min(sizeof request, sizeof id));
  return id;
}

double type_size(MPI_Datatype type) { return type_bytes(1, type); }

const std::vector<int>& members_of(State& s, MPI_Comm comm) {
  const auto found = s.members.find(comm);
  if (found != s.members.end()) return found->second;
  std::vector<int> members;
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  if (comm == MPI_COMM_WORLD) {
    members.resize(static_cast<std::size_t>(s.ranks));
    std::iota(members.begin(), members.end(), 0);
  } else if (!inter) {
    MPI_Group group, world;
    PMPI_Comm_group(comm, &group);
    PMPI_Comm_group(MPI_COMM_WORLD, &world);
    int size = 0;
    PMPI_Group_size(group, &size);
    std::vector<int> local(static_cast<std::size_t>(size));
    std::iota(local.begin(), local.end(), 0);
    members.resize(local.size());
    PMPI_Group_translate_ranks(group, size, local.data(), world, members.data());
    PMPI_Group_free(&group);
    PMPI_Group_free(&world);
  }
  return s.members[comm] = members;
}

// A peer of `comm` in the world: SimGrid's any source, or -1 for
// MPI_PROC_NULL or a peer not known (nothing is written then).
int world_peer(State& s, MPI_Comm comm, int peer) {
  if (peer == MPI_ANY_SOURCE) return measure::TraceRecorder::any_source;
  if (peer == MPI_PROC_NULL || peer < 0) return -1;
  if (comm == MPI_COMM_WORLD) return peer;
  const auto& members = members_of(s, comm);
  return peer < static_cast<int>(members.size()) ? members[static_cast<std::size_t>(peer)] : -1;
}

int trace_tag(int tag) { return tag == MPI_ANY_TAG ? measure::TraceRecorder::any_tag : tag; }

bool ignored(const MPI_Status* status) { return status == MPI_STATUS_IGNORE || status == nullptr; }

// Runs `write` on the recorder under the lock, when tracing.
template <class Write>
void recorded(Write write) {
  auto& s = state();
  std::lock_guard lock(s.mutex);
  if (s.recorder) write(s, *s.recorder);
}

// A collective on `comm`: `on_world` with its members when they are the
// whole world, else point to point through its first member.
template <class OnWorld>
void collective(MPI_Comm comm, double up, double down, OnWorld on_world) {
  recorded([&](State& s, measure::TraceRecorder& recorder) {
    const auto& members = members_of(s, comm);
    if (members.empty()) return;
    if (static_cast<int>(members.size()) == s.ranks) {
      on_world(recorder, members);
    } else {
      recorder.subgroup(members, up, down);
    }
  });
}

// Per-rank counts of `comm` as bytes in world order.
std::vector<double> in_world_order(const std::vector<int>& members, const int counts[], MPI_Datatype type) {
  std::vector<double> bytes(members.size(), 0.0);
  if (!counts) return bytes;
  const double size = type_size(type);
  for (std::size_t c = 0; c < members.size(); ++c)
    bytes[static_cast<std::size_t>(members[c])] = std::max(0, counts[c]) * size;
  return bytes;
}

double total(const int counts[], MPI_Datatype type, std::size_t entries) {
  if (!counts) return 0.0;
  double sum = 0.0;
  for (std::size_t i = 0; i < entries; ++i) sum += std::max(0, counts[i]);
  return sum * type_size(type);
}

bool is_rank(MPI_Comm comm, int rank) {
  int mine = -1;
  PMPI_Comm_rank(comm, &mine);
  return mine == rank;
}

int comm_size(MPI_Comm comm) {
  int size = 0;
  PMPI_Comm_size(comm, &size);
  return size;
}

void complete(measure::TraceRecorder& recorder, MPI_Request request, const MPI_Status* status) {
  if (request == MPI_REQUEST_NULL) return;
  int source = measure::TraceRecorder::any_source, tag = measure::TraceRecorder::any_tag;
  if (!ignored(status)) {
    source = status->MPI_SOURCE;
    tag = status->MPI_TAG;
  }
  recorder.completed(id_of(request), source, tag);
}

// The sender a receive's status names, in the world.
int world_source(State& s, MPI_Comm comm, int posted, const MPI_Status* status) {
  return world_peer(s, comm, ignored(status) || posted != MPI_ANY_SOURCE ? posted : status->MPI_SOURCE);
}

// The program's arguments, from the kernel's copy of its command line.
std::vector<std::string> program_arguments() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::vector<std::string> arguments;
  for (std::string argument; std::getline(in, argument, '\0');) arguments.push_back(argument);
  if (!arguments.empty()) arguments.erase(arguments.begin());
  return arguments;
}

}  // namespace

void open(int rank) {
  auto& s = state();
  std::lock_guard lock(s.mutex);
  const auto& folder = settings().trace;
  if (folder.empty() || s.recorder) return;
  s.rank = rank;
  PMPI_Comm_size(MPI_COMM_WORLD, &s.ranks);
  // Computation counted at the node's speed; an emulated node's computation
  // ran on this machine's (its hold-back is not work).
  const auto& config = settings();
  const bool emulated_only = !config.emulated_speeds.empty() && config.speeds == config.emulated_speeds;
  s.speed = emulated_only ? 1.0 : speed_of_rank(config.speeds, rank);
  s.path = fmt::format("{}/rank-{}.trace.gz", folder, rank);
  s.file = gzopen(s.path.c_str(), "wb1");
  if (!s.file) {
    std::fprintf(stderr, "hetscale: measure: cannot write the trace %s: %s\n", s.path.c_str(), std::strerror(errno));
    return;
  }
  s.recorder = std::make_unique<measure::TraceRecorder>(rank, [&s](std::string_view text) {
    s.text_bytes += static_cast<double>(text.size());
    if (!text.empty()) gzwrite(s.file, text.data(), static_cast<unsigned>(text.size()));
  });
  on = true;
}

void computed(double on_cpu_seconds) {
  recorded([&](State& s, measure::TraceRecorder& recorder) { recorder.computed(on_cpu_seconds * s.speed); });
}

void close(int rank, int ranks, double measured, const std::vector<char>& hosts) {
  auto& s = state();
  double actions = 0.0, text_bytes = 0.0;
  int tracing = 0;
  {
    std::lock_guard lock(s.mutex);
    on = false;
    if (s.recorder) {
      s.recorder->finish();
      actions = static_cast<double>(s.recorder->actions());
      text_bytes = s.text_bytes;
      tracing = gzclose(s.file) == Z_OK ? 1 : 0;
      s.file = nullptr;
      s.recorder.reset();
    }
  }
  if (settings().trace.empty()) return;
  // Every rank's counts, at rank 0, for the manifest.
  int everyone = 0;
  PMPI_Allreduce(&tracing, &everyone, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  std::vector<double> mine{actions, text_bytes, s.speed, measured};
  std::vector<double> rows(rank == 0 ? mine.size() * static_cast<std::size_t>(ranks) : 0);
  PMPI_Gather(mine.data(), static_cast<int>(mine.size()), MPI_DOUBLE, rows.data(), static_cast<int>(mine.size()),
              MPI_DOUBLE, 0, MPI_COMM_WORLD);
  std::vector<double> not_replayed(function_count);
  PMPI_Reduce(s.not_replayed.data(), not_replayed.data(), static_cast<int>(function_count), MPI_DOUBLE, MPI_SUM, 0,
              MPI_COMM_WORLD);
  if (rank != 0) return;
  if (!everyone) {
    std::fprintf(stderr, "hetscale: measure: no trace manifest written: a rank could not write its trace\n");
    return;
  }
  nlohmann::json manifest{{"schema", "hetscale.trace/1"},
                          {"program", settings().program},
                          {"arguments", program_arguments()},
                          {"ranks", ranks},
                          {"flops_per_reference_second", measure::TraceRecorder::flops_per_reference_second}};
  nlohmann::json files = nlohmann::json::array(), host_names = nlohmann::json::array(),
                 speeds = nlohmann::json::array(), counts = nlohmann::json::array(), sizes = nlohmann::json::array();
  double longest = 0.0;
  for (int r = 0; r < ranks; ++r) {
    files.push_back(fmt::format("rank-{}.trace.gz", r));
    host_names.push_back(std::string(hosts.data() + static_cast<std::size_t>(r) * MPI_MAX_PROCESSOR_NAME));
    counts.push_back(rows[static_cast<std::size_t>(r) * mine.size()]);
    sizes.push_back(rows[static_cast<std::size_t>(r) * mine.size() + 1]);
    speeds.push_back(rows[static_cast<std::size_t>(r) * mine.size() + 2]);
    longest = std::max(longest, rows[static_cast<std::size_t>(r) * mine.size() + 3]);
  }
  manifest["files"] = files;
  manifest["hosts"] = host_names;
  manifest["speeds"] = speeds;
  if (!settings().emulated_speeds.empty()) manifest["emulated_speeds"] = settings().emulated_speeds;
  manifest["actions"] = counts;
  manifest["text_bytes"] = sizes;
  nlohmann::json left = nlohmann::json::object();
  for (std::size_t f = 0; f < function_count; ++f)
    if (not_replayed[f] > 0.0) left[functions[f].name] = not_replayed[f];
  manifest["not_replayed"] = left;
  // What a replay of this machine is to give: MPI_Init's return to the end
  // of MPI_Finalize's wait, the longest rank.
  manifest["measured_seconds"] = longest;
  try {
    io::write_file_atomically(settings().trace + "/manifest.json", manifest.dump(2) + "\n");
  } catch (const std::exception& error) {
    std::fprintf(stderr, "hetscale: measure: no trace manifest written: %s\n", error.what());
  }
}

Requests captured(int count, const MPI_Request requests[]) {
  Requests copy;
  if (on && requests && count > 0) copy.handles.assign(requests, requests + count);
  return copy;
}

Requests fortran_captured(const void* count, const void* requests) {
  Requests copy;
  if (!on || !count || !requests) return copy;
  const int n = static_cast<int>(*static_cast<const MPI_Fint*>(count));
  const auto* handles = static_cast<const MPI_Fint*>(requests);
  for (int i = 0; i < n; ++i) copy.handles.push_back(MPI_Request_f2c(handles[i]));
  return copy;
}

MPI_Request fortran_request(const void* request) {
  return request ? MPI_Request_f2c(*static_cast<const MPI_Fint*>(request)) : MPI_REQUEST_NULL;
}

MPI_Status* status_or_local(MPI_Status* status, MPI_Status* local) {
  return on && status == MPI_STATUS_IGNORE ? local : status;
}

MPI_Status* statuses_or_local(MPI_Status* statuses, int count) {
  if (!on || statuses != MPI_STATUSES_IGNORE || count <= 0) return statuses;
  thread_local std::vector<MPI_Status> local;
  local.resize(static_cast<std::size_t>(count));
  return local.data();
}

void* fortran_status_or_local(void* status, MPI_Fint* local) {
  return on && status == static_cast<void*>(MPI_F_STATUS_IGNORE) ? local : status;
}

void* fortran_statuses_or_local(void* statuses, const void* count) {
  if (!on || statuses != static_cast<void*>(MPI_F_STATUSES_IGNORE) || !count) return statuses;
  thread_local std::vector<MPI_Fint> local;
  local.resize(fortran_status_size * static_cast<std::size_t>(std::max(0, *static_cast<const MPI_Fint*>(count))));
  return local.data();
}

const MPI_Status* fortran_status(const void* status) {
  thread_local MPI_Status converted;
  if (!status || status == static_cast<const void*>(MPI_F_STATUS_IGNORE)) return MPI_STATUS_IGNORE;
  MPI_Status_f2c(static_cast<const MPI_Fint*>(status), &converted);
  return &converted;
}

const MPI_Status* fortran_statuses(const void* statuses, const void* count) {
  thread_local std::vector<MPI_Status> converted;
  if (!statuses || !count || statuses == static_cast<const void*>(MPI_F_STATUSES_IGNORE)) return MPI_STATUSES_IGNORE;
  const int n = std::max(0, static_cast<int>(*static_cast<const MPI_Fint*>(count)));
  // A Fortran status is as many integers as a C status holds (Open MPI 6, MPICH 5).
  constexpr std::ptrdiff_t fortran_size = sizeof(MPI_Status) / sizeof(MPI_Fint);
  converted.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i)
    MPI_Status_f2c(static_cast<const MPI_Fint*>(statuses) + i * fortran_size, &converted[static_cast<std::size_t>(i)]);
  return converted.data();
}

void send(int dest, int tag, double bytes, MPI_Comm comm) {
  recorded([&](State& s, measure::TraceRecorder& recorder) {
    const int peer = world_peer(s, comm, dest);
    if (peer >= 0) recorder.send(peer, tag, bytes);
  });
}

void isend(int dest, int tag, double bytes, MPI_Comm comm, MPI_Request request) {
  recorded([&](State& s, measure::TraceRecorder& recorder) {
    const int peer = world_peer(s, comm, dest);
    if (peer >= 0) recorder.isend(peer, tag, bytes, id_of(request));
  });
}

void recv(int source, int tag, double bytes, MPI_Comm comm, const MPI_Status* status) {
  recorded([&](State& s, measure::TraceRecorder& recorder) {
    const int peer = world_source(s, comm, source, status);
    const int received_tag = ignored(status) || tag != MPI_ANY_TAG ? trace_tag(tag) : status->MPI_TAG;
    if (peer >= 0 || peer == measure::TraceRecorder::any_source) recorder.recv(peer, received_tag, bytes);
  });
}

void mrecv(double bytes, const MPI_Status* status) {
  // A matched receive: its sender and tag only in the status (of MPI_COMM_WORLD's ranks only).
  if (ignored(status)) return;
  recorded(
      [&](State&, measure::TraceRecorder& recorder) { recorder.recv(status->MPI_SOURCE, status->MPI_TAG, bytes); });
}

void irecv(int source, int tag, double bytes, MPI_Comm comm, MPI_Request request) {
  recorded([&](State& s, measure::TraceRecorder& recorder) {
    const int peer = world_peer(s, comm, source);
    if (peer >= 0 || peer == measure::TraceRecorder::any_source)
      recorder.irecv(peer, trace_tag(tag), bytes, id_of(request));
  });
}

void sendrecv(int dest, int sendtag, double send_bytes, int source, int recvtag, double recv_bytes, MPI_Comm comm,
              const MPI_Status* status) {
  recorded([&](State& s, measure::TraceRecorder& recorder) {
    // As the replay has it: a receive and a send posted, then both waited for.
    const int to = world_peer(s, comm, dest), from = world_source(s, comm, source, status);
    const int received_tag = ignored(status) || recvtag != MPI_ANY_TAG ? trace_tag(recvtag) : status->MPI_TAG;
    constexpr std::uint64_t receiving = ~std::uint64_t{0}, sending = receiving - 1;  // not a handle's number
    if (from >= 0) recorder.irecv(from, received_tag, recv_bytes, receiving);
    if (to >= 0) recorder.isend(to, sendtag, send_bytes, sending);
    if (from >= 0) recorder.completed(receiving, from, received_tag);
    if (to >= 0) recorder.completed(sending, to, sendtag);
  });
}

void send_init(int dest, int tag, double bytes, MPI_Comm comm, MPI_Request request) {
  recorded([&](State& s, measure::TraceRecorder& recorder) {
    const int peer = world_peer(s, comm, dest);
    if (peer >= 0) recorder.persistent(id_of(request), true, peer, tag, bytes);
  });
}

void recv_init(int source, int tag, double bytes, MPI_Comm comm, MPI_Request request) {
  recorded([&](State& s, measure::TraceRecorder& recorder) {
    const int peer = world_peer(s, comm, source);
    if (peer >= 0 || peer == measure::TraceRecorder::any_source)
      recorder.persistent(id_of(request), false, peer, trace_tag(tag), bytes);
  });
}

void start(MPI_Request request) {
  recorded([&](State&, measure::TraceRecorder& recorder) { recorder.start(id_of(request)); });
}

void startall(const Requests& requests) {
  recorded([&](State&, measure::TraceRecorder& recorder) {
    for (const auto request : requests.handles) recorder.start(id_of(request));
  });
}

void request_free(MPI_Request request) {
  recorded([&](State&, measure::TraceRecorder& recorder) { recorder.freed(id_of(request)); });
}

void wait(MPI_Request request, const MPI_Status* status) {
  recorded([&](State&, measure::TraceRecorder& recorder) { complete(recorder, request, status); });
}

void waitall(const Requests& requests, const MPI_Status* statuses) {
  recorded([&](State&, measure::TraceRecorder& recorder) {
    for (std::size_t i = 0; i < requests.handles.size(); ++i)
      complete(recorder, requests.handles[i], statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : statuses + i);
  });
}

void waitany(const Requests& requests, Index index, const MPI_Status* status) {
  if (!index.at || *index.at == MPI_UNDEFINED) return;
  const int i = *index.at - index.base;
  if (i < 0 || i >= static_cast<int>(requests.handles.size())) return;
  wait(requests.handles[static_cast<std::size_t>(i)], status);
}

void waitsome(const Requests& requests, const int* outcount, Index indices, const MPI_Status* statuses) {
  if (!outcount || *outcount == MPI_UNDEFINED || !indices.at) return;
  recorded([&](State&, measure::TraceRecorder& recorder) {
    for (int k = 0; k < *outcount; ++k) {
      const int i = indices.at[k] - indices.base;
      if (i < 0 || i >= static_cast<int>(requests.handles.size())) continue;
      complete(recorder, requests.handles[static_cast<std::size_t>(i)],
               statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : statuses + k);
    }
  });
}

void test(MPI_Request request, const int* flag, const MPI_Status* status) {
  if (flag && *flag) wait(request, status);
}

void testall(const Requests& requests, const int* flag, const MPI_Status* statuses) {
  if (flag && *flag) waitall(requests, statuses);
}

void testany(const Requests& requests, Index index, const int* flag, const MPI_Status* status) {
  if (flag && *flag) waitany(requests, index, status);
}

void barrier(MPI_Comm comm) {
  collective(comm, 0.0, 0.0, [](measure::TraceRecorder& recorder, const std::vector<int>&) { recorder.barrier(); });
}

void bcast(double bytes, int root, MPI_Comm comm) {
  collective(comm, 0.0, bytes, [&](measure::TraceRecorder& recorder, const std::vector<int>& members) {
    if (root >= 0 && root < static_cast<int>(members.size()))
      recorder.bcast(bytes, members[static_cast<std::size_t>(root)]);
  });
}

void reduce(double bytes, int root, MPI_Comm comm) {
  collective(comm, bytes, 0.0, [&](measure::TraceRecorder& recorder, const std::vector<int>& members) {
    if (root >= 0 && root < static_cast<int>(members.size()))
      recorder.reduce(bytes, members[static_cast<std::size_t>(root)]);
  });
}

void allreduce(double bytes, MPI_Comm comm) {
  collective(comm, bytes, bytes,
             [&](measure::TraceRecorder& recorder, const std::vector<int>&) { recorder.allreduce(bytes); });
}

void scan(double bytes, MPI_Comm comm) {
  collective(comm, bytes, bytes,
             [&](measure::TraceRecorder& recorder, const std::vector<int>&) { recorder.scan(bytes, false); });
}

void exscan(double bytes, MPI_Comm comm) {
  collective(comm, bytes, bytes,
             [&](measure::TraceRecorder& recorder, const std::vector<int>&) { recorder.scan(bytes, true); });
}

void alltoall(double send_bytes, double recv_bytes, MPI_Comm comm) {
  if (send_bytes <= 0.0) send_bytes = recv_bytes;  // in place
  const double peers = comm_size(comm);
  collective(
      comm, send_bytes * peers, recv_bytes * peers,
      [&](measure::TraceRecorder& recorder, const std::vector<int>&) { recorder.alltoall(send_bytes, recv_bytes); });
}

void alltoallv(const int sendcounts[], MPI_Datatype sendtype, const int recvcounts[], MPI_Datatype recvtype,
               MPI_Comm comm) {
  const auto peers = static_cast<std::size_t>(comm_size(comm));
  collective(comm, total(sendcounts, sendtype, peers), total(recvcounts, recvtype, peers),
             [&](measure::TraceRecorder& recorder, const std::vector<int>& members) {
               recorder.alltoallv(in_world_order(members, sendcounts, sendtype),
                                  in_world_order(members, recvcounts, recvtype));
             });
}

void gather(double send_bytes, double recv_bytes, int root, MPI_Comm comm) {
  const bool at_root = is_rank(comm, root);
  collective(comm, send_bytes, 0.0, [&](measure::TraceRecorder& recorder, const std::vector<int>& members) {
    if (root < 0 || root >= static_cast<int>(members.size())) return;
    recorder.gather(send_bytes > 0.0 || !at_root ? send_bytes : recv_bytes, at_root ? recv_bytes : send_bytes,
                    members[static_cast<std::size_t>(root)], false);
  });
}

void allgather(double send_bytes, double recv_bytes, MPI_Comm comm) {
  if (send_bytes <= 0.0) send_bytes = recv_bytes;  // in place
  collective(comm, send_bytes, recv_bytes * comm_size(comm),
             [&](measure::TraceRecorder& recorder, const std::vector<int>&) {
               recorder.gather(send_bytes, recv_bytes, 0, true);
             });
}

void scatter(double send_bytes, double recv_bytes, int root, MPI_Comm comm) {
  const bool at_root = is_rank(comm, root);
  collective(comm, 0.0, recv_bytes, [&](measure::TraceRecorder& recorder, const std::vector<int>& members) {
    if (root < 0 || root >= static_cast<int>(members.size())) return;
    recorder.scatter(at_root ? send_bytes : recv_bytes, recv_bytes > 0.0 || !at_root ? recv_bytes : send_bytes,
                     members[static_cast<std::size_t>(root)]);
  });
}

void gatherv(double send_bytes, const int recvcounts[], MPI_Datatype recvtype, int root, MPI_Comm comm) {
  const bool at_root = is_rank(comm, root);
  collective(comm, send_bytes, 0.0, [&](measure::TraceRecorder& recorder, const std::vector<int>& members) {
    if (root < 0 || root >= static_cast<int>(members.size())) return;
    recorder.gatherv(send_bytes, in_world_order(members, at_root ? recvcounts : nullptr, recvtype),
                     members[static_cast<std::size_t>(root)], false);
  });
}

void allgatherv(double send_bytes, const int recvcounts[], MPI_Datatype recvtype, MPI_Comm comm) {
  const auto peers = static_cast<std::size_t>(comm_size(comm));
  collective(comm, send_bytes, total(recvcounts, recvtype, peers),
             [&](measure::TraceRecorder& recorder, const std::vector<int>& members) {
               const auto bytes = in_world_order(members, recvcounts, recvtype);
               int mine = 0;
               PMPI_Comm_rank(MPI_COMM_WORLD, &mine);
               recorder.gatherv(send_bytes > 0.0 ? send_bytes : bytes[static_cast<std::size_t>(mine)], bytes, 0, true);
             });
}

void scatterv(const int sendcounts[], MPI_Datatype sendtype, double recv_bytes, int root, MPI_Comm comm) {
  const bool at_root = is_rank(comm, root);
  collective(comm, 0.0, recv_bytes, [&](measure::TraceRecorder& recorder, const std::vector<int>& members) {
    if (root < 0 || root >= static_cast<int>(members.size())) return;
    recorder.scatterv(in_world_order(members, at_root ? sendcounts : nullptr, sendtype), recv_bytes,
                      members[static_cast<std::size_t>(root)]);
  });
}

void reduce_scatter(const int recvcounts[], MPI_Datatype datatype, MPI_Comm comm) {
  const auto peers = static_cast<std::size_t>(comm_size(comm));
  const double all = total(recvcounts, datatype, peers);
  collective(comm, all, all, [&](measure::TraceRecorder& recorder, const std::vector<int>& members) {
    recorder.reduce_scatter(in_world_order(members, recvcounts, datatype));
  });
}

void reduce_scatter_block(double recv_bytes, MPI_Comm comm) {
  const int peers = comm_size(comm);
  collective(comm, recv_bytes * peers, recv_bytes * peers,
             [&](measure::TraceRecorder& recorder, const std::vector<int>& members) {
               recorder.reduce_scatter(std::vector<double>(members.size(), recv_bytes));
             });
}

void comm_free(MPI_Comm comm) {
  auto& s = state();
  std::lock_guard lock(s.mutex);
  s.members.erase(comm);
}

void not_replayed(std::size_t function) {
  recorded([&](State& s, measure::TraceRecorder&) { s.not_replayed[function] += 1.0; });
}

}  // namespace hetscale::interpose::trace

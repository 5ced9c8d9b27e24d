#pragma once
// One rank's time-independent trace as SimGrid 3.32's replay reads it
// (docs/simulation.md): "RANK ACTION ARGUMENTS" lines, ranks of
// MPI_COMM_WORLD, sizes in bytes after `init`, computation as `compute` in
// flops (reference seconds x flops_per_reference_second). Pure: the MPI side
// (libhetscale_measure's trace hooks) gives world ranks, bytes and request
// ids; the recorder writes the lines, matches requests to their waits the way
// the replay does (by source, destination and tag, oldest first) and hands
// finished text to a sink.
//
// A receive posted from any source or with any tag is written with the
// sender and tag its completion reports: its line is kept with a blank in
// their place until then (a line still open after `keep_open_bytes` of later
// text is given up: written as any source / any tag, which the replay matches
// in its own order).
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <utility>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <fmt/core.h>

namespace hetscale::measure {

class TraceRecorder {
 public:
  using Sink = std::function<void(std::string_view)>;
  static constexpr double flops_per_reference_second = 1e9;
  static constexpr int any_source = -555;  // SimGrid's MPI_ANY_SOURCE
  static constexpr int any_tag = -444;     // SimGrid's MPI_ANY_TAG
  // The tag of the point-to-point messages a collective on fewer ranks than
  // the world is replayed as.
  static constexpr int subgroup_tag = 1'000'000'007;

  // Writes "RANK init". Text goes to `sink` in pieces of about `flush_bytes`.
  TraceRecorder(int rank, Sink sink, std::size_t flush_bytes = 1 << 20, std::size_t keep_open_bytes = 64u << 20);

  // Computation of this many reference seconds (on-CPU seconds x the speed
  // of the node it ran on) since the last action; written before the next.
  void computed(double reference_seconds);

  // Point to point (world ranks; `request`: the program's handle as a number).
  void send(int destination, int tag, double bytes);
  void isend(int destination, int tag, double bytes, std::uint64_t request);
  void recv(int source, int tag, double bytes);                          // source and tag as received
  void irecv(int source, int tag, double bytes, std::uint64_t request);  // any_source / any_tag allowed
  // A request completed (a wait or a successful test): its `wait` line;
  // source and tag as received (for a receive from any source or tag).
  void completed(std::uint64_t request, int source, int tag);
  // Persistent requests: made (nothing written), started (its isend or
  // irecv), freed (forgotten).
  void persistent(std::uint64_t request, bool is_send, int peer, int tag, double bytes);
  void start(std::uint64_t request);
  void freed(std::uint64_t request);

  // Collectives on MPI_COMM_WORLD's ranks (roots and arrays in world order);
  // arrays have one entry per rank.
  void barrier();
  void bcast(double bytes, int root);
  void reduce(double bytes, int root);
  void allreduce(double bytes);
  void scan(double bytes, bool exclusive);
  void alltoall(double send_bytes, double recv_bytes);  // per peer
  void alltoallv(const std::vector<double>& send_bytes, const std::vector<double>& recv_bytes);
  void gather(double send_bytes, double recv_bytes, int root, bool all);  // recv_bytes: per rank
  void scatter(double send_bytes, double recv_bytes, int root);           // send_bytes: per rank
  void gatherv(double send_bytes, const std::vector<double>& recv_bytes, int root, bool all);
  void scatterv(const std::vector<double>& send_bytes, double recv_bytes, int root);
  void reduce_scatter(const std::vector<double>& recv_bytes);
  // A collective on fewer ranks than the world (`members` in world ranks,
  // the communicator's order): replayed as point to point through its first
  // member, which receives `up` bytes from each other member and sends
  // each `down` bytes.
  void subgroup(const std::vector<int>& members, double up, double down);

  // Writes "RANK finalize" and everything kept; nothing may follow.
  void finish();

  std::uint64_t actions() const { return actions_; }

 private:
  struct Pending {
    int source = 0, destination = 0, tag = 0;  // the replay's key
    bool is_send = false, persistent = false, active = true;
    int peer = 0;        // a persistent request's partner and tag as made
    int posted_tag = 0;  // as posted
    double bytes = 0.0;
    std::optional<std::size_t> blank;  // where the sender and tag go, in the whole text
  };
  // The computation before, then "RANK action" formatted in place.
  template <class... Args>
  void line(fmt::format_string<Args...> action, Args&&... args) {
    begin_line();
    fmt::format_to(std::back_inserter(text_), action, std::forward<Args>(args)...);
    text_ += '\n';
    ++actions_;
  }
  void begin_line();
  void post_irecv(std::uint64_t request, Pending pending);
  void flush(bool all);

  int rank_;
  Sink sink_;
  std::size_t flush_bytes_, keep_open_bytes_;
  std::string text_;
  std::size_t written_ = 0;  // bytes of the whole text already given to the sink
  double computed_ = 0.0;    // reference seconds not yet written
  std::unordered_map<std::uint64_t, Pending> pending_;
  std::uint64_t actions_ = 0;
  bool finished_ = false;
};

}  // namespace hetscale::measure

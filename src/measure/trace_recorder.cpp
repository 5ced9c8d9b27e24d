#include "hetscale/measure/trace_recorder.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <stdexcept>

#include <fmt/core.h>
#include <fmt/format.h>

namespace hetscale::measure {
namespace {

// Computation shorter than this is carried to the next burst (a line for the
// 50 ns between two calls would only grow the trace and slow the program).
constexpr double shortest_burst = 1e-6;
// The width of a blank sender or tag (any int fits).
constexpr int blank_width = 11;

// Bytes as the whole number the replay reads.
long long whole(double bytes) { return std::llround(std::max(0.0, bytes)); }

std::string joined(const std::vector<double>& bytes) {
  std::string text;
  for (std::size_t i = 0; i < bytes.size(); ++i)
    fmt::format_to(std::back_inserter(text), "{}{}", i ? " " : "", whole(bytes[i]));
  return text;
}

double sum(const std::vector<double>& values) {
  double total = 0.0;
  for (const double value : values) total += std::max(0.0, std::round(value));
  return total;
}

}  // namespace

TraceRecorder::TraceRecorder(int rank, Sink sink, std::size_t flush_bytes, std::size_t keep_open_bytes)
    : rank_(rank), sink_(std::move(sink)), flush_bytes_(flush_bytes), keep_open_bytes_(keep_open_bytes) {
  if (rank < 0) throw std::invalid_argument(fmt::format("trace: rank {} is not a rank", rank));
  if (!sink_) throw std::invalid_argument("trace: no sink for the text");
  line("init");
}

void TraceRecorder::computed(double reference_seconds) {
  if (reference_seconds > 0.0) computed_ += reference_seconds;
}

void TraceRecorder::begin_line() {
  if (finished_) throw std::logic_error("trace: an action after finalize");
  // Text goes before a line is added, so a line just written is still here
  // to be filled in (a receive's sender).
  if (text_.size() >= flush_bytes_) flush(false);
  if (computed_ >= shortest_burst) {
    fmt::format_to(std::back_inserter(text_), "{} compute {:.9g}\n", rank_, computed_ * flops_per_reference_second);
    computed_ = 0.0;
  }
  fmt::format_to(std::back_inserter(text_), "{} ", rank_);
}

void TraceRecorder::send(int destination, int tag, double bytes) {
  line("send {} {} {}", destination, tag, whole(bytes));
}

void TraceRecorder::isend(int destination, int tag, double bytes, std::uint64_t request) {
  line("isend {} {} {}", destination, tag, whole(bytes));
  Pending pending;
  pending.source = rank_;
  pending.destination = destination;
  pending.tag = tag;
  pending.is_send = true;
  pending_[request] = pending;
}

void TraceRecorder::recv(int source, int tag, double bytes) { line("recv {} {} {}", source, tag, whole(bytes)); }

void TraceRecorder::irecv(int source, int tag, double bytes, std::uint64_t request) {
  Pending pending;
  pending.source = source;
  pending.destination = rank_;
  pending.tag = tag;
  pending.posted_tag = tag;
  pending.bytes = bytes;
  post_irecv(request, pending);
}

void TraceRecorder::post_irecv(std::uint64_t request, Pending pending) {
  const bool open = pending.source == any_source || pending.tag == any_tag;
  if (!open) {
    line("irecv {} {} {}", pending.source, pending.tag, whole(pending.bytes));
  } else {
    // The sender and tag stay blank until the receive completes.
    line("irecv {:<{}} {:<{}} {}", pending.source, blank_width, pending.tag, blank_width, whole(pending.bytes));
    const std::size_t end = written_ + text_.size();  // after the new line
    const std::size_t length = fmt::formatted_size("{}", whole(pending.bytes)) + 2 * blank_width + 3;
    pending.blank = end - length;
  }
  const auto found = pending_.find(request);
  if (found != pending_.end() && found->second.persistent) {
    found->second.source = pending.source;
    found->second.destination = rank_;
    found->second.tag = pending.tag;
    found->second.blank = pending.blank;
    found->second.active = true;
  } else {
    pending_[request] = pending;
  }
}

void TraceRecorder::completed(std::uint64_t request, int source, int tag) {
  const auto found = pending_.find(request);
  if (found == pending_.end() || !found->second.active) return;  // not a request the trace holds
  Pending& pending = found->second;
  if (pending.blank) {
    if (*pending.blank >= written_) {
      const std::string filled = fmt::format("{:<{}} {:<{}}", source, blank_width, tag, blank_width);
      text_.replace(*pending.blank - written_, filled.size(), filled);
      pending.source = source;
      pending.tag = tag;
    } else {
      // Given up (written as any): the replay keys it as SimGrid does.
      if (pending.source == any_source) pending.source = any_source - 1;
    }
    pending.blank.reset();
  }
  line("wait {} {} {}", pending.source, pending.destination, pending.tag);
  if (pending.persistent) {
    pending.active = false;
  } else {
    pending_.erase(found);
  }
}

void TraceRecorder::persistent(std::uint64_t request, bool is_send, int peer, int tag, double bytes) {
  Pending pending;
  pending.persistent = true;
  pending.active = false;
  pending.is_send = is_send;
  pending.peer = peer;
  pending.posted_tag = tag;
  pending.bytes = bytes;
  pending_[request] = pending;
}

void TraceRecorder::start(std::uint64_t request) {
  const auto found = pending_.find(request);
  if (found == pending_.end() || !found->second.persistent) return;
  Pending& pending = found->second;
  if (pending.is_send) {
    line("isend {} {} {}", pending.peer, pending.posted_tag, whole(pending.bytes));
    pending.source = rank_;
    pending.destination = pending.peer;
    pending.tag = pending.posted_tag;
    pending.active = true;
    return;
  }
  Pending posted = pending;
  posted.source = pending.peer;
  posted.destination = rank_;
  posted.tag = pending.posted_tag;
  post_irecv(request, posted);
}

void TraceRecorder::freed(std::uint64_t request) { pending_.erase(request); }

void TraceRecorder::barrier() { line("barrier"); }

void TraceRecorder::bcast(double bytes, int root) { line("bcast {} {}", whole(bytes), root); }

void TraceRecorder::reduce(double bytes, int root) { line("reduce {} 0 {}", whole(bytes), root); }

void TraceRecorder::allreduce(double bytes) { line("allreduce {} 0", whole(bytes)); }

void TraceRecorder::scan(double bytes, bool exclusive) { line("{} {} 0", exclusive ? "exscan" : "scan", whole(bytes)); }

void TraceRecorder::alltoall(double send_bytes, double recv_bytes) {
  line("alltoall {} {}", whole(send_bytes), whole(recv_bytes));
}

void TraceRecorder::alltoallv(const std::vector<double>& send_bytes, const std::vector<double>& recv_bytes) {
  line("alltoallv {:.0f} {} {:.0f} {}", sum(send_bytes), joined(send_bytes), sum(recv_bytes), joined(recv_bytes));
}

void TraceRecorder::gather(double send_bytes, double recv_bytes, int root, bool all) {
  if (all) {
    line("allgather {} {}", whole(send_bytes), whole(recv_bytes));
  } else {
    line("gather {} {} {}", whole(send_bytes), whole(recv_bytes), root);
  }
}

void TraceRecorder::scatter(double send_bytes, double recv_bytes, int root) {
  line("scatter {} {} {}", whole(send_bytes), whole(recv_bytes), root);
}

void TraceRecorder::gatherv(double send_bytes, const std::vector<double>& recv_bytes, int root, bool all) {
  if (all) {
    line("allgatherv {} {}", whole(send_bytes), joined(recv_bytes));
  } else {
    line("gatherv {} {} {}", whole(send_bytes), joined(recv_bytes), root);
  }
}

void TraceRecorder::scatterv(const std::vector<double>& send_bytes, double recv_bytes, int root) {
  line("scatterv {} {} {}", joined(send_bytes), whole(recv_bytes), root);
}

void TraceRecorder::reduce_scatter(const std::vector<double>& recv_bytes) {
  line("reducescatter {} 0", joined(recv_bytes));
}

void TraceRecorder::subgroup(const std::vector<int>& members, double up, double down) {
  if (members.empty() || std::find(members.begin(), members.end(), rank_) == members.end())
    throw std::invalid_argument(fmt::format("trace: rank {} is not in the collective's group", rank_));
  const int first = members.front();
  if (rank_ != first) {
    send(first, subgroup_tag, up);
    line("recv {} {} -1", first, subgroup_tag);  // the size the first member sends
    return;
  }
  for (const int member : members)
    if (member != first) line("recv {} {} -1", member, subgroup_tag);
  for (const int member : members)
    if (member != first) send(member, subgroup_tag, down);
}

void TraceRecorder::finish() {
  if (finished_) return;
  line("finalize");
  finished_ = true;
  flush(true);
}

void TraceRecorder::flush(bool all) {
  std::size_t end = text_.size();  // of text_, what may go
  if (!all) {
    // A blank still open keeps its line and the text after it, unless it has
    // waited too long (it is then given up when the receive completes).
    for (const auto& [request, pending] : pending_) {
      if (!pending.blank || written_ + text_.size() - *pending.blank > keep_open_bytes_) continue;
      end = std::min(end, *pending.blank - written_);
    }
    if (end < text_.size()) {
      const std::size_t newline = end == 0 ? std::string::npos : text_.rfind('\n', end - 1);
      end = newline == std::string::npos ? 0 : newline + 1;
    }
    if (end == 0) return;
  }
  sink_(std::string_view(text_).substr(0, end));
  written_ += end;
  text_.erase(0, end);
}

}  // namespace hetscale::measure

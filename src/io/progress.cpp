#include "hetscale/io/progress.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <utility>
#include <vector>

#include <sys/ioctl.h>
#include <unistd.h>

#include <fmt/core.h>
#include <fmt/format.h>

#include "hetscale/io/input_error.hpp"

namespace hetscale::io {
namespace {

// Whole seconds as m:ss, or h:mm:ss from an hour.
std::string clock_time(double seconds) {
  const auto whole = static_cast<long long>(std::llround(seconds));
  const long long hours = whole / 3600, minutes = whole / 60 % 60, rest = whole % 60;
  if (hours > 0) return fmt::format("{}:{:02}:{:02}", hours, minutes, rest);
  return fmt::format("{}:{:02}", minutes, rest);
}

// The bar: `done` of `total` as '#' out of `width`, to the nearest
// character, full only when every step is done.
std::string progress_bar(std::size_t done, std::size_t total, std::size_t width) {
  std::size_t filled = (2 * done * width + total) / (2 * total);
  if (done < total) filled = std::min(filled, width - 1);
  return std::string(filled, '#') + std::string(width - filled, '-');
}

// The width of the terminal `stream` is, or 0 when it is none.
std::size_t terminal_columns(std::FILE* stream) {
  winsize size{};
  if (ioctl(fileno(stream), TIOCGWINSZ, &size) != 0) return 0;
  return size.ws_col;
}

}  // namespace

std::string cut_to_columns(std::string line, std::size_t columns) {
  if (columns > 0 && line.size() >= columns) line.resize(columns - 1);
  return line;
}

ProgressOutput progress_output_from_environment() {
  const char* value = std::getenv("HETSCALE_PROGRESS");
  if (!value || !*value) return ProgressOutput::automatic;
  const std::string_view setting(value);
  if (setting == "always") return ProgressOutput::always;
  if (setting == "never") return ProgressOutput::never;
  throw InputError("HETSCALE_PROGRESS", "",
                   fmt::format("must be always or never (or unset: on a terminal only), got '{}'", setting));
}

std::string progress_line(std::string_view label, std::size_t done, std::size_t total, double elapsed_seconds,
                          std::string_view what, std::size_t width) {
  if (total == 0) throw std::invalid_argument("a progress line needs a total of at least 1 step, got 0");
  if (done > total)
    throw std::invalid_argument(fmt::format("a progress line has {} steps done of a total of {}", done, total));
  if (!(std::isfinite(elapsed_seconds) && elapsed_seconds >= 0.0))
    throw std::invalid_argument(fmt::format("elapsed seconds must be finite and >= 0, got {}", elapsed_seconds));
  std::vector<std::string> parts;
  if (!label.empty()) parts.emplace_back(label);
  if (width > 0) parts.push_back(fmt::format("[{}]", progress_bar(done, total, width)));
  parts.push_back(fmt::format("{}/{}", done, total));
  parts.push_back(fmt::format("elapsed {}", clock_time(elapsed_seconds)));
  if (done > 0 && done < total) {
    const double left = elapsed_seconds / static_cast<double>(done) * static_cast<double>(total - done);
    parts.push_back(fmt::format("left ~{}", clock_time(left)));
  }
  if (!what.empty()) parts.emplace_back(what);
  return fmt::format("{}", fmt::join(parts, "  "));
}

Progress::Progress(std::string label, std::size_t total, std::FILE* stream, ProgressOutput output)
    : label_(std::move(label)), total_(total), stream_(stream), start_(std::chrono::steady_clock::now()) {
  if (total_ == 0) throw std::invalid_argument("Progress needs a total of at least 1 step, got 0");
  if (!stream_) throw std::invalid_argument("Progress needs a stream, got none");
  if (output == ProgressOutput::automatic) output = progress_output_from_environment();
  enabled_ = output == ProgressOutput::always || (output == ProgressOutput::automatic && isatty(fileno(stream_)) == 1);
}

Progress::~Progress() { finish(); }

void Progress::step(std::string_view what) {
  if (done_ == total_)
    throw std::invalid_argument(fmt::format("Progress '{}': a step beyond its total of {}", label_, total_));
  ++done_;
  if (!enabled_) return;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const std::string line =
      cut_to_columns(progress_line(label_, done_, total_, elapsed, what, bar_width), terminal_columns(stream_));
  // Back to the line's start, the line, then clear what a longer line left.
  fmt::print(stream_, "\r{}\x1b[K", line);
  std::fflush(stream_);
  line_open_ = true;
}

void Progress::finish() {
  if (!line_open_) return;
  std::fputc('\n', stream_);
  std::fflush(stream_);
  line_open_ = false;
}

}  // namespace hetscale::io

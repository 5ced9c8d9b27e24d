#pragma once
// Progress of a long command on a terminal: one line that rewrites itself
// after every step, with a bar, the steps done, the time elapsed and an
// estimate of the time left. Quiet when the stream is not a terminal, so
// files, pipes, CTest and CI see nothing.
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

namespace hetscale::io {

// Whether a Progress prints: `automatic` asks HETSCALE_PROGRESS, then
// whether the stream is a terminal; `always` and `never` decide by themselves.
enum class ProgressOutput { automatic, always, never };

// HETSCALE_PROGRESS: "always" or "never"; unset or empty is `automatic`.
// Any other value is bad input (InputError naming HETSCALE_PROGRESS).
ProgressOutput progress_output_from_environment();

// One progress line, for example
//   sweep  [########------------]  7/18  elapsed 0:42  left ~1:06  N=700
// `width` is the bar's width in characters (0: no bar). The time left is the
// mean time per step so far times the steps left, shown only once a step is
// done and while steps are left. Times are m:ss, h:mm:ss from an hour.
// std::invalid_argument when total is 0, done > total, or elapsed_seconds is
// negative or not finite.
std::string progress_line(std::string_view label, std::size_t done, std::size_t total, double elapsed_seconds,
                          std::string_view what, std::size_t width);

// `line` cut to fit a terminal of `columns` characters: at most columns - 1
// of them (a line that reaches the last column would wrap on some terminals,
// and "\r" then rewrites only its last row). 0 columns: not cut.
std::string cut_to_columns(std::string line, std::size_t columns);

class Progress {
 public:
  static constexpr std::size_t bar_width = 20;

  // `total` steps (>= 1, else std::invalid_argument); the clock starts now.
  // With ProgressOutput::automatic it prints when HETSCALE_PROGRESS says
  // always, or when it is unset and `stream` is a terminal; a bad
  // HETSCALE_PROGRESS throws InputError.
  Progress(std::string label, std::size_t total, std::FILE* stream = stderr,
           ProgressOutput output = ProgressOutput::automatic);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  // One more step done; `what` (such as "N=700") ends the line. Rewrites the
  // line in place ("\r", the line, clear to its end), cut to the width of
  // the terminal when the stream is one. std::invalid_argument after `total`
  // steps.
  void step(std::string_view what = {});
  // Ends the line with a new line if anything was printed (the destructor
  // does too), so what follows starts on a line of its own.
  void finish();

  bool enabled() const { return enabled_; }
  std::size_t done() const { return done_; }

 private:
  std::string label_;
  std::size_t total_, done_ = 0;
  std::FILE* stream_;
  bool enabled_, line_open_ = false;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace hetscale::io

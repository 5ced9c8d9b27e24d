// Your own objective for the GA farm: a program run once per evaluation
// (command:PROGRAM), or a shared library with the C ABI of
// hetscale/objective.h (library:PATH).
#include <dlfcn.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/core.h>
#include <fmt/format.h>

#include "hetscale/io/child_process.hpp"
#include "hetscale/programs/objectives.hpp"
#include "genome_checks.hpp"

namespace hetscale::programs {
namespace {

std::string genome_text(const ga::Genome& genome) { return fmt::format("[{:.17g}]", fmt::join(genome, ", ")); }

// The last line of `text` that is not blank, without surrounding blanks.
std::string_view last_line(std::string_view text) {
  const auto blank = " \t\r\n";
  const auto end = text.find_last_not_of(blank);
  if (end == std::string_view::npos) return {};
  text = text.substr(0, end + 1);
  const auto start = text.find_last_of('\n');
  text = start == std::string_view::npos ? text : text.substr(start + 1);
  return text.substr(std::min(text.size(), text.find_first_not_of(" \t\r")));
}

// The whole of `text` as a number; none when it is not one.
std::optional<double> number_of(std::string_view text) {
  if (text.empty()) return std::nullopt;
  const std::string copy(text);
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(copy.c_str(), &end);
  if (end != copy.c_str() + copy.size() || errno == ERANGE) return std::nullopt;
  return value;
}

class CommandObjective final : public Objective {
 public:
  CommandObjective(std::string program, std::size_t dimensions, double lower, double upper)
      : program_(std::move(program)), dimensions_(dimensions), lower_(lower), upper_(upper) {}

  std::string name() const override { return "command:" + program_; }

  std::vector<ga::GeneDomain> domains() const override {
    return std::vector<ga::GeneDomain>(dimensions_, ga::GeneDomain::real(lower_, upper_));
  }

  double fitness(const ga::Genome& genome) const override {
    require_genome_size(genome, dimensions_, "command");
    std::string input;
    for (const double gene : genome) input += fmt::format("{:.17g}\n", gene);
    const auto result = io::run_program({"/bin/sh", "-c", program_}, input);
    if (result.exit_code != 0)
      throw EvaluationFailed(fmt::format("the objective '{}' exited with {} for the genome {}{}", program_,
                                         result.exit_code, genome_text(genome),
                                         result.errors.empty() ? "" : ": " + std::string(last_line(result.errors))));
    const auto line = last_line(result.output);
    const auto value = number_of(line);
    if (!value || std::isnan(*value))
      throw EvaluationFailed(fmt::format("the objective '{}' printed no fitness for the genome {}: its last line "
                                         "is '{}', not a number",
                                         program_, genome_text(genome), line));
    return *value;
  }

  // Real computation, in the program: its CPU time is the cost.
  std::optional<double> nominal_seconds() const override { return std::nullopt; }

 private:
  std::string program_;
  std::size_t dimensions_;
  double lower_, upper_;
};

using DomainFunction = std::size_t (*)(double*, double*, std::size_t);
using FitnessFunction = double (*)(const double*, std::size_t);
constexpr std::size_t most_genes = 1'000'000;

class LibraryObjective final : public Objective {
 public:
  explicit LibraryObjective(const std::string& path) : path_(path) {
    handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle_) throw std::invalid_argument(fmt::format("library:{}: cannot be loaded: {}", path, dlerror()));
    try {
      const auto domain = reinterpret_cast<DomainFunction>(symbol("hetscale_domain"));
      fitness_ = reinterpret_cast<FitnessFunction>(symbol("hetscale_fitness"));
      const std::size_t genes = domain(nullptr, nullptr, 0);
      if (genes < 1 || genes > most_genes)
        throw std::invalid_argument(fmt::format(
            "library:{}: hetscale_domain gives {} genes; it must give 1 to {}", path, genes, most_genes));
      std::vector<double> lower(genes), upper(genes);
      domain(lower.data(), upper.data(), genes);
      for (std::size_t i = 0; i < genes; ++i) {
        if (!std::isfinite(lower[i]) || !std::isfinite(upper[i]) || !(lower[i] < upper[i]))
          throw std::invalid_argument(fmt::format("library:{}: hetscale_domain gives gene {} the bounds [{}, {}]; "
                                                  "they must be finite, lower < upper",
                                                  path, i, lower[i], upper[i]));
        domains_.push_back(ga::GeneDomain::real(lower[i], upper[i]));
      }
    } catch (...) {
      dlclose(handle_);
      throw;
    }
  }
  ~LibraryObjective() override { dlclose(handle_); }
  LibraryObjective(const LibraryObjective&) = delete;
  LibraryObjective& operator=(const LibraryObjective&) = delete;

  std::string name() const override { return "library:" + path_; }
  std::vector<ga::GeneDomain> domains() const override { return domains_; }

  double fitness(const ga::Genome& genome) const override {
    require_genome_size(genome, domains_.size(), "library");
    const double value = fitness_(genome.data(), genome.size());
    if (std::isnan(value))
      throw EvaluationFailed(
          fmt::format("the objective library:{} gave NaN for the genome {}", path_, genome_text(genome)));
    return value;
  }

  // Real computation, in this process: its CPU time is the cost.
  std::optional<double> nominal_seconds() const override { return std::nullopt; }

 private:
  void* symbol(const char* name) const {
    dlerror();
    void* found = dlsym(handle_, name);
    if (!found)
      throw std::invalid_argument(fmt::format(
          "library:{}: has no function {} (the C ABI of hetscale/objective.h: hetscale_domain and "
          "hetscale_fitness)",
          path_, name));
    return found;
  }

  std::string path_;
  void* handle_ = nullptr;
  FitnessFunction fitness_ = nullptr;
  std::vector<ga::GeneDomain> domains_;
};

}  // namespace

std::unique_ptr<Objective> make_command_objective(const std::string& program, std::size_t dimensions, double lower,
                                                  double upper) {
  if (program.empty()) throw std::invalid_argument("command: the program is empty; give command:PROGRAM");
  if (dimensions < 1) throw std::invalid_argument(fmt::format("dimensions must be >= 1, got {}", dimensions));
  if (!std::isfinite(lower) || !std::isfinite(upper) || !(lower < upper))
    throw std::invalid_argument(
        fmt::format("bounds must be finite with lower < upper, got [{}, {}]", lower, upper));
  return std::make_unique<CommandObjective>(program, dimensions, lower, upper);
}

std::unique_ptr<Objective> make_library_objective(const std::string& path) {
  if (path.empty()) throw std::invalid_argument("library: the path is empty; give library:PATH");
  return std::make_unique<LibraryObjective>(path);
}

}  // namespace hetscale::programs

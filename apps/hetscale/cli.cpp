#include "cli.hpp"

#include <cmath>
#include <cstdlib>

#include <fmt/core.h>

#include "hetscale/io/number_list.hpp"

namespace hetscale::cli {

std::vector<double> positive_list(const std::string& text, const std::string& option) {
  auto values = io::parse_number_list(text, option);
  for (std::size_t i = 0; i < values.size(); ++i)
    if (values[i] <= 0.0)
      throw InputError(option, fmt::format("item {}", i + 1), fmt::format("must be > 0, got {:g}", values[i]));
  return values;
}

double single_number(const std::string& text, const std::string& option) {
  const auto values = io::parse_number_list(text, option);
  if (values.size() != 1)
    throw InputError(option, "", fmt::format("expects one number, got {}", values.size()));
  return values.front();
}

std::size_t count_option(const std::string& text, const std::string& option) {
  const double value = single_number(text, option);
  if (value < 1.0 || value != std::floor(value) || value > 1e9)
    throw InputError(option, "", fmt::format("must be a whole number >= 1, got {:g}", value));
  return static_cast<std::size_t>(value);
}

int launcher_rank() {
  for (const char* variable : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"})
    if (const char* value = std::getenv(variable); value && *value) return std::atoi(value);
  return 0;
}

std::string home_dir() {
  if (const char* home = std::getenv("HETSCALE_HOME"); home && *home) return home;
  return HETSCALE_HOME;
}

}  // namespace hetscale::cli

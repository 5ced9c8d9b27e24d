#include "hetscale/optimizer/program.hpp"

#include <algorithm>

namespace hetscale::optimizer {
namespace {

std::int64_t product(const std::vector<std::int64_t>& extents) {
  std::int64_t count = 1;
  for (std::int64_t extent : extents) count *= extent;
  return count;
}

}  // namespace

std::int64_t ArrayDeclaration::element_count() const { return product(extents); }

const LevelArray* Level::find_array(std::string_view name) const {
  auto found = std::find_if(arrays.begin(), arrays.end(), [&](const LevelArray& a) { return a.name == name; });
  return found == arrays.end() ? nullptr : &*found;
}

std::int64_t Level::data_elements() const {
  std::int64_t elements = 0;
  for (const LevelArray& array : arrays) elements += product(array.extents);
  return elements;
}

const ArrayDeclaration* Program::find_array(std::string_view name) const {
  auto found = std::find_if(arrays.begin(), arrays.end(), [&](const ArrayDeclaration& a) { return a.name == name; });
  return found == arrays.end() ? nullptr : &*found;
}

std::int64_t Program::operations_per_iteration() const {
  std::int64_t operations = 0;
  for (const Level& level : levels) operations += level.operation_count;
  return operations;
}

std::int64_t Program::total_operations() const { return operations_per_iteration() * iterations.value_or(1); }

}  // namespace hetscale::optimizer

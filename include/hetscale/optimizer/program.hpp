#pragma once
// Stage-GA, Section II: a sequential program as a sequence of levels (top-level
// loop nests), optionally inside an outer iterative loop. Each level knows the
// arrays it reads and writes, its floating-point operation count and its
// feasible alignments; the cost model and the solvers work from this data.
// Pure data: parse_program (parser.hpp) builds it from source text.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hetscale/optimizer/alignment.hpp"

namespace hetscale::optimizer {

// One program-wide array: every reference has `rank` subscripts; extent d is
// one more than the largest value the d-th subscript takes anywhere.
struct ArrayDeclaration {
  std::string name;
  int rank = 0;
  std::vector<std::int64_t> extents;

  std::int64_t element_count() const;  // product of the extents
};

// One subscript of an array reference, e.g. "i", "j + 1", "N - 1".
struct Subscript {
  std::string text;
  std::string loop_variable;                // set when the subscript is exactly one loop variable
  std::vector<std::string> loop_variables;  // every loop variable it uses
};

struct ArrayReference {
  std::string array;
  std::vector<Subscript> subscripts;
  bool written = false;  // the target of an assignment (a compound one also reads it)
  int line = 0;
  int column = 0;
};

// An array as one level uses it.
struct LevelArray {
  std::string name;
  int rank = 0;
  std::vector<std::int64_t> extents;  // program-wide (ArrayDeclaration)
  bool read = false;
  bool written = false;
  // The level reads the value the array had before the level: the first
  // assignment of the level that mentions it reads it (on its right-hand side,
  // in a subscript, or as a compound target). An array the level first
  // assigns with `=` is defined anew and needs no data from earlier levels.
  bool live_in = false;
};

struct Loop {
  std::string variable;
  int depth = 1;  // 1 for the level's outermost loop
  int line = 0;
  std::string lower_bound;                 // source text of the first value
  std::string upper_bound;                 // source text of the bound, with its comparison: "< N", "<= i + 1"
  std::int64_t total_iterations = 0;       // times the body runs over one execution of the level
  std::optional<std::int64_t> trip_count;  // per entry, when the bounds use no enclosing loop variable
};

struct Level {
  int index = 0;                           // 1, 2, ... in source order
  int line = 0;                            // line of the level's outermost `for`
  int depth = 0;                           // deepest nesting of loops
  std::vector<Loop> loops;                 // in source order
  std::vector<LevelArray> arrays;          // in order of first reference
  std::vector<ArrayReference> references;  // every array reference, in source order
  std::vector<std::string> scalars_read;
  std::vector<std::string> scalars_written;
  std::int64_t operation_count = 0;   // flops: + - * / in assignments (compound: one more), times executions
  std::vector<Alignment> alignments;  // feasible_alignments(*this)

  // The level's use of `name`, or nullptr.
  const LevelArray* find_array(std::string_view name) const;
  // Elements of the arrays the level references (the data it works on).
  std::int64_t data_elements() const;
};

struct Program {
  std::string name;                        // the source, e.g. the file path
  std::optional<std::int64_t> iterations;  // trip count of the outer iterative loop, if any
  std::vector<ArrayDeclaration> arrays;    // program-wide, in order of first reference
  std::vector<Level> levels;

  // The declaration of `name`, or nullptr.
  const ArrayDeclaration* find_array(std::string_view name) const;
  // Operation count of one pass over the levels (times `iterations` not applied).
  std::int64_t operations_per_iteration() const;
  // operations_per_iteration() times iterations (1 without an iterative loop).
  std::int64_t total_operations() const;
};

}  // namespace hetscale::optimizer

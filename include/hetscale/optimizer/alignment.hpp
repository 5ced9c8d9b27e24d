#pragma once
// Stage-GA, Section II.C: decomposition patterns of arrays and the alignments
// of a level (feasible assignments of one pattern to every array of the level,
// feasible meaning that the level runs without communication inside it).
// The rules are documented in docs/optimizer.md.
#include <string>
#include <string_view>
#include <vector>

namespace hetscale::optimizer {

struct Level;

// Stage-GA, Figures 2 and 3: block decompositions over the processors.
enum class Pattern {
  row_block,     // 2D, "horizontal": blocks of whole rows
  column_block,  // 2D, "vertical": blocks of whole columns
  block_2d,      // 2D, "rectangular": blocks of a processor grid
  block,         // 1D: contiguous blocks
  replicated,    // 1D or 2D: every processor holds the whole array
};

// "row", "column", "2d-block", "block", "replicated".
std::string_view to_string(Pattern pattern);
// The paper's word: "Horizontal", "Vertical", "Rectangular", "Block", "Replicated".
std::string_view paper_name(Pattern pattern);
// Whether the pattern is defined for an array of this rank (1D: block,
// replicated; 2D: row, column, 2d-block, replicated; other ranks: replicated).
bool pattern_fits_rank(Pattern pattern, int rank);

struct ArrayPattern {
  std::string array;
  Pattern pattern = Pattern::replicated;
  friend bool operator==(const ArrayPattern&, const ArrayPattern&) = default;
};

struct Alignment {
  int id = 0;                                  // 1, 2, ... within the level
  std::vector<ArrayPattern> patterns;          // one per array of the level, in the level's order
  std::vector<std::string> distributed_loops;  // loop variables split over processors:
                                               // one (row/column/block) or two (grid rows, grid columns)
  bool serial_only = false;                    // no communication-free split exists: the level runs on one processor

  // "c: row, I: row, b: row" (or "serial: a: replicated, ..." when serial_only).
  std::string description() const;
  // The pattern of `array`; throws std::invalid_argument if it is not in the alignment.
  Pattern pattern_of(std::string_view array) const;
};

struct AlignmentRules {
  // false (the paper's count, Table I): a read-only array takes the pattern the
  // split induces whenever its references allow one, and is replicated only
  // when they do not. true: such an array may also be replicated, which adds
  // alignments that are communication-free too but hold more data.
  bool replicate_distributable_reads = false;
};

// Every feasible alignment of the level, ids 1, 2, ... in the order of the
// splits tried (single loops in nest order, then ordered pairs). A level with
// none gets one serial_only alignment (every array replicated).
std::vector<Alignment> feasible_alignments(const Level& level, const AlignmentRules& rules = {});

}  // namespace hetscale::optimizer

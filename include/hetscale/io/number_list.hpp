#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hetscale::io {

// The pieces of `text` between `separator`s, empty ones kept: "a,,b" gives
// "a", "", "b"; "" gives one empty piece. Views into `text`.
std::vector<std::string_view> split_at(std::string_view text, char separator);

// The names in `text`, separated by commas, blanks or new lines; empty names
// are skipped: "a, b,,c\n" gives "a", "b", "c".
std::vector<std::string> split_names(std::string_view text);

// A list of finite numbers from a command-line value: "1,0.5,0.25", or
// "@FILE" for numbers in a file separated by commas, spaces or new lines
// (with # comments). `option` names the value in errors: the command line
// gives its option, the library a setting's name (speeds).
std::vector<double> parse_number_list(const std::string& text, const std::string& option);

// A number list (as parse_number_list) of numbers > 0; InputError names
// `option` and the item.
std::vector<double> parse_positive_list(const std::string& text, const std::string& option);

// Problem sizes: whole numbers >= 1 in increasing order, as a list (as
// parse_number_list) or a range "first:last:step" (first, first + step, ...
// up to last inclusive).
std::vector<std::size_t> parse_size_list(const std::string& text, const std::string& option);

// Exactly one number.
double parse_one_number(const std::string& text, const std::string& option);
// A whole number >= 1 (and <= 1e9).
std::size_t parse_count(const std::string& text, const std::string& option);
// Speeds given per rank: none when `text` is empty, else one number > 0 for
// each of `ranks` (InputError naming `option`).
std::vector<double> parse_per_rank_speeds(const std::string& text, const std::string& option, int ranks);
// Emulated relative speeds, per rank as above, each in (0, 1].
std::vector<double> parse_emulated_speeds(const std::string& text, const std::string& option, int ranks);
// A range LOWER:UPPER, such as -5.12:5.12.
std::pair<double, double> parse_range(const std::string& text, const std::string& option);

}  // namespace hetscale::io

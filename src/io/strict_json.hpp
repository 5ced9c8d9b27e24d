#pragma once
// Strict reading of hetscale's JSON files: every field is checked for its
// type and range, unknown fields are refused, and every failure is an
// InputError that names the file, the field path and what is allowed.
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "hetscale/io/input_error.hpp"

namespace hetscale::io {

// Parses JSON text; a syntax error names the source, line and column.
// A number no double can hold (1e999) names the field it is in.
nlohmann::json parse_json(std::string_view text, const std::string& source);
// The same, keeping the objects' keys in the order of the text.
nlohmann::ordered_json parse_ordered_json(std::string_view text, const std::string& source);

// Whether `text` is meant as a JSON document: its first non-blank character
// is '{' (files that may be JSON or text are told apart by it).
bool looks_like_json(std::string_view text);

class JsonObject {
 public:
  // value must be a JSON object; path is its place in the file ("" for the top).
  JsonObject(const nlohmann::json& value, std::string source, std::string path);

  // Refuses any field not in `allowed`, listing the allowed ones.
  void allow_only(std::initializer_list<std::string_view> allowed) const;
  // Requires field `schema` to equal `expected`.
  void require_schema(std::string_view expected) const;

  bool has(std::string_view key) const;
  double number(std::string_view key) const;  // required, finite
  std::optional<double> optional_number(std::string_view key) const;
  double non_negative_number(std::string_view key, double if_missing) const;
  double positive_number(std::string_view key) const;
  std::optional<double> optional_positive_number(std::string_view key) const;
  // A required array of finite numbers > 0 in `unit` (s, Mflop/s; empty: none):
  // "must be a non-empty array of WHAT, got ..." (or "an array of" when
  // `may_be_empty`), and per element "key[i]: must be a number > 0 (UNIT), got X".
  std::vector<double> positive_numbers(std::string_view key, std::string_view what, std::string_view unit,
                                       bool may_be_empty = false) const;
  std::string string(std::string_view key) const;  // required, not empty
  std::optional<std::string> optional_string(std::string_view key) const;
  JsonObject object(std::string_view key) const;
  // A required, non-empty array of objects.
  std::vector<JsonObject> objects(std::string_view key) const;
  const nlohmann::json& raw(std::string_view key) const;

  const std::string& source() const { return source_; }
  std::string field_path(std::string_view key) const;
  [[noreturn]] void fail(std::string_view key, const std::string& problem) const;

 private:
  const nlohmann::json* value_;
  std::string source_, path_;
};

}  // namespace hetscale::io

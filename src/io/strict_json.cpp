#include "io/strict_json.hpp"

#include "hetscale/io/file_kinds.hpp"

#include <cmath>
#include <vector>

#include <fmt/core.h>

namespace hetscale::io {
namespace {

std::string json_type_name(const nlohmann::json& value) { return value.type_name(); }

// Where the parser is, as a field path ("nodes[2].speed"): the parser's
// callback sees every key and the start and end of every object, array and
// value, so when the lexer refuses a number the path names the field it was in.
class ParsePath {
 public:
  // key: the key's text at a key event.
  bool on_event(nlohmann::json::parse_event_t event, const std::string& key) {
    using Event = nlohmann::json::parse_event_t;
    switch (event) {
      case Event::object_start: frames_.push_back({false, 0, {}}); break;
      case Event::array_start: frames_.push_back({true, 0, {}}); break;
      case Event::key: frames_.back().key = key; break;
      case Event::object_end:
      case Event::array_end:
        frames_.pop_back();
        element_done();
        break;
      case Event::value: element_done(); break;
    }
    return true;
  }

  std::string path() const {
    std::string text;
    for (const auto& frame : frames_) {
      if (frame.in_array)
        text += fmt::format("[{}]", frame.index);
      else if (!frame.key.empty())
        text += (text.empty() ? "" : ".") + frame.key;
    }
    return text.empty() ? "(top level)" : text;
  }

 private:
  struct Frame {
    bool in_array;
    std::size_t index;  // in an array: the element being read
    std::string key;    // in an object: the field being read
  };
  void element_done() {
    if (!frames_.empty() && frames_.back().in_array) ++frames_.back().index;
  }
  std::vector<Frame> frames_;
};

std::string without_exception_id(std::string message) {
  if (const auto end_of_id = message.find("] ");
      message.rfind("[json.exception", 0) == 0 && end_of_id != std::string::npos)
    message = message.substr(end_of_id + 2);
  return message;
}

template <class Json>
Json parse_following_the_path(std::string_view text, const std::string& source) {
  ParsePath where;
  const typename Json::parser_callback_t follow = [&where](int, nlohmann::json::parse_event_t event,
                                                           Json& parsed) {
    const bool is_key = event == nlohmann::json::parse_event_t::key;
    return where.on_event(event, is_key ? parsed.template get<std::string>() : std::string());
  };
  try {
    return Json::parse(text.begin(), text.end(), follow);
  } catch (const nlohmann::json::parse_error& error) {
    throw InputError(source, "", "not valid JSON: " + without_exception_id(error.what()));
  } catch (const nlohmann::json::out_of_range& error) {
    // A number a double cannot hold (1e999): the lexer's out_of_range.406.
    throw InputError(source, where.path(),
                     "a number outside the range of a double (magnitude at most about 1.8e308): " +
                         without_exception_id(error.what()));
  }
}

}  // namespace

bool looks_like_json(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && text[first] == '{';
}

nlohmann::json parse_json(std::string_view text, const std::string& source) {
  return parse_following_the_path<nlohmann::json>(text, source);
}

nlohmann::ordered_json parse_ordered_json(std::string_view text, const std::string& source) {
  return parse_following_the_path<nlohmann::ordered_json>(text, source);
}

JsonObject::JsonObject(const nlohmann::json& value, std::string source, std::string path)
    : value_(&value), source_(std::move(source)), path_(std::move(path)) {
  if (!value.is_object())
    throw InputError(source_, path_.empty() ? "(top level)" : path_,
                     "must be a JSON object, got " + json_type_name(value));
}

std::string JsonObject::field_path(std::string_view key) const {
  return path_.empty() ? std::string(key) : fmt::format("{}.{}", path_, key);
}

void JsonObject::fail(std::string_view key, const std::string& problem) const {
  throw InputError(source_, key.empty() ? path_ : field_path(key), problem);
}

void JsonObject::allow_only(std::initializer_list<std::string_view> allowed) const {
  for (const auto& [key, unused] : value_->items()) {
    bool known = false;
    for (std::string_view name : allowed) known = known || key == name;
    if (!known) {
      std::string names;
      for (std::string_view name : allowed) names += (names.empty() ? "" : ", ") + std::string(name);
      fail(key, "unknown field; allowed here: " + names);
    }
  }
}

void JsonObject::require_schema(std::string_view expected) const {
  if (!has("schema")) fail("schema", fmt::format("missing; expected \"{}\"", expected));
  const auto& schema = raw("schema");
  if (!schema.is_string()) fail("schema", fmt::format("is {}, expected \"{}\"", schema.dump(), expected));
  if (schema.get<std::string>() != expected) fail("schema", wrong_kind(schema.get<std::string>(), expected));
}

bool JsonObject::has(std::string_view key) const { return value_->contains(key); }

const nlohmann::json& JsonObject::raw(std::string_view key) const {
  auto found = value_->find(key);
  if (found == value_->end()) fail(key, "missing (required)");
  return *found;
}

double JsonObject::number(std::string_view key) const {
  const auto& value = raw(key);
  if (!value.is_number()) fail(key, "must be a number, got " + json_type_name(value));
  const double number = value.get<double>();
  if (!std::isfinite(number)) fail(key, fmt::format("must be a finite number, got {}", number));
  return number;
}

std::optional<double> JsonObject::optional_number(std::string_view key) const {
  if (!has(key)) return std::nullopt;
  return number(key);
}

double JsonObject::non_negative_number(std::string_view key, double if_missing) const {
  if (!has(key)) return if_missing;
  const double value = number(key);
  if (value < 0.0) fail(key, fmt::format("must be >= 0, got {}", value));
  return value;
}

double JsonObject::positive_number(std::string_view key) const {
  const double value = number(key);
  if (value <= 0.0) fail(key, fmt::format("must be > 0, got {}", value));
  return value;
}

std::optional<double> JsonObject::optional_positive_number(std::string_view key) const {
  if (!has(key)) return std::nullopt;
  return positive_number(key);
}

std::vector<double> JsonObject::positive_numbers(std::string_view key, std::string_view what, std::string_view unit,
                                                 bool may_be_empty) const {
  const auto& list = raw(key);
  if (!list.is_array() || (list.empty() && !may_be_empty))
    fail(key, fmt::format("must be {} array of {}, got {}", may_be_empty ? "an" : "a non-empty", what, list.dump()));
  const std::string in_unit = unit.empty() ? "" : fmt::format(" ({})", unit);
  std::vector<double> values;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const auto& value = list[i];
    if (!value.is_number() || !std::isfinite(value.get<double>()) || value.get<double>() <= 0.0)
      fail(fmt::format("{}[{}]", key, i), fmt::format("must be a number > 0{}, got {}", in_unit, value.dump()));
    values.push_back(value.get<double>());
  }
  return values;
}

std::string JsonObject::string(std::string_view key) const {
  const auto& value = raw(key);
  if (!value.is_string()) fail(key, "must be a string, got " + json_type_name(value));
  auto text = value.get<std::string>();
  if (text.empty()) fail(key, "must not be empty");
  return text;
}

std::optional<std::string> JsonObject::optional_string(std::string_view key) const {
  if (!has(key)) return std::nullopt;
  return string(key);
}

JsonObject JsonObject::object(std::string_view key) const { return JsonObject(raw(key), source_, field_path(key)); }

std::vector<JsonObject> JsonObject::objects(std::string_view key) const {
  const auto& value = raw(key);
  if (!value.is_array()) fail(key, "must be an array, got " + json_type_name(value));
  if (value.empty()) fail(key, "must not be empty");
  std::vector<JsonObject> items;
  items.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i)
    items.emplace_back(value[i], source_, fmt::format("{}[{}]", field_path(key), i));
  return items;
}

}  // namespace hetscale::io

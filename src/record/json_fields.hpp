#pragma once
// Reading and writing the optional fields of the records' JSON (private to record/).
#include <optional>

#include <nlohmann/json.hpp>

namespace hetscale::record_json {

// Writes `key` only when the value is there.
template <class T>
void put(nlohmann::ordered_json& out, const char* key, const std::optional<T>& value) {
  if (value) out[key] = *value;
}

// The field as T; none when it is missing, null or of another type.
template <class T, class Json>
std::optional<T> get(const Json& object, const char* key) {
  const auto found = object.find(key);
  if (found == object.end() || found->is_null()) return std::nullopt;
  try {
    return found->template get<T>();
  } catch (const nlohmann::detail::exception&) {
    return std::nullopt;
  }
}

}  // namespace hetscale::record_json

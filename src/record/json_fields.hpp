#pragma once
// Reading and writing the optional fields of the records' JSON (private to record/).
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>

#include <nlohmann/json.hpp>

namespace hetscale::record_json {

// Writes `key` only when the value is there.
template <class T>
void put(nlohmann::ordered_json& out, const char* key, const std::optional<T>& value) {
  if (value) out[key] = *value;
}

// The field as T; none when it is missing, null or of another type, or, for
// an integral T, when it is not a whole number T can hold (a count of -1 or
// 1e300 is not a count; converting it would be undefined behaviour).
template <class T, class Json>
std::optional<T> get(const Json& object, const char* key) {
  const auto found = object.find(key);
  if (found == object.end() || found->is_null()) return std::nullopt;
  if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
    if (!found->is_number()) return std::nullopt;
    if (found->is_number_unsigned()) {
      const auto value = found->template get<std::uint64_t>();
      if (value > static_cast<std::uint64_t>(std::numeric_limits<T>::max())) return std::nullopt;
      return static_cast<T>(value);
    }
    if (found->is_number_integer()) {
      const auto value = found->template get<std::int64_t>();
      if (value < 0 && std::is_unsigned_v<T>) return std::nullopt;
      if (value >= 0 && static_cast<std::uint64_t>(value) > static_cast<std::uint64_t>(std::numeric_limits<T>::max()))
        return std::nullopt;
      if constexpr (std::is_signed_v<T>)
        if (value < static_cast<std::int64_t>(std::numeric_limits<T>::min())) return std::nullopt;
      return static_cast<T>(value);
    }
    const auto value = found->template get<double>();  // a whole number written as 3.0
    if (!(value == std::floor(value)) || value < static_cast<double>(std::numeric_limits<T>::min()) ||
        value >= std::ldexp(1.0, std::numeric_limits<T>::digits))
      return std::nullopt;
    return static_cast<T>(value);
  }
  try {
    return found->template get<T>();
  } catch (const nlohmann::detail::exception&) {
    return std::nullopt;
  }
}

}  // namespace hetscale::record_json

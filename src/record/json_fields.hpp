#pragma once
// Reading and writing the optional fields of the records' JSON (private to record/).
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

namespace hetscale::record_json {

// Writes `key` only when the value is there.
template <class T>
void put(nlohmann::ordered_json& out, const char* key, const std::optional<T>& value) {
  if (value) out[key] = *value;
}

// A count: an integral type other than bool.
template <class T>
inline constexpr bool is_count_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;

// The value as the integral T; none when it is not a whole number T can hold
// (a count of -1 or 1e300 is not a count; converting it would be undefined
// behaviour).
template <class T, class Json>
std::optional<T> whole_number(const Json& value) {
  static_assert(is_count_v<T>);
  if (!value.is_number()) return std::nullopt;
  if (value.is_number_unsigned()) {
    const auto whole = value.template get<std::uint64_t>();
    if (whole > static_cast<std::uint64_t>(std::numeric_limits<T>::max())) return std::nullopt;
    return static_cast<T>(whole);
  }
  if (value.is_number_integer()) {
    const auto whole = value.template get<std::int64_t>();
    if (whole < 0 && std::is_unsigned_v<T>) return std::nullopt;
    if (whole >= 0 && static_cast<std::uint64_t>(whole) > static_cast<std::uint64_t>(std::numeric_limits<T>::max()))
      return std::nullopt;
    if constexpr (std::is_signed_v<T>)
      if (whole < static_cast<std::int64_t>(std::numeric_limits<T>::min())) return std::nullopt;
    return static_cast<T>(whole);
  }
  const auto real = value.template get<double>();  // a whole number written as 3.0
  if (!(real == std::floor(real)) || real < static_cast<double>(std::numeric_limits<T>::min()) ||
      real >= std::ldexp(1.0, std::numeric_limits<T>::digits))
    return std::nullopt;
  return static_cast<T>(real);
}

template <class T>
struct is_count_list : std::false_type {};
template <class E>
struct is_count_list<std::vector<E>> : std::bool_constant<is_count_v<E>> {};

// The field as T; none when it is missing, null or of another type, or, for
// an integral T or a list of them, when a number is not a whole number the
// type can hold (see whole_number).
template <class T, class Json>
std::optional<T> get(const Json& object, const char* key) {
  const auto found = object.find(key);
  if (found == object.end() || found->is_null()) return std::nullopt;
  if constexpr (is_count_v<T>) {
    return whole_number<T>(*found);
  } else if constexpr (is_count_list<T>::value) {
    if (!found->is_array()) return std::nullopt;
    T list;
    for (const auto& element : *found) {
      const auto whole = whole_number<typename T::value_type>(element);
      if (!whole) return std::nullopt;
      list.push_back(*whole);
    }
    return list;
  } else {
    try {
      return found->template get<T>();
    } catch (const nlohmann::detail::exception&) {
      return std::nullopt;
    }
  }
}

}  // namespace hetscale::record_json

#pragma once
// A file's provenance (hetscale/io/provenance.hpp) read from its "context"
// object and written back: private to src/.
#include <string>

#include <nlohmann/json.hpp>

#include "hetscale/io/provenance.hpp"

namespace hetscale::io {

namespace provenance_detail {
template <class Json>
std::string text(const Json& object, const char* key) {
  const auto found = object.find(key);
  return found != object.end() && found->is_string() ? found->template get<std::string>() : std::string();
}
}  // namespace provenance_detail

// The typed fields of a context `object` (a key of another type is left
// unset, and kept as written); not an object: none.
template <class Json>
Provenance provenance_from(const Json& object) {
  using provenance_detail::text;
  Provenance provenance;
  if (!object.is_object()) return provenance;
  provenance.written_json = object.dump();
  provenance.tool = text(object, "tool");
  provenance.host = text(object, "host");
  provenance.date = text(object, "date");
  provenance.mpi_library = text(object, "mpi_library");
  provenance.kernel = text(object, "kernel");
  provenance.measured = text(object, "measured");
  provenance.distribution = text(object, "distribution");
  if (const auto ranks = object.find("ranks"); ranks != object.end() && ranks->is_number_integer())
    provenance.ranks = ranks->template get<int>();
  if (const auto order = object.find("order"); order != object.end() && order->is_number())
    provenance.order = order->template get<double>();
  if (const auto speeds = object.find("emulated_speeds"); speeds != object.end() && speeds->is_array()) {
    for (const auto& speed : *speeds)
      if (speed.is_number()) provenance.emulated_speeds.push_back(speed.template get<double>());
    if (provenance.emulated_speeds.size() != speeds->size()) provenance.emulated_speeds.clear();
  }
  return provenance;
}

// The context object: the one kept with each field set written over it
// (unless it already says the same), its keys in order of their names.
nlohmann::ordered_json provenance_document(const Provenance& provenance);

}  // namespace hetscale::io

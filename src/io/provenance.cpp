#include "io/provenance_json.hpp"

namespace hetscale::io {
namespace {

template <class Value>
void write(nlohmann::json& document, const char* key, const Value& value) {
  const nlohmann::json written(value);
  const auto found = document.find(key);
  if (found == document.end() || *found != written) document[key] = written;
}

}  // namespace

nlohmann::ordered_json provenance_document(const Provenance& provenance) {
  // Keys in order of their names, as every context read and written again has them.
  auto document = nlohmann::json::parse(provenance.written_json, nullptr, false);
  if (!document.is_object()) document = nlohmann::json::object();
  for (const auto& [key, value] : {std::pair{"tool", &provenance.tool},
                                   {"host", &provenance.host},
                                   {"date", &provenance.date},
                                   {"mpi_library", &provenance.mpi_library},
                                   {"kernel", &provenance.kernel},
                                   {"measured", &provenance.measured},
                                   {"distribution", &provenance.distribution}})
    if (!value->empty()) write(document, key, *value);
  if (provenance.ranks) write(document, "ranks", *provenance.ranks);
  if (provenance.order) write(document, "order", *provenance.order);
  if (!provenance.emulated_speeds.empty()) write(document, "emulated_speeds", provenance.emulated_speeds);
  return nlohmann::ordered_json::parse(document.dump());
}

}  // namespace hetscale::io

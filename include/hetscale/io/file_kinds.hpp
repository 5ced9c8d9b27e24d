#pragma once
// The kinds of file hetscale writes, by their "schema": what each is and what
// reads it, so that a reader given another kind says which it got and where
// it goes instead of failing on the first field it does not know.
#include <string>
#include <string_view>

namespace hetscale::io {

struct FileKind {
  std::string_view schema;   // "hetscale.fpm/1"
  std::string_view what;     // "a speed model"
  std::string_view read_by;  // "read it with `hetscale model fpm` or `hetscale partition`"
};

// The kind of `schema`; nullptr when hetscale writes no such file.
const FileKind* file_kind(std::string_view schema);

// What a reader expecting `expected` says when given `schema` instead: "this
// is WHAT (SCHEMA), not EXPECTED-WHAT: READ-BY" for a kind hetscale writes,
// else "is SCHEMA, expected EXPECTED".
std::string wrong_kind(std::string_view schema, std::string_view expected);

}  // namespace hetscale::io

#include "hetscale/io/file_kinds.hpp"

#include <array>

#include <fmt/core.h>

namespace hetscale::io {
namespace {

constexpr std::array kinds{
    FileKind{"hetscale.run/1", "a run record",
             "read it with `hetscale analyze` or `hetscale report`, or give several to `hetscale predict`"},
    FileKind{"hetscale.fpm/1", "a speed model",
             "read it with `hetscale model fpm` or `hetscale partition`, or give it to `hetscale kernel` as "
             "`--distribution fpm:FILE`"},
    FileKind{"hetscale.platform/1", "a platform", "give it as `--platform FILE`"},
    FileKind{"hetscale.comm-profile/1", "a communication profile (`hetscale bench comm`)",
             "give it as `--comm-profile FILE`, or with sweeps to `hetscale report`"},
    FileKind{"hetscale.sweep/1", "a scalability sweep (`hetscale scale sweep`)",
             "read it with `hetscale scale fit`, `hetscale scale psi` or `hetscale report`"},
    FileKind{"hetscale.step-costs/1", "the costs of a kernel's steps (`hetscale bench steps`)",
             "give it to `hetscale scale predict --step-costs` or `hetscale report`"},
    FileKind{"hetscale.optimize/1", "an optimizer run (`hetscale optimize --out`)", "read it with `hetscale report`"},
    FileKind{"hetscale.task-log/1", "a task farm's job log", "give it to `hetscale farm --resume`"},
    FileKind{"hetscale.trace/1", "a trace's manifest (`hetscale measure --trace`)",
             "give its folder to `hetscale simulate replay`"},
    FileKind{"hetscale.predict/1", "a prediction (`hetscale predict --json`)", "read it with `hetscale report`"},
    FileKind{"hetscale.analysis/1", "the output of `hetscale analyze --json`",
             "no command reads it back: give the run record itself"},
    FileKind{"hetscale.partition/1", "the output of `hetscale partition --json`", "no command reads it back"},
    FileKind{"hetscale.fpm-view/1", "the output of `hetscale model fpm --json`",
             "no command reads it back: give the speed model itself"},
    FileKind{"hetscale.psi/1", "the output of `hetscale scale psi --json`", "no command reads it back"},
    FileKind{"hetscale.isospeed-prediction/1", "the output of `hetscale scale predict --json`",
             "no command reads it back"},
    FileKind{"hetscale.report/1", "the output of `hetscale report --json`", "no command reads it back"},
};

}  // namespace

const FileKind* file_kind(std::string_view schema) {
  for (const auto& kind : kinds)
    if (kind.schema == schema) return &kind;
  return nullptr;
}

std::string wrong_kind(std::string_view schema, std::string_view expected) {
  const FileKind* given = file_kind(schema);
  const FileKind* wanted = file_kind(expected);
  if (!given) return fmt::format("is \"{}\", expected \"{}\"", schema, expected);
  return fmt::format("this is {} ({}), not {}: {}", given->what, schema,
                     wanted ? std::string(wanted->what) : fmt::format("\"{}\"", expected), given->read_by);
}

}  // namespace hetscale::io

// The kinds of file hetscale writes (io/file_kinds.hpp): a reader given
// another kind names it and what reads it.
#include "hetscale/io/file_kinds.hpp"

#include <gtest/gtest.h>

namespace hetscale::io {
namespace {

TEST(FileKinds, EveryKindSaysWhatItIsAndWhatReadsIt) {
  for (const char* schema : {"hetscale.run/1", "hetscale.fpm/1", "hetscale.platform/1", "hetscale.comm-profile/1",
                             "hetscale.sweep/1", "hetscale.step-costs/1", "hetscale.optimize/1", "hetscale.task-log/1",
                             "hetscale.predict/1", "hetscale.analysis/1", "hetscale.partition/1", "hetscale.trace/1"}) {
    const auto* kind = file_kind(schema);
    ASSERT_NE(kind, nullptr) << schema;
    EXPECT_FALSE(kind->what.empty()) << schema;
    EXPECT_FALSE(kind->read_by.empty()) << schema;
  }
  EXPECT_EQ(file_kind("hetscale.other/1"), nullptr);
}

TEST(FileKinds, AWrongKindNamesBothAndWhereItGoes) {
  EXPECT_EQ(wrong_kind("hetscale.fpm/1", "hetscale.run/1"),
            "this is a speed model (hetscale.fpm/1), not a run record: read it with `hetscale model fpm` or "
            "`hetscale partition`, or give it to `hetscale kernel` as `--distribution fpm:FILE`");
  EXPECT_EQ(wrong_kind("mine/1", "hetscale.run/1"), "is \"mine/1\", expected \"hetscale.run/1\"");
  EXPECT_EQ(wrong_kind("hetscale.run/1", "mine/1"),
            "this is a run record (hetscale.run/1), not \"mine/1\": read it with `hetscale analyze` or `hetscale "
            "report`, or give several to `hetscale predict`");
}

}  // namespace
}  // namespace hetscale::io

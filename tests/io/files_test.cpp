// Files written atomically: the new content whole, or the old file untouched
// and no temporary left behind.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "hetscale/io/files.hpp"
#include "hetscale/io/input_error.hpp"

namespace {

namespace fs = std::filesystem;

class AtomicWrite : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = fs::temp_directory_path() / ("hetscale-files-test-" + std::to_string(::getpid()));
    fs::remove_all(folder_);
    fs::create_directories(folder_);
  }
  void TearDown() override { fs::remove_all(folder_); }
  std::string path(const std::string& name) const { return (folder_ / name).string(); }
  std::size_t entries() const {
    std::size_t count = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(folder_)) ++count;
    return count;
  }
  fs::path folder_;
};

std::string content_of(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST_F(AtomicWrite, ReplacesTheFileWholeAndLeavesNoTemporary) {
  const std::string target = path("run.json");
  hetscale::io::write_file_atomically(target, "old\n");
  const std::string content(1 << 20, 'x');
  hetscale::io::write_file_atomically(target, content);
  EXPECT_EQ(content_of(target), content);
  EXPECT_EQ(entries(), 1u);
}

// The file gets the mode any new file would (0666 less the umask), not the
// temporary's private 0600.
TEST_F(AtomicWrite, TheFileGetsTheUsualModeUnderTheUmask) {
  const mode_t before = ::umask(027);
  const std::string target = path("run.json");
  hetscale::io::write_file_atomically(target, "x");
  ::umask(before);
  const auto permissions = fs::status(target).permissions();
  EXPECT_EQ(permissions & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read);
}

TEST_F(AtomicWrite, AFolderThatDoesNotExistIsBadInputNamingThePath) {
  const std::string target = path("missing/run.json");
  try {
    hetscale::io::write_file_atomically(target, "x");
    FAIL() << "expected InputError";
  } catch (const hetscale::InputError& error) {
    EXPECT_NE(std::string(error.what()).find(target), std::string::npos) << error.what();
  }
}

// Checked before a long run: what write_file_atomically would refuse, refused
// first, naming the path; a file in an existing folder passes and is not made.
TEST_F(AtomicWrite, CheckWritableRefusesWhatCouldNotBeWritten) {
  EXPECT_NO_THROW(hetscale::io::check_writable({path("run.json"), ""}));
  EXPECT_EQ(entries(), 0u);
  for (const std::string target : {path("missing/run.json"), folder_.string()}) {
    try {
      hetscale::io::check_writable({target});
      ADD_FAILURE() << "expected InputError for " << target;
    } catch (const hetscale::InputError& error) {
      EXPECT_NE(std::string(error.what()).find(target), std::string::npos) << error.what();
    }
  }
}

// The write itself fails half-way (the file size limit stops it, as a full
// disk would): the old file is untouched and the temporary is gone.
TEST_F(AtomicWrite, AWriteThatFailsHalfWayLeavesTheOldFile) {
  const std::string target = path("run.json");
  hetscale::io::write_file_atomically(target, "old\n");
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    ::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{4096, 4096};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    try {
      hetscale::io::write_file_atomically(target, std::string(1 << 20, 'y'));
    } catch (const hetscale::InputError&) {
      ::_exit(0);  // refused, as it should be
    }
    ::_exit(1);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "the write past the size limit was not refused";
  EXPECT_EQ(content_of(target), "old\n");
  EXPECT_EQ(entries(), 1u) << "a temporary was left behind";
}

TEST(TemporaryFolder, IsAFreshFolderNamedByItsPrefixAndGoesWithWhatItHolds) {
  std::string path;
  {
    const hetscale::io::TemporaryFolder folder("hetscale-io-test");
    path = folder.path();
    EXPECT_TRUE(fs::is_directory(path));
    EXPECT_EQ(fs::path(path).filename().string().rfind("hetscale-io-test-", 0), 0u) << path;
    const hetscale::io::TemporaryFolder other("hetscale-io-test");
    EXPECT_NE(other.path(), path);
    std::ofstream(fs::path(path) / "inside.txt") << "x";
    fs::create_directories(fs::path(path) / "sub" / "deeper");
  }
  EXPECT_FALSE(fs::exists(path));
}

}  // namespace

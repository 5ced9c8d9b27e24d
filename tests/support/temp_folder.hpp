#pragma once
// A fresh folder of a test's own under the system's temporary folder, with
// the files the test writes into it; removed, with them, at the end.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace hetscale::testing_support {

class TempFolder {
 public:
  TempFolder() {
    std::string pattern = (std::filesystem::temp_directory_path() / "hetscale-test-XXXXXX").string();
    if (mkdtemp(pattern.data()) == nullptr) ADD_FAILURE() << "cannot make a folder like " << pattern;
    folder_ = pattern;
  }
  ~TempFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(folder_, ignored);
  }
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;

  std::string path() const { return folder_.string(); }

  // Writes `text` to the file `name` (folders in it made) in the folder; its path.
  std::string write(const std::string& name, const std::string& text) const {
    const auto path = folder_ / name;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << text;
    return path.string();
  }

 private:
  std::filesystem::path folder_;
};

}  // namespace hetscale::testing_support

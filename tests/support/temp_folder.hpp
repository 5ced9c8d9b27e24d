#pragma once
// A fresh folder of a test's own under the system's temporary folder, with
// the files the test writes into it; removed, with them, at the end.
#include <filesystem>
#include <fstream>
#include <string>

#include "hetscale/io/files.hpp"

namespace hetscale::testing_support {

class TempFolder {
 public:
  std::string path() const { return folder_.path(); }

  // Writes `text` to the file `name` (folders in it made) in the folder; its path.
  std::string write(const std::string& name, const std::string& text) const {
    const auto path = std::filesystem::path(folder_.path()) / name;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream(path) << text;
    return path.string();
  }

 private:
  io::TemporaryFolder folder_{"hetscale-test"};
};

}  // namespace hetscale::testing_support

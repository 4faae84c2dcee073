#include "share_dir.hpp"

#include <cstdlib>

#include "../datagen/base/errors.hpp"
#include "../datagen/base/printable.hpp"

namespace ladder {
namespace fs = std::filesystem;

namespace {

// What makes a folder ladder's share: the configs and the report's script.
bool holds_share(const fs::path& dir) {
  std::error_code ec;
  return fs::is_directory(dir / "configs", ec) && fs::is_regular_file(dir / "plots" / "report.py", ec);
}

// The folder of the running binary (links resolved, so a link on PATH leads to the real
// tree); empty when /proc cannot say.
fs::path binary_dir() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : exe.parent_path();
}

}  // namespace

std::optional<ShareDir> find_share_dir(std::string* why) {
  std::string unused;
  std::string& reason = why ? *why : unused;
  if (const char* env = std::getenv("LADDER_SHARE"); env && *env) {
    if (holds_share(env)) return ShareDir{fs::absolute(env), "LADDER_SHARE"};
    reason = "LADDER_SHARE='" + printable(env, 120) + "' holds no configs/ and plots/report.py";
    return std::nullopt;
  }
  const fs::path bin = binary_dir();
  if (bin.empty()) {
    reason = "cannot tell where this binary is (/proc/self/exe); set LADDER_SHARE";
    return std::nullopt;
  }
  if (const fs::path installed = bin.parent_path() / "share" / "ladder"; holds_share(installed))
    return ShareDir{installed.lexically_normal(), "installed"};
  for (fs::path dir = bin; !dir.empty(); dir = dir.parent_path()) {
    if (holds_share(dir)) return ShareDir{dir, "source tree"};
    if (dir == dir.parent_path()) break;
  }
  reason = "no share/ladder beside '" + printable(bin.string(), 120) +
           "' and no source tree above it; set LADDER_SHARE to the folder holding configs/ and plots/";
  return std::nullopt;
}

ShareDir share_dir() {
  std::string why;
  if (std::optional<ShareDir> found = find_share_dir(&why)) return *found;
  throw InputError(why);
}

std::string resolve_shared_path(const std::string& given) {
  const fs::path p(given);
  std::error_code ec;
  if (given.empty() || p.is_absolute() || fs::exists(fs::symlink_status(p, ec))) return given;
  if (const std::optional<ShareDir> share = find_share_dir()) {
    const fs::path shared = share->path / p;
    if (fs::exists(shared, ec)) return shared.string();
  }
  return given;
}

}  // namespace ladder

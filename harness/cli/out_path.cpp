#include "out_path.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <climits>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "../../datagen/base/errors.hpp"
#include "../../datagen/numbers.hpp"

namespace ladder::cli {
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxNameBytes = 200;  // leaves room for the temporary suffix under 255

std::string quoted(const std::string& path) { return "'" + printable(path, 80) + "'"; }

// Creates and removes a temporary file beside `file`: what an atomic write will need.
void prove_writable(const fs::path& file, const std::string& failure) {
  const std::string probe = file.string() + ".tmp." + std::to_string(::getpid());
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd < 0) throw InputError(failure + ": " + std::strerror(errno));
  ::close(fd);
  ::unlink(probe.c_str());
}

}  // namespace

std::string safe_name(const std::string& name) {
  std::string out;
  for (char c : name.substr(0, 100))
    out += std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_' ? c : '_';
  while (!out.empty() && out.front() == '.') out.front() = '_';
  return out.empty() ? "results" : out;
}

std::string results_target(const std::string& path) {
  if (path.empty()) throw InputError("--out needs a file name");
  if (path.back() == '/') throw InputError("--out " + quoted(path) + " names a directory, not a file");
  if (path.find('\0') != std::string::npos) throw InputError("--out holds a NUL byte");
  std::error_code ec;
  // What the path leads to, links followed by the system (/dev/stdout included).
  const fs::file_status final_status = fs::status(path, ec);
  if (fs::is_directory(final_status)) throw InputError("--out " + quoted(path) + " is a directory");
  if (fs::exists(final_status) && !fs::is_regular_file(final_status))
    throw InputError("--out " + quoted(path) + " is not a regular file (a device, pipe or socket)");
  if (fs::exists(final_status)) {
    const fs::path real = fs::canonical(path, ec);
    if (!ec) return real.string();  // an existing file, possibly through links
  }
  // A new file, perhaps at the end of a dangling link: follow the links to the name to create.
  fs::path target(path);
  for (int hops = 0; fs::is_symlink(target, ec); ++hops) {
    if (hops == 8) throw InputError("--out " + quoted(path) + ": too many levels of links");
    fs::path next = fs::read_symlink(target, ec);
    if (ec) throw InputError("--out " + quoted(path) + ": cannot read link: " + ec.message());
    target = next.is_absolute() ? next : target.parent_path() / next;
  }
  if (target.filename().string().size() > kMaxNameBytes)
    throw InputError("--out " + quoted(path) + ": file name longer than " +
                     std::to_string(kMaxNameBytes) + " bytes");
  const fs::file_status st = fs::status(target, ec);
  if (fs::is_directory(st)) throw InputError("--out " + quoted(path) + " is a directory");
  if (fs::exists(st) && !fs::is_regular_file(st))
    throw InputError("--out " + quoted(path) + " leads to " + quoted(target.string()) +
                     ", which is not a regular file");
  return target.string();
}

void prepare_results_file(const std::string& file) {
  const fs::path parent = fs::path(file).parent_path();
  std::error_code ec;
  if (!parent.empty()) fs::create_directories(parent, ec);
  if (ec)
    throw InputError("cannot create directory " + quoted(parent.string()) + ": " + ec.message());
  // What the atomic write will do at the end, done once now: a run is never lost for want of
  // a writable place.
  prove_writable(file, "cannot write results beside " + quoted(file));
}

void check_dump_dir(const std::string& dir) {
  std::error_code ec;
  if (dir.empty()) throw InputError("--dump-outputs needs a directory name");
  if (dir.find('\0') != std::string::npos) throw InputError("--dump-outputs holds a NUL byte");
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
    throw InputError("--dump-outputs " + quoted(dir) + " exists and is not a directory");
  check_creatable(dir, "--dump-outputs");
  // Dump names are at most 255 bytes (runner.cpp); the whole path must still fit.
  if (fs::absolute(dir, ec).string().size() + 256 >= PATH_MAX)
    throw InputError("--dump-outputs " + quoted(dir) + " is too long a path to write files under");
}

void prepare_dump_dir(const std::string& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw InputError("cannot create --dump-outputs directory " + quoted(dir) + ": " + ec.message());
  prove_writable(fs::path(dir) / "probe", "cannot write outputs into --dump-outputs " + quoted(dir));
}

void check_creatable(const std::string& folder, const std::string& what) {
  std::error_code ec;
  const fs::path wanted = fs::absolute(folder.empty() ? "." : folder, ec);
  fs::path dir = wanted;
  while (!fs::exists(fs::symlink_status(dir, ec)) && dir != dir.parent_path()) dir = dir.parent_path();
  if (!fs::is_directory(dir, ec))
    throw InputError(what + ": " + (dir == wanted ? "" : "cannot create " +
                     quoted(folder) + ": ") + quoted(dir.string()) + " is not a directory");
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    throw InputError(what + ": cannot write in " + quoted(dir.string()) + ": " + std::strerror(errno));
}

void check_out_creatable(const std::string& file) {
  check_creatable(fs::path(file).parent_path().string(), "--out " + quoted(file));
}

void refuse_overwriting(const std::string& output, const std::vector<std::string>& inputs,
                        const std::string& what) {
  std::error_code ec;
  for (const std::string& input : inputs)
    if (fs::equivalent(output, input, ec) && !ec)
      throw InputError(what + " " + quoted(output) + " is the input " + quoted(input) +
                       ": writing it would destroy the input");
}

}  // namespace ladder::cli

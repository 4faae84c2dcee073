#include "atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "errors.hpp"

namespace ladder {
namespace {

// The temporary file being written, if any, so that SIGINT or SIGTERM in the middle of a
// write removes it instead of leaving it behind. Plain storage: the handler may only call
// async-signal-safe functions (unlink, signal, raise).
char g_temp[4096];
volatile std::sig_atomic_t g_writing = 0;
// The handlers installed before ours (e.g. `ladder reproduce`'s), called after the clean-up.
void (*g_previous_int)(int) = nullptr;
void (*g_previous_term)(int) = nullptr;

extern "C" void remove_temp_and_reraise(int sig) {
  if (g_writing) ::unlink(g_temp);
  void (*previous)(int) = sig == SIGINT ? g_previous_int : g_previous_term;
  if (previous) return previous(sig);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

void install_handlers_once() {
  static bool installed = false;
  if (installed) return;
  installed = true;
  for (int sig : {SIGINT, SIGTERM}) {
    struct sigaction old {};
    ::sigaction(sig, nullptr, &old);
    if (old.sa_handler == SIG_IGN) continue;  // a caller that ignores it keeps ignoring it
    if (old.sa_handler != SIG_DFL && !(old.sa_flags & SA_SIGINFO))
      (sig == SIGINT ? g_previous_int : g_previous_term) = old.sa_handler;
    struct sigaction sa {};
    sa.sa_handler = remove_temp_and_reraise;
    sigemptyset(&sa.sa_mask);
    ::sigaction(sig, &sa, nullptr);
  }
}

// The process's umask, read without changing it (umask(2) can only be read by setting it,
// which would race with threads creating files meanwhile); by setting it back at once where
// /proc does not say.
mode_t current_umask() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("Umask:", 0) == 0) return static_cast<mode_t>(std::stoul(line.substr(6), nullptr, 8));
  const mode_t mask = ::umask(022);
  ::umask(mask);
  return mask;
}

}  // namespace

void write_file_atomically(const std::string& path, const std::string& bytes) {
  namespace fs = std::filesystem;
  fs::path target(path);
  std::error_code ec;
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  if (ec) throw InputError("cannot create directory for '" + path + "': " + ec.message());
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  if (tmp.size() >= sizeof g_temp) throw InputError("path too long: '" + path + "'");
  install_handlers_once();
  std::memcpy(g_temp, tmp.c_str(), tmp.size() + 1);
  g_writing = 1;
  // Readable as any file the user makes (0644 under umask 022), whatever mode a temporary file
  // of the same name left behind had: the mode is set, not only asked for at creation.
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  std::FILE* f = fd < 0 ? nullptr : ::fdopen(fd, "wb");
  if (!f || ::fchmod(fd, 0666 & ~current_umask()) != 0) {
    const int err = errno;
    if (f) std::fclose(f);
    else if (fd >= 0) ::close(fd);
    if (fd >= 0) std::remove(tmp.c_str());
    g_writing = 0;
    throw InputError("cannot write '" + path + "': " + std::strerror(err));
  }
  bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  ok = (std::fflush(f) == 0) && ok;
  ok = (::fsync(::fileno(f)) == 0) && ok;
  ok = (std::fclose(f) == 0) && ok;
  const int err = errno;
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    g_writing = 0;
    throw InputError("cannot write '" + path + "': " + std::strerror(ok ? errno : err));
  }
  g_writing = 0;
}

}  // namespace ladder

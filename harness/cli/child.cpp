#include "child.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>

extern char** environ;

namespace ladder::cli {
namespace {

constexpr std::size_t kMaxCaptured = 64 * 1024;

// posix_spawn's file actions and attributes, released whatever happens.
struct Spawn {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  Spawn() {
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attr);
  }
  ~Spawn() {
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
  }
};

// Every signal back to its default action in the child (ladder's Ctrl-C handler is ladder's).
void default_signals(posix_spawnattr_t& attr) {
  sigset_t all;
  sigfillset(&all);
  posix_spawnattr_setsigdefault(&attr, &all);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
}

void drain(int fd, std::string& out) {
  char buf[4096];
  for (;;) {
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    // Keep reading past the cap so that the child never blocks on a full pipe.
    if (out.size() < kMaxCaptured) out.append(buf, static_cast<std::size_t>(n));
  }
}

}  // namespace

ChildResult run_child(const std::vector<std::string>& argv, const ChildOptions& o) {
  ChildResult result;
  if (argv.empty()) return result;
  Spawn s;
  default_signals(s.attr);
  if (!o.cwd.empty()) posix_spawn_file_actions_addchdir_np(&s.actions, o.cwd.c_str());
  int pipe_fds[2] = {-1, -1};
  if (o.capture) {
    if (pipe2(pipe_fds, O_CLOEXEC) != 0) return result;
    posix_spawn_file_actions_adddup2(&s.actions, pipe_fds[1], STDOUT_FILENO);
  } else if (!o.stdout_file.empty()) {
    posix_spawn_file_actions_addopen(&s.actions, STDOUT_FILENO, o.stdout_file.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
  }
  if (o.quiet) posix_spawn_file_actions_addopen(&s.actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t pid = -1;
  const int rc = posix_spawnp(&pid, args[0], &s.actions, &s.attr, args.data(), environ);
  if (o.capture) {
    close(pipe_fds[1]);
    if (rc == 0) drain(pipe_fds[0], result.out);
    close(pipe_fds[0]);
  }
  if (rc != 0) return result;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return result;
  if (WIFEXITED(status)) result.status = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

}  // namespace ladder::cli

#include "child.hpp"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

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


// Our environment with `extra` (NAME=VALUE) added, replacing entries of the same names.
std::vector<std::string> environment(const std::vector<std::string>& extra) {
  std::vector<std::string> out;
  auto named = [](const std::string& e, const char* entry) {
    const std::size_t eq = e.find('=');
    return std::strncmp(entry, e.c_str(), eq + 1) == 0;
  };
  for (char** e = environ; *e; ++e)
    if (std::none_of(extra.begin(), extra.end(), [&](const std::string& x) { return named(x, *e); }))
      out.emplace_back(*e);
  out.insert(out.end(), extra.begin(), extra.end());
  return out;
}

// Starts argv as a child with `o`'s redirections, environment and cores; -1 when it could not
// start. `capture_fd`: the write end of a pipe to make its standard output (-1: none).
pid_t spawn(const std::vector<std::string>& argv, const ChildOptions& o, int capture_fd) {
  if (argv.empty()) return -1;
  Spawn s;
  default_signals(s.attr);
  if (!o.cwd.empty()) posix_spawn_file_actions_addchdir_np(&s.actions, o.cwd.c_str());
  if (capture_fd >= 0) {
    posix_spawn_file_actions_adddup2(&s.actions, capture_fd, STDOUT_FILENO);
  } else if (!o.stdout_file.empty()) {
    posix_spawn_file_actions_addopen(&s.actions, STDOUT_FILENO, o.stdout_file.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0644);
  }
  if (o.quiet) posix_spawn_file_actions_addopen(&s.actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  else if (o.stderr_to_stdout) posix_spawn_file_actions_adddup2(&s.actions, STDOUT_FILENO, STDERR_FILENO);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::vector<std::string> env_text = environment(o.env);
  std::vector<char*> env;
  for (std::string& e : env_text) env.push_back(e.data());
  env.push_back(nullptr);
  std::fflush(stdout);
  std::fflush(stderr);
  // A child inherits the cores of the thread that starts it: this thread takes the child's
  // cores for the moment of the spawn.
  cpu_set_t ours, theirs;
  const bool pin = !o.cpus.empty() && sched_getaffinity(0, sizeof ours, &ours) == 0;
  if (pin) {
    CPU_ZERO(&theirs);
    for (int c : o.cpus) CPU_SET(c, &theirs);
    sched_setaffinity(0, sizeof theirs, &theirs);
  }
  pid_t pid = -1;
  const int rc = posix_spawnp(&pid, args[0], &s.actions, &s.attr, args.data(), env.data());
  if (pin) sched_setaffinity(0, sizeof ours, &ours);
  return rc == 0 ? pid : -1;
}

}  // namespace

int start_child(const std::vector<std::string>& argv, const ChildOptions& o) { return spawn(argv, o, -1); }

ChildState wait_child(int pid, bool block) {
  ChildState state;
  int status = 0;
  for (;;) {
    const pid_t got = waitpid(pid, &status, block ? 0 : WNOHANG);
    if (got == 0) return {true, {}};
    if (got == pid) break;
    if (errno != EINTR) return state;
  }
  if (WIFEXITED(status)) state.result.status = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) state.result.signal = WTERMSIG(status);
  return state;
}

ChildResult run_child(const std::vector<std::string>& argv, const ChildOptions& o) {
  ChildResult result;
  int pipe_fds[2] = {-1, -1};
  if (o.capture && pipe2(pipe_fds, O_CLOEXEC) != 0) return result;
  const pid_t pid = spawn(argv, o, o.capture ? pipe_fds[1] : -1);
  if (o.capture) {
    close(pipe_fds[1]);
    if (pid > 0) drain(pipe_fds[0], result.out);
    close(pipe_fds[0]);
  }
  if (pid <= 0) return result;
  const std::string out = std::move(result.out);
  result = wait_child(pid, true).result;
  result.out = out;
  return result;
}

}  // namespace ladder::cli

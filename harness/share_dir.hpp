// Where ladder finds what it runs beside the binary: configs/, plots/ (the figures and
// REPORT.md), peers/ and scripts/. Found from where the binary is, never from a path compiled
// into it, so that a build tree, an installed tree and a copied or unpacked one all work:
//   1. $LADDER_SHARE, when set (a folder holding configs/ and plots/report.py);
//   2. <the binary's folder>/../share/ladder, an installed tree (`cmake --install`, the .deb,
//      the .tar.gz, a container);
//   3. the nearest folder above the binary holding configs/ and plots/report.py: the source
//      tree of a build tree inside it (build/ladder).
// What ladder writes never goes there: outputs are relative to the working directory.
#pragma once
#include <filesystem>
#include <optional>
#include <string>

namespace ladder {

// The folder, and how it was found ("LADDER_SHARE", "installed", "source tree").
struct ShareDir {
  std::filesystem::path path;
  std::string how;
};

// The share folder, or nullopt with `why` saying where it was looked for. A LADDER_SHARE that
// is set but does not hold configs/ and plots/report.py is not skipped: `why` says so.
std::optional<ShareDir> find_share_dir(std::string* why = nullptr);

// The share folder; InputError (one line, where it looked and how to say where it is) when
// there is none.
ShareDir share_dir();

// A path given on the command line, as it is read: `given` itself when it is absolute or
// exists from the working directory, else the same relative path under the share folder when
// it exists there (`ladder run configs/dtw/smoke.json` from any folder), else `given`
// unchanged (whose error the reader reports as it always has).
std::string resolve_shared_path(const std::string& given);

}  // namespace ladder

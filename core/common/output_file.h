#pragma once
// The output-file rule: how every command, export and save writes a file it was given a name for.
//
// - "-" is standard output.
// - /dev/stdout, /dev/stderr, /dev/fd/N and /proc/self/fd/N are written to that open descriptor of
//   this process, at its current offset (a pipe from `>(jq .)`, a redirected stdout).
// - A new path or a regular file is written atomically: a temporary file in the target's folder,
//   fsync, rename over the target. Any failure leaves the old file as it was and removes the
//   temporary file. The old file's permission bits (and, as root, its owner) are kept.
// - Anything else that exists (a character or block device, a FIFO, a Unix socket) is opened and
//   written in place, never renamed over or unlinked.
// - A directory is an error.
//
// Symbolic links are followed, so a link to a regular file keeps pointing there and its target
// gets the new content; a dangling link creates its target. Why: an atomic write is right for a
// regular file and wrong for anything else (as root it replaced /dev/null with a regular file).
// Errors name the path and the reason ("out.json: cannot write file (No space left on device)").
#include <functional>
#include <string>
#include <string_view>

#include "common/status.h"

namespace slimpack {

// What a path names, as the rule sees it (symbolic links followed).
enum class OutputTarget {
  Stdout,       // "-"
  Descriptor,   // /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N
  NewFile,      // nothing there yet: created atomically
  RegularFile,  // replaced atomically
  InPlace,      // device, FIFO or socket: written in place
  Directory,    // refused
};

// Classifies a path without writing (for messages and tests); errors name the path.
Expected<OutputTarget> classify_output(const std::string& path);

// Where a writer puts its bytes: the temporary file, the device, the pipe or the descriptor.
class OutputSink {
 public:
  virtual ~OutputSink() = default;
  // Writes all bytes (retrying short writes); the error names the path and the reason.
  virtual Status write(std::string_view bytes) = 0;
};

// Produces the content. An error from it (or from the sink) abandons the write: a regular file
// keeps its old content.
using OutputWriter = std::function<Status(OutputSink&)>;

Status write_output_file(const std::string& path, std::string_view contents);
Status write_output_file(const std::string& path, const OutputWriter& writer);

}  // namespace slimpack

#pragma once
// The output-file rule: how every command, export and save writes a file it was given a name for.
//
//   "-"                                   standard output
//   /dev/stdout, /dev/stderr, /dev/fd/N,  written to that open descriptor of this process, at its
//   /proc/self/fd/N                       current offset (a pipe from `>(jq .)`, a redirected
//   stdout) a new path, a regular file            atomically: a temporary file in the target's
//   directory,
//                                         fsync, rename over the target; any failure leaves the old
//                                         file as it was and removes the temporary file. The old
//                                         file's permission bits (and, as root, owner) are kept.
//   anything else that exists             opened and written in place (character or block device,
//   (device, FIFO, socket)                FIFO, Unix socket), never renamed over or unlinked
//   a directory                           an error
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

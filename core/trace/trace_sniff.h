#pragma once
// Is this file a Chrome Trace Event / Kineto / PyTorch profiler trace? The explorer asks before
// it hands a file to the length/plan/session loaders, so that a trace opens as a trace. Cheap: a
// name test, else at most the first 64 KiB of the file; the real parse (trace_import.h) decides
// whether the file is any good.
#include <string>
#include <string_view>

namespace slimpack {

// True for "*.json.gz" and "*.pt.trace.json" by name; for another file when its text starts (after
// white space and a UTF-8 byte order mark) with '[' (a bare event array), or is an object with a
// "traceEvents" key within its first 64 KiB. A file that cannot be read is not a trace (the
// ordinary loader then reports why it cannot be read).
bool looks_like_trace(const std::string& path);

// The same test on the first bytes of a file's text (exposed for tests).
bool looks_like_trace_text(std::string_view head);

// The rank a trace file's name gives: the digits after "rank" ("rank3", "rank_3", "rank-3"), else
// the last run of digits right before ".pt.trace.json", ".json.gz" or ".json" when a '_' or '-'
// precedes it ("worker_3.pt.trace.json"); -1 when the name says nothing.
int rank_from_file_name(const std::string& path);

}  // namespace slimpack

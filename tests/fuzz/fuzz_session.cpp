// Session files (.slimpack): the Qt-free reader of ui/window/session_file.cpp, compiled into this
// target without Qt. A session that reads must write back and read again unchanged.
#include "app/session_file.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace slimpack;
  auto session = session_from_json(fuzz::as_text(data, size), "fuzz.slimpack");
  fuzz::require_message(session, "session: error without message");
  if (!session) return 0;
  const std::string written = session_to_json(*session);
  auto again = session_from_json(written, "fuzz.slimpack");
  fuzz::require(again.ok(), "session: its own JSON does not read back");
  fuzz::require(*again == *session, "session: round trip changed it");
  return 0;
}

#pragma once
// Checks what a session refers to before the window applies it: its length file or preset and
// batch, its cost model (model, GPU, parallelism, cost files) and its plan file. Qt-free. A
// session that reads but points at a missing or broken file is refused as a whole, so opening it
// changes nothing (the session already open is kept), as for any other bad file.
#include "app/session_file.h"
#include "common/status.h"

namespace slimpack::ui {

// Errors read "<source>: $.workload: <the reader's error, naming its file>" (or $.config,
// $.plan_file). Reads the files the session names: small ones in practice (lengths, plan, costs).
Status check_session_inputs(const SessionFile& session, const std::string& source);

}  // namespace slimpack::ui

#pragma once
// Where the explorer finds the files it ships with: the sample inputs and the documentation.
#include <QString>

namespace slimpack::ui {

// The folder of bundled samples (lengths/, plans/, costs/, traces/), or empty when none is found.
// Looked up in this order: $SLIMPACK_DATA_DIR/samples; the installed layout next to the executable
// (<prefix>/bin/../share/slimpack-explorer/samples, so a relocated prefix still works); the source
// tree the program was built from (running from a build directory).
QString samplesDirectory();

// The folder holding the user guide and the other docs (installed: <prefix>/share/doc/
// slimpack-explorer; build tree: <source>/docs), or empty when none is found.
QString docsDirectory();

}  // namespace slimpack::ui

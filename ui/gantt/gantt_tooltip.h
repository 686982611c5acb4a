#pragma once
// Tooltip text of a Gantt bar: pack, lane, time span, tokens, segments "id[begin:end)", memory.
#include <QString>

#include "render/gantt_model.h"

namespace slimpack {

// Rich text (HTML) for QToolTip. At most `max_segments` segments are listed, then "+N more".
QString gantt_tooltip(const GanttModel& model, BarRef ref, int max_segments = 12);

}  // namespace slimpack

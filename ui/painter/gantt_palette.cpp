#include "painter/gantt_palette.h"

#include <algorithm>

namespace slimpack {
namespace {

QColor mix(const QColor& a, const QColor& b, double t) {
  const double u = std::clamp(t, 0.0, 1.0);
  return QColor::fromRgbF(static_cast<float>(a.redF() * u + b.redF() * (1 - u)),
                          static_cast<float>(a.greenF() * u + b.greenF() * (1 - u)),
                          static_cast<float>(a.blueF() * u + b.blueF() * (1 - u)));
}

}  // namespace

GanttPalette GanttPalette::make(GanttTheme theme) {
  GanttPalette p;
  switch (theme) {
    case GanttTheme::Light:
      p.background = QColor(0xff, 0xff, 0xff);
      p.label_background = QColor(0xf3, 0xf4, 0xf6);
      p.text = QColor(0x1f, 0x23, 0x28);
      p.text_dim = QColor(0x5f, 0x66, 0x70);
      p.grid = QColor(0xe3, 0xe6, 0xea);
      p.lane_separator = QColor(0xc9, 0xce, 0xd6);
      p.forward[0] = QColor(0x2f, 0x6f, 0xd0);
      p.forward[1] = QColor(0x5a, 0x93, 0xe6);
      p.backward[0] = QColor(0xe0, 0x6c, 0x1f);
      p.backward[1] = QColor(0xf2, 0x96, 0x4e);
      p.bar_text = QColor(0xff, 0xff, 0xff);
      p.sync = QColor(0x7d, 0x86, 0x91);
      p.bubble_tint = QColor(0xf6, 0xd8, 0xd8);
      p.highlight = QColor(0x1b, 0xa3, 0x4a);
      p.highlight_outline = QColor(0x0b, 0x5e, 0x28);
      p.hover_outline = QColor(0x11, 0x11, 0x11);
      p.memory_fill = QColor(0x8e, 0x6b, 0xc9, 0x90);
      p.memory_line = QColor(0x5b, 0x3d, 0x99);
      p.metrics_background = QColor(0xf3, 0xf4, 0xf6);
      break;
    case GanttTheme::Dark:
      p.background = QColor(0x1e, 0x1f, 0x22);
      p.label_background = QColor(0x2a, 0x2c, 0x30);
      p.text = QColor(0xe6, 0xe8, 0xeb);
      p.text_dim = QColor(0xa0, 0xa6, 0xae);
      p.grid = QColor(0x33, 0x36, 0x3b);
      p.lane_separator = QColor(0x45, 0x49, 0x50);
      p.forward[0] = QColor(0x3d, 0x82, 0xe8);
      p.forward[1] = QColor(0x6b, 0xa3, 0xf2);
      p.backward[0] = QColor(0xe8, 0x7a, 0x2e);
      p.backward[1] = QColor(0xf5, 0xa2, 0x62);
      p.bar_text = QColor(0x10, 0x10, 0x12);
      p.sync = QColor(0x8a, 0x92, 0x9c);
      p.bubble_tint = QColor(0x4a, 0x26, 0x2a);
      p.highlight = QColor(0x4c, 0xd9, 0x7b);
      p.highlight_outline = QColor(0xc8, 0xff, 0xd8);
      p.hover_outline = QColor(0xff, 0xff, 0xff);
      p.memory_fill = QColor(0xb3, 0x92, 0xf0, 0x90);
      p.memory_line = QColor(0xd0, 0xb8, 0xff);
      p.metrics_background = QColor(0x2a, 0x2c, 0x30);
      break;
    case GanttTheme::HighContrast:
      p.background = QColor(0xff, 0xff, 0xff);
      p.label_background = QColor(0xff, 0xff, 0xff);
      p.text = QColor(0x00, 0x00, 0x00);
      p.text_dim = QColor(0x00, 0x00, 0x00);
      p.grid = QColor(0xbb, 0xbb, 0xbb);
      p.lane_separator = QColor(0x00, 0x00, 0x00);
      p.forward[0] = QColor(0x00, 0x3c, 0xc8);
      p.forward[1] = QColor(0x00, 0x5a, 0xff);
      p.backward[0] = QColor(0xd8, 0x4a, 0x00);
      p.backward[1] = QColor(0xff, 0x78, 0x00);
      p.bar_text = QColor(0xff, 0xff, 0xff);
      p.sync = QColor(0x40, 0x40, 0x40);
      p.bubble_tint = QColor(0xff, 0xc8, 0xc8);
      p.highlight = QColor(0x00, 0xa0, 0x30);
      p.highlight_outline = QColor(0x00, 0x00, 0x00);
      p.hover_outline = QColor(0x00, 0x00, 0x00);
      p.memory_fill = QColor(0x70, 0x30, 0xb0, 0xb0);
      p.memory_line = QColor(0x40, 0x00, 0x80);
      p.metrics_background = QColor(0xee, 0xee, 0xee);
      break;
  }
  return p;
}

QColor GanttPalette::fold(double forward_share) const {
  return mix(forward[0], backward[0], forward_share).darker(115);
}

}  // namespace slimpack

#include "window/theme.h"

#include <QApplication>
#include <QStyle>
#include <QStyleFactory>
#include <memory>

namespace slimpack::ui {

QPalette lightPalette() {
  const std::unique_ptr<QStyle> fusion(QStyleFactory::create("Fusion"));
  QPalette p = fusion ? fusion->standardPalette() : QPalette();
  p.setColor(QPalette::Highlight, QColor(0x2f, 0x6f, 0xb5));
  return p;
}

QPalette darkPalette() {
  QPalette p;
  const QColor window(0x2b, 0x2f, 0x36), base(0x1f, 0x23, 0x29), text(0xe4, 0xe7, 0xeb);
  p.setColor(QPalette::Window, window);
  p.setColor(QPalette::WindowText, text);
  p.setColor(QPalette::Base, base);
  p.setColor(QPalette::AlternateBase, window);
  p.setColor(QPalette::ToolTipBase, base);
  p.setColor(QPalette::ToolTipText, text);
  p.setColor(QPalette::Text, text);
  p.setColor(QPalette::Button, window);
  p.setColor(QPalette::ButtonText, text);
  p.setColor(QPalette::BrightText, Qt::white);
  p.setColor(QPalette::Link, QColor(0x6c, 0xb4, 0xf0));
  p.setColor(QPalette::Highlight, QColor(0x3d, 0x7e, 0xc6));
  p.setColor(QPalette::HighlightedText, Qt::white);
  p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0xa5, 0xb1));
  for (auto role : {QPalette::Text, QPalette::WindowText, QPalette::ButtonText})
    p.setColor(QPalette::Disabled, role, QColor(0x7b, 0x84, 0x8e));
  return p;
}

QPalette highContrastPalette() {
  QPalette p;
  p.setColor(QPalette::Window, Qt::black);
  p.setColor(QPalette::WindowText, Qt::white);
  p.setColor(QPalette::Base, Qt::black);
  p.setColor(QPalette::Text, Qt::white);
  p.setColor(QPalette::Button, Qt::black);
  p.setColor(QPalette::ButtonText, Qt::white);
  p.setColor(QPalette::Highlight, QColor(0xff, 0xd4, 0x00));
  p.setColor(QPalette::HighlightedText, Qt::black);
  return p;
}

void applyTheme(const QString& theme) {
  QApplication::setStyle(QStyleFactory::create("Fusion"));
  QApplication::setPalette(theme == "dark" ? darkPalette() : lightPalette());
}

GanttTheme ganttTheme(const QString& theme) {
  return theme == "dark" ? GanttTheme::Dark : GanttTheme::Light;
}

}  // namespace slimpack::ui

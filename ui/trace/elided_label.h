#pragma once
// A one-line label that paints as much of its text as its width allows, elided in the middle (a
// long file name keeps its start and its end), and never asks for more width than a few
// characters: a long title must not widen the window or squeeze its docks. text() stays whole.
#include <QLabel>

namespace slimpack::ui {

class ElidedLabel : public QLabel {
  Q_OBJECT

 public:
  explicit ElidedLabel(QWidget* parent = nullptr);
  QSize minimumSizeHint() const override;
  QSize sizeHint() const override;
  // What is painted at the current width.
  QString shownText() const;

 protected:
  void paintEvent(QPaintEvent* event) override;
};

}  // namespace slimpack::ui

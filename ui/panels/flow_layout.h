#pragma once
// FlowLayout: a row of widgets that wraps into further rows when it is narrower than its items,
// as words wrap in a paragraph (Qt's Flow Layout example). Every item keeps its size hint, so a
// narrow window never cuts a button's label ("pen Traces." for "Open Traces…"); the layout asks
// for the height its rows need at the width it gets (heightForWidth). Used by bars of buttons
// that must fit a laptop screen beside the docks (the Traces tab's).
#include <QLayout>
#include <QList>

namespace slimpack::ui {

class FlowLayout : public QLayout {
 public:
  explicit FlowLayout(QWidget* parent = nullptr);
  ~FlowLayout() override;

  void addItem(QLayoutItem* item) override;
  int count() const override { return static_cast<int>(items_.size()); }
  QLayoutItem* itemAt(int index) const override;
  QLayoutItem* takeAt(int index) override;
  Qt::Orientations expandingDirections() const override { return {}; }
  bool hasHeightForWidth() const override { return true; }
  int heightForWidth(int width) const override;
  QSize minimumSize() const override;
  QSize sizeHint() const override;
  void setGeometry(const QRect& rect) override;

 private:
  // Lays the items out in `rect` (only measures when `apply` is false); returns the height used.
  int arrange(const QRect& rect, bool apply) const;
  // The gap between items: the layout's spacing, else the style's.
  int spacing(Qt::Orientation orientation) const;
  int spacingX() const { return spacing(Qt::Horizontal); }
  int spacingY() const { return spacing(Qt::Vertical); }
  using QLayout::spacing;

  QList<QLayoutItem*> items_;
};

}  // namespace slimpack::ui

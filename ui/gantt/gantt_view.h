#pragma once
// GanttView: the custom-painted Gantt widget (STYLE point 8). It shows an immutable GanttModel
// snapshot; replacing the snapshot is the only way the data changes.
//
// Interaction:
//  - wheel zooms keeping the time under the cursor fixed; Shift+wheel or a horizontal wheel pans;
//    left-drag pans; keys + / - zoom around the cursor (or the centre), 0 fits, Left/Right pan.
//  - hovering a bar outlines it and highlights every bar, on every stage and in forward and
//    backward, that holds a slice of the longest sequence of the hovered pack.
//  - click pins that highlight; Shift+click on a bar of the same pack cycles through the pack's
//    sequences (longest first); click on empty space or Escape unpins (while no job runs: the
//    main window takes Escape to cancel it).
//  - a legend row on top says what colours and stripes mean and names the highlighted sequence.
//  - tooltip: pack, stage, time span, tokens, segments "id[begin:end)", memory.
// Caching: layout, draw lists and a base pixmap are built per (model, options, visible range,
// size); hover and highlight are painted as an overlay on the cached pixmap and never rebuild them.
#include <QPixmap>
#include <QWidget>
#include <memory>
#include <optional>

#include "painter/gantt_painter.h"
#include "render/gantt_model.h"

namespace slimpack {

class GanttView : public QWidget {
  Q_OBJECT

 public:
  explicit GanttView(QWidget* parent = nullptr);
  ~GanttView() override;

  // Replaces the snapshot. With `keep_view` the visible range stays when the user zoomed or panned
  // (e.g. a live re-solve); a view that was fitted, or one without `keep_view` or without a model,
  // fits the new model. A null model shows a placeholder.
  void setModel(std::shared_ptr<const GanttModel> model, bool keep_view = false);
  const std::shared_ptr<const GanttModel>& model() const { return model_; }

  // Paint options (theme, memory strip, bubble tint, labels, label width, fonts...). Title, legend
  // and metrics are normally off in the widget. The widget's font is used when options.font is
  // left default.
  void setPaintOptions(const GanttPaintOptions& options);
  const GanttPaintOptions& paintOptions() const { return options_; }
  void setTheme(GanttTheme theme);
  void setMemoryStripVisible(bool on);
  void setBubbleTint(bool on);
  // The legend row on top (on by default; it also names the highlighted sequence).
  void setLegendVisible(bool on);
  // Rows share the widget's height up to this many pixels each (presentation mode lifts it).
  void setMaxLaneHeight(int px);
  // A common label column width makes stacked views (comparisons) share the time->x mapping.
  void setLabelWidth(int px);
  // Label width this view needs for its own lanes with the current font.
  int naturalLabelWidth() const;

  TimeRange viewRange() const { return range_; }
  // True while the view shows the whole iteration (after fitToWindow, until a zoom or pan).
  bool isFitted() const { return fitted_; }
  // The current time->pixel mapping and layout (widget coordinates).
  TimeScale timeScale() const;
  GanttLayout currentLayout() const;

  // The bar under a widget position (invalid when none), by binary search.
  BarRef barAt(QPoint pos) const;
  BarRef hoveredBar() const { return hovered_; }
  // The sequence highlighted now: pinned if any, else the one of the hovered bar, else -1.
  SeqIndex highlightedSequence() const;
  SeqIndex pinnedSequence() const { return pinned_; }

  // Diagnostics: paint time of the last frame and how often geometry was rebuilt.
  double lastFrameMs() const { return last_frame_ms_; }
  // The model the last frame painted (null before any), for the slider-to-paint benchmark.
  const GanttModel* paintedModel() const { return painted_model_; }
  int geometryBuilds() const { return geometry_builds_; }

  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

 public slots:
  void setViewRange(double t0, double t1);
  void fitToWindow();
  // factor > 1 zooms in; `anchor` is the time that stays at its pixel.
  void zoomBy(double factor, double anchor);
  // Pins a highlight (-1 clears), e.g. to mirror another view's selection.
  void setHighlightedSequence(int seq);
  // No highlight at all: unpins, and forgets the hovered bar (a saved view without a sequence).
  void clearHighlight() {
    hovered_ = {};
    setHighlightedSequence(-1);
  }

 signals:
  void viewChanged(double t0, double t1);
  void modelChanged();
  void sequenceHighlighted(int seq);  // -1 when cleared
  void barClicked(int lane, int bar);

 protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void wheelEvent(QWheelEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;
  void leaveEvent(QEvent* event) override;
  void keyPressEvent(QKeyEvent* event) override;
  void changeEvent(QEvent* event) override;
  bool event(QEvent* event) override;

 private:
  void invalidate();  // options, model or size changed: rebuild layout and geometry
  void ensureGeometry() const;
  void setHovered(BarRef ref);
  void emitHighlightIfChanged();
  void clickBar(BarRef ref, bool cycle);
  // Moves the view by dt (the model's time unit), keeping its span: wheel and arrow keys.
  void panBy(double dt) { setViewRange(range_.t0 + dt, range_.t1 + dt); }
  double minSpan() const;
  TimeRange fitRange() const;
  GanttPaintOptions effectiveOptions() const;

  std::shared_ptr<const GanttModel> model_;
  GanttPaintOptions options_;
  bool font_from_widget_ = true;
  TimeRange range_{0.0, 1.0};
  bool fitted_ = true;
  BarRef hovered_;
  SeqIndex pinned_ = -1;
  BarRef pinned_bar_;  // the bar whose pack Shift+click cycles through
  int cycle_index_ = 0;
  SeqIndex last_emitted_ = -1;
  std::optional<QPoint> press_pos_;
  TimeRange press_range_;
  bool dragging_ = false;

  // Caches (mutable: rebuilt lazily from const accessors and paintEvent).
  mutable std::unique_ptr<GanttPainter> painter_;
  mutable GanttLayout layout_;
  mutable GanttGeometry geometry_;
  mutable QPixmap base_;
  mutable bool layout_valid_ = false;
  mutable bool geometry_valid_ = false;
  mutable bool base_valid_ = false;
  mutable int geometry_builds_ = 0;
  double last_frame_ms_ = 0.0;
  const GanttModel* painted_model_ = nullptr;
};

}  // namespace slimpack

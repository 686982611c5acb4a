#include "gantt/gantt_view.h"

#include <QElapsedTimer>
#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>

#include "gantt/gantt_tooltip.h"

namespace slimpack {
namespace {

constexpr double kWheelZoomPerNotch = 1.25;
constexpr double kKeyZoom = 1.5;
constexpr double kPanFraction = 0.1;
constexpr int kDragThresholdPx = 3;
// Taller than an export's rows: on screen the memory strip under the bars needs room.
constexpr int kWidgetMaxLaneHeight = 160;

}  // namespace

GanttView::GanttView(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setFocusPolicy(Qt::StrongFocus);
  setAttribute(Qt::WA_OpaquePaintEvent);
  options_.font = font();
  options_.max_lane_height = kWidgetMaxLaneHeight;
  // On screen too: what the colours, stripes and the memory strip mean (the header row also
  // names the highlighted sequence).
  options_.legend = true;
}

GanttView::~GanttView() = default;

QSize GanttView::sizeHint() const {
  const int lanes = model_ ? model_->lane_count() : 4;
  return {900, 60 + 28 * std::max(1, lanes)};
}

QSize GanttView::minimumSizeHint() const {
  return {200, 80};
}

GanttPaintOptions GanttView::effectiveOptions() const {
  GanttPaintOptions o = options_;
  if (font_from_widget_) o.font = font();
  return o;
}

void GanttView::setModel(std::shared_ptr<const GanttModel> model, bool keep_view) {
  const bool had_model = static_cast<bool>(model_);
  model_ = std::move(model);
  hovered_ = {};
  pinned_bar_ = {};
  if (!model_ || pinned_ >= model_->sequence_count() || !keep_view) pinned_ = -1;
  invalidate();
  // A fitted view follows what arrives; a zoomed one keeps the user's range while it still shows
  // part of the new iteration: moved back inside when it runs past the new end, fitted when it
  // lies wholly past it or is as wide as the whole (a shorter result after Reset to Defaults).
  if (model_ && (!keep_view || !had_model || fitted_)) {
    fitToWindow();
  } else if (model_) {
    const TimeRange fit = fitRange();
    if (range_.t0 >= fit.t1 || range_.t1 <= fit.t0 || range_.span() >= fit.span()) {
      fitToWindow();
    } else if (range_.t1 > fit.t1) {
      setViewRange(fit.t1 - range_.span(), fit.t1);
    } else {
      setViewRange(range_.t0, range_.t1);  // recomputes whether it is now the whole
    }
  }
  emitHighlightIfChanged();
  updateGeometry();
  emit modelChanged();
}

void GanttView::setPaintOptions(const GanttPaintOptions& options) {
  options_ = options;
  font_from_widget_ = options.font == QFont();
  invalidate();
}

void GanttView::setTheme(GanttTheme theme) {
  options_.theme = theme;
  invalidate();
}

void GanttView::setMemoryStripVisible(bool on) {
  options_.memory_strip = on;
  invalidate();
}

void GanttView::setLegendVisible(bool on) {
  options_.legend = on;
  invalidate();
}

void GanttView::setBubbleTint(bool on) {
  options_.bubble_tint = on;
  invalidate();
}

void GanttView::setMaxLaneHeight(int px) {
  options_.max_lane_height = std::max(options_.min_lane_height, px);
  invalidate();
}

void GanttView::setLabelWidth(int px) {
  options_.label_width = px;
  invalidate();
}

int GanttView::naturalLabelWidth() const {
  return model_ ? natural_label_width(*model_, QFontMetrics(effectiveOptions().font)) : 0;
}

void GanttView::invalidate() {
  painter_.reset();
  layout_valid_ = geometry_valid_ = base_valid_ = false;
  update();
}

void GanttView::ensureGeometry() const {
  if (!model_) return;
  if (!painter_) {
    painter_ = std::make_unique<GanttPainter>(*model_, effectiveOptions());
    layout_valid_ = false;
  }
  if (!layout_valid_) {
    layout_ = painter_->layout(rect());
    layout_valid_ = true;
    geometry_valid_ = false;
  }
  if (!geometry_valid_) {
    geometry_ = painter_->geometry(layout_, range_);
    geometry_valid_ = true;
    base_valid_ = false;
    ++geometry_builds_;
  }
}

TimeScale GanttView::timeScale() const {
  ensureGeometry();
  return model_ ? geometry_.scale : TimeScale(range_, 0, std::max(1, width()));
}

GanttLayout GanttView::currentLayout() const {
  ensureGeometry();
  return layout_;
}

BarRef GanttView::barAt(QPoint pos) const {
  if (!model_) return {};
  ensureGeometry();
  return painter_->hit(layout_, geometry_, pos);
}

SeqIndex GanttView::highlightedSequence() const {
  if (pinned_ >= 0) return pinned_;
  if (!model_ || !hovered_.valid()) return -1;
  const auto seqs = model_->pack_sequences(hovered_);
  return seqs.empty() ? -1 : seqs.front();
}

double GanttView::minSpan() const {
  const double extent = model_ ? model_->time_extent().span() : 1.0;
  return std::max(extent * 1e-9, 1e-15);
}

TimeRange GanttView::fitRange() const {
  const TimeRange e = model_ ? model_->time_extent() : TimeRange{0.0, 1.0};
  // A small margin on the right so the last bar does not touch the edge.
  return {e.t0, e.t1 + e.span() * 0.01};
}

void GanttView::setViewRange(double t0, double t1) {
  if (!std::isfinite(t0) || !std::isfinite(t1) || !(t1 > t0)) return;
  const double extent = model_ ? model_->time_extent().span() : 1.0;
  const double max_span = extent * 20.0;
  if (t1 - t0 > max_span) {
    const double mid = 0.5 * (t0 + t1);
    t0 = mid - max_span / 2;
    t1 = mid + max_span / 2;
  }
  const TimeRange next{t0, t1};
  const TimeRange fit = fitRange();
  const double tol = fit.span() * 1e-9;
  fitted_ = model_ && std::abs(next.t0 - fit.t0) <= tol && std::abs(next.t1 - fit.t1) <= tol;
  if (next == range_) return;
  range_ = next;
  geometry_valid_ = base_valid_ = false;
  update();
  emit viewChanged(range_.t0, range_.t1);
}

void GanttView::fitToWindow() {
  if (!model_) return;
  const TimeRange f = fitRange();
  setViewRange(f.t0, f.t1);
  fitted_ = true;
}

void GanttView::zoomBy(double factor, double anchor) {
  if (!(factor > 0.0)) return;
  const double span = range_.span() / factor;
  if (span < minSpan()) factor = range_.span() / minSpan();
  const TimeRange r = zoom_range(range_, factor, anchor);
  setViewRange(r.t0, r.t1);
}

void GanttView::setHighlightedSequence(int seq) {
  pinned_ = model_ && seq >= 0 && seq < model_->sequence_count() ? seq : -1;
  pinned_bar_ = {};
  cycle_index_ = 0;
  update();
  emitHighlightIfChanged();
}

void GanttView::emitHighlightIfChanged() {
  const SeqIndex now = highlightedSequence();
  if (now == last_emitted_) return;
  last_emitted_ = now;
  emit sequenceHighlighted(now);
}

void GanttView::setHovered(BarRef ref) {
  if (ref == hovered_) return;
  hovered_ = ref;
  update();  // overlay only: the geometry and the base pixmap stay
  emitHighlightIfChanged();
}

void GanttView::clickBar(BarRef ref, bool cycle) {
  const auto seqs = model_->pack_sequences(ref);
  if (seqs.empty()) {
    pinned_ = -1;
  } else {
    const bool same_pack = pinned_bar_.valid() &&
                           std::find(seqs.begin(), seqs.end(), pinned_) != seqs.end() &&
                           model_->bar(pinned_bar_).pack == model_->bar(ref).pack &&
                           model_->bar(pinned_bar_).kind == model_->bar(ref).kind;
    cycle_index_ = cycle && same_pack ? (cycle_index_ + 1) % static_cast<int>(seqs.size()) : 0;
    pinned_ = seqs[static_cast<std::size_t>(cycle_index_)];
  }
  pinned_bar_ = ref;
  update();
  emit barClicked(ref.lane, ref.bar);
  emitHighlightIfChanged();
}

void GanttView::paintEvent(QPaintEvent*) {
  QElapsedTimer timer;
  timer.start();
  QPainter p(this);
  if (!model_) {
    const GanttPalette pal = GanttPalette::make(options_.theme);
    p.fillRect(rect(), pal.background);
    p.setPen(pal.text_dim);
    p.drawText(rect(), Qt::AlignCenter, tr("No schedule yet"));
    return;
  }
  ensureGeometry();
  if (!base_valid_) {
    const qreal dpr = devicePixelRatioF();
    base_ = QPixmap((QSizeF(size()) * dpr).toSize());
    base_.setDevicePixelRatio(dpr);
    QPainter bp(&base_);
    painter_->paint_base(bp, layout_, geometry_);
    base_valid_ = true;
  }
  p.drawPixmap(0, 0, base_);
  painter_->paint_overlay(p, layout_, geometry_, highlightedSequence(), hovered_);
  last_frame_ms_ = static_cast<double>(timer.nsecsElapsed()) / 1e6;
  painted_model_ = model_.get();
}

void GanttView::resizeEvent(QResizeEvent*) {
  layout_valid_ = geometry_valid_ = base_valid_ = false;
}

void GanttView::changeEvent(QEvent* event) {
  if (event->type() == QEvent::FontChange && font_from_widget_) invalidate();
  QWidget::changeEvent(event);
}

void GanttView::wheelEvent(QWheelEvent* event) {
  if (!model_) return;
  const QPoint ad = event->angleDelta();
  const TimeScale scale = timeScale();
  if ((event->modifiers() & Qt::ShiftModifier) || std::abs(ad.x()) > std::abs(ad.y())) {
    const int delta = ad.x() != 0 ? ad.x() : ad.y();
    panBy(-delta / 120.0 * kPanFraction * range_.span());
  } else if (ad.y() != 0) {
    zoomBy(std::pow(kWheelZoomPerNotch, ad.y() / 120.0), scale.t_of(event->position().x()));
  }
  event->accept();
}

void GanttView::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton || !model_) return QWidget::mousePressEvent(event);
  press_pos_ = event->position().toPoint();
  press_range_ = range_;
  dragging_ = false;
}

void GanttView::mouseMoveEvent(QMouseEvent* event) {
  const QPoint pos = event->position().toPoint();
  if (press_pos_ && (event->buttons() & Qt::LeftButton)) {
    if (!dragging_ && (pos - *press_pos_).manhattanLength() > kDragThresholdPx) {
      dragging_ = true;
      setCursor(Qt::ClosedHandCursor);
    }
    if (dragging_) {
      const double per_px = press_range_.span() / std::max(1, currentLayout().plot.width());
      const double dt = (press_pos_->x() - pos.x()) * per_px;
      setViewRange(press_range_.t0 + dt, press_range_.t1 + dt);
      return;
    }
  }
  setHovered(barAt(pos));
}

void GanttView::mouseReleaseEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton || !press_pos_) return QWidget::mouseReleaseEvent(event);
  if (dragging_) {
    unsetCursor();
  } else {
    const BarRef ref = barAt(event->position().toPoint());
    if (ref.valid()) {
      clickBar(ref, event->modifiers() & Qt::ShiftModifier);
    } else {
      setHighlightedSequence(-1);
    }
  }
  press_pos_.reset();
  dragging_ = false;
}

void GanttView::leaveEvent(QEvent* event) {
  setHovered({});
  QWidget::leaveEvent(event);
}

void GanttView::keyPressEvent(QKeyEvent* event) {
  if (!model_) return QWidget::keyPressEvent(event);
  const QPoint cursor = mapFromGlobal(QCursor::pos());
  const GanttLayout l = currentLayout();
  const double anchor =
      l.plot.contains(cursor) ? timeScale().t_of(cursor.x()) : 0.5 * (range_.t0 + range_.t1);
  switch (event->key()) {
    case Qt::Key_Plus:
    case Qt::Key_Equal:
      zoomBy(kKeyZoom, anchor);
      break;
    case Qt::Key_Minus:
      zoomBy(1.0 / kKeyZoom, anchor);
      break;
    case Qt::Key_0:
      fitToWindow();
      break;
    case Qt::Key_Left:
      panBy(-kPanFraction * range_.span());
      break;
    case Qt::Key_Right:
      panBy(kPanFraction * range_.span());
      break;
    case Qt::Key_Escape:
      // A running job is cancelled by the window before the key gets here.
      if (pinned_ < 0) return QWidget::keyPressEvent(event);
      setHighlightedSequence(-1);
      break;
    default:
      return QWidget::keyPressEvent(event);
  }
  event->accept();
}

bool GanttView::event(QEvent* event) {
  if (event->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(event);
    const BarRef ref = barAt(help->pos());
    if (ref.valid() && model_) {
      QToolTip::showText(help->globalPos(), gantt_tooltip(*model_, ref), this);
    } else {
      QToolTip::hideText();
      event->ignore();
    }
    return true;
  }
  return QWidget::event(event);
}

}  // namespace slimpack

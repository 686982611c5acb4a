// GanttView interaction on the offscreen platform: time/pixel mapping, hit testing, wheel zoom
// around the cursor, drag pan, keys, hover and click highlight, and that hover never rebuilds the
// cached geometry.
#include <QApplication>
#include <QSignalSpy>
#include <QWheelEvent>
#include <QtTest>

#include "../core/render/gantt_fixture.h"
#include "gantt/gantt_tooltip.h"
#include "gantt/gantt_view.h"

using namespace slimpack;

namespace {

std::shared_ptr<const GanttModel> tiny_model() {
  const auto pr = testing::tiny_plan();
  return std::make_shared<const GanttModel>(GanttModel::build(pr.plan, pr.result));
}

QPoint at(const GanttView& v, int lane, double t) {
  return QPoint(static_cast<int>(v.timeScale().x_of(t)),
                v.currentLayout().bar_band(lane).center().y());
}

void send_mouse(QWidget* w, QEvent::Type type, QPoint pos, Qt::MouseButton button,
                Qt::MouseButtons buttons, Qt::KeyboardModifiers mods = Qt::NoModifier) {
  QMouseEvent e(type, QPointF(pos), w->mapToGlobal(QPointF(pos)), button, buttons, mods);
  QApplication::sendEvent(w, &e);
}

}  // namespace

class TestGanttView : public QObject {
  Q_OBJECT

 private:
  std::unique_ptr<GanttView> view_;

 private slots:
  void init() {
    view_ = std::make_unique<GanttView>();
    GanttPaintOptions o;
    o.label_width = 100;
    o.bar_labels = false;
    view_->setPaintOptions(o);
    view_->resize(1000, 200);
    view_->setModel(tiny_model());
    view_->show();
    QVERIFY(QTest::qWaitForWindowExposed(view_.get()));
  }
  void cleanup() { view_.reset(); }

  void fitsTheModelAndMapsTimeToPixels() {
    const TimeRange r = view_->viewRange();
    QCOMPARE(r.t0, 0.0);
    QVERIFY(r.t1 >= 15.0 && r.t1 < 15.5);
    const TimeScale s = view_->timeScale();
    QCOMPARE(s.x0(), 100.0);
    QCOMPARE(s.t_of(s.x_of(7.25)), 7.25);
    QCOMPARE(view_->barAt(at(*view_, 0, 3.0)), (BarRef{0, 1}));
    QCOMPARE(view_->barAt(at(*view_, 1, 7.0)), (BarRef{1, 2}));
    QVERIFY(!view_->barAt(at(*view_, 0, 6.5)).valid());                  // bubble
    QVERIFY(!view_->barAt(QPoint(50, at(*view_, 0, 3.0).y())).valid());  // label column
  }

  void setViewRangeEmitsOnceAndFitRestores() {
    QSignalSpy spy(view_.get(), &GanttView::viewChanged);
    view_->setViewRange(2.0, 6.0);
    view_->setViewRange(2.0, 6.0);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toDouble(), 2.0);
    QCOMPARE(spy.at(0).at(1).toDouble(), 6.0);
    view_->setViewRange(5.0, 5.0);  // empty ranges are ignored
    QCOMPARE(view_->viewRange(), (TimeRange{2.0, 6.0}));
    QTest::keyClick(view_.get(), Qt::Key_0);
    QCOMPARE(view_->viewRange().t0, 0.0);
  }

  void wheelZoomKeepsTheTimeUnderTheCursor() {
    const QPoint pos = at(*view_, 0, 10.0);
    const double before = view_->timeScale().t_of(pos.x());
    const double span = view_->viewRange().span();
    QWheelEvent e(QPointF(pos), view_->mapToGlobal(QPointF(pos)), QPoint(), QPoint(0, 240),
                  Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(view_.get(), &e);
    QCOMPARE(view_->viewRange().span(), span / (1.25 * 1.25));
    QVERIFY(std::abs(view_->timeScale().t_of(pos.x()) - before) < 1e-9);
  }

  void dragPansByThePixelDistance() {
    view_->setViewRange(0.0, 9.0);
    const double per_px = 9.0 / view_->currentLayout().plot.width();
    const QPoint from = at(*view_, 0, 5.0);
    const QPoint to = from - QPoint(100, 0);
    send_mouse(view_.get(), QEvent::MouseButtonPress, from, Qt::LeftButton, Qt::LeftButton);
    send_mouse(view_.get(), QEvent::MouseMove, to, Qt::NoButton, Qt::LeftButton);
    send_mouse(view_.get(), QEvent::MouseButtonRelease, to, Qt::LeftButton, Qt::NoButton);
    QVERIFY(std::abs(view_->viewRange().t0 - 100 * per_px) < 1e-9);
    QVERIFY(std::abs(view_->viewRange().span() - 9.0) < 1e-9);
    QCOMPARE(view_->pinnedSequence(), -1);  // a drag is not a click
  }

  void keysZoomAndPan() {
    view_->setViewRange(0.0, 12.0);
    QTest::keyClick(view_.get(), Qt::Key_Plus);
    QVERIFY(std::abs(view_->viewRange().span() - 8.0) < 1e-9);
    QTest::keyClick(view_.get(), Qt::Key_Minus);
    QVERIFY(std::abs(view_->viewRange().span() - 12.0) < 1e-9);
    const double t0 = view_->viewRange().t0;
    QTest::keyClick(view_.get(), Qt::Key_Right);
    QVERIFY(std::abs(view_->viewRange().t0 - (t0 + 1.2)) < 1e-9);
  }

  void hoverHighlightsWithoutRebuildingGeometry() {
    view_->grab();  // build the caches
    const int builds = view_->geometryBuilds();
    QSignalSpy spy(view_.get(), &GanttView::sequenceHighlighted);
    QTest::mouseMove(view_.get(), at(*view_, 1, 7.0));  // B1 on stage 1 = {C, A}: A is longest
    QCOMPARE(view_->hoveredBar(), (BarRef{1, 2}));
    QCOMPARE(view_->highlightedSequence(), 0);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toInt(), 0);
    view_->grab();
    QTest::mouseMove(view_.get(), at(*view_, 0, 1.0));
    view_->grab();
    QCOMPARE(view_->geometryBuilds(), builds);
    QTest::mouseMove(view_.get(), at(*view_, 0, 6.5));  // bubble: nothing hovered
    QCOMPARE(view_->highlightedSequence(), -1);
  }

  void clickPinsAndShiftClickCycles() {
    const QPoint b1 = at(*view_, 0, 10.0);  // B1 on stage 0 = {C, A}
    QTest::mouseClick(view_.get(), Qt::LeftButton, Qt::NoModifier, b1);
    QCOMPARE(view_->pinnedSequence(), 0);  // A, the longest
    QTest::mouseClick(view_.get(), Qt::LeftButton, Qt::ShiftModifier, b1);
    QCOMPARE(view_->pinnedSequence(), 2);  // C
    // The pinned highlight is drawn on every bar holding a slice of C, on both stages.
    QTest::mouseMove(view_.get(), QPoint(50, 5));  // hover away: the pin stays
    const QImage img = view_->grab().toImage();
    const GanttPalette pal = GanttPalette::make(GanttTheme::Light);
    QCOMPARE(img.pixel(at(*view_, 1, 5.0)), pal.highlight.rgb());           // F2 stage 1
    QCOMPARE(img.pixel(at(*view_, 1, 7.5)), pal.highlight_backward.rgb());  // B1 stage 1
    QCOMPARE(img.pixel(at(*view_, 1, 10.5)), pal.backward[1].rgb());        // B2 has no C
    QTest::mouseClick(view_.get(), Qt::LeftButton, Qt::NoModifier, at(*view_, 0, 6.5));
    QCOMPARE(view_->pinnedSequence(), -1);
    view_->setHighlightedSequence(1);
    QCOMPARE(view_->highlightedSequence(), 1);
    QTest::keyClick(view_.get(), Qt::Key_Escape);
    QCOMPARE(view_->highlightedSequence(), -1);
  }

  void tooltipNamesPackSegmentsTokensAndMemory() {
    const QString text = gantt_tooltip(*view_->model(), BarRef{0, 1});
    QVERIFY(text.contains("F2"));
    QVERIFY(text.contains("A[150:300)"));
    QVERIFY(text.contains("C[0:200)"));
    QVERIFY(text.contains("350 tokens"));
    QVERIFY(text.contains("200 B"));
    QVERIFY(gantt_tooltip(*view_->model(), BarRef{5, 0}).isEmpty());
  }

  void replacingTheModelKeepsOrFitsTheView() {
    view_->setViewRange(3.0, 5.0);
    view_->setModel(tiny_model(), /*keep_view=*/true);
    QCOMPARE(view_->viewRange(), (TimeRange{3.0, 5.0}));
    view_->setModel(tiny_model());
    QCOMPARE(view_->viewRange().t0, 0.0);
    view_->setModel(nullptr);
    QVERIFY(!view_->barAt(QPoint(300, 40)).valid());
    view_->grab();  // the placeholder paints without a model
  }
};

QTEST_MAIN(TestGanttView)
#include "test_gantt_view.moc"

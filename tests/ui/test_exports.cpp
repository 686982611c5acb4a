// The Gantt picture as a slide shows it: its shape, its title, its footer and a legend that lists
// only what the picture holds; and the folder the export dialog opens in.
#include <QDir>
#include <QFileInfo>
#include <QGuiApplication>
#include <QTemporaryDir>
#include <QtTest>

#include "../core/render/gantt_fixture.h"
#include "app/explorer_snapshot.h"
#include "common/format.h"
#include "painter/gantt_chrome.h"
#include "painter/gantt_export.h"
#include "painter/gantt_layout.h"
#include "painter/gantt_painter.h"
#include "render/gantt_title.h"
#include "window/exporter.h"
#include "window/settings.h"

using namespace slimpack;

namespace {

double aspect(const QSize& s) {
  return s.height() > 0 ? double(s.width()) / s.height() : 0.0;
}

}  // namespace

class TestExports : public QObject {
  Q_OBJECT

 private slots:
  // A four-stage plan used to come out as a 6.4:1 strip; now it is slide-shaped with tall lanes.
  void pictureIsSlideShaped() {
    const auto pr = testing::synthetic_plan(4, 24);
    const GanttModel m = GanttModel::build(pr.plan, pr.result);
    GanttExportOptions o;  // width 1600, free height
    const QSize size = gantt_image_size({{QString(), &m}}, o);
    QCOMPARE(size.width(), 1600);
    QVERIFY2(aspect(size) <= 16.0 / 9.0 + 0.01, qPrintable(QString::number(aspect(size))));
    QVERIFY(aspect(size) >= 16.0 / 9.0 - 0.05);
    // The PNG has that size (times the scale).
    o.scale = 2.0;
    const QImage img = render_gantt_image({{QString(), &m}}, o);
    QCOMPARE(img.size(), size * 2);
    // The old strip shape is still there for whoever asks for it.
    o.max_aspect = 0;
    QVERIFY(aspect(gantt_image_size({{QString(), &m}}, o)) > 4.0);
    // A comparison is slide-shaped too.
    const auto tiny = testing::tiny_plan();
    const GanttModel t = GanttModel::build(tiny.plan, tiny.result);
    o.max_aspect = 16.0 / 9.0;
    QVERIFY(aspect(gantt_image_size({{"a", &m}, {"b", &t}}, o)) <= 16.0 / 9.0 + 0.01);
  }

  // Many lanes need more than a slide's height: they keep their natural height, never shrink.
  void manyLanesKeepTheirHeight() {
    const auto pr = testing::synthetic_plan(16, 40, 4);
    const GanttModel m = GanttModel::build(pr.plan, pr.result);
    GanttExportOptions o;
    const QSize size = gantt_image_size({{QString(), &m}}, o);
    QVERIFY(size.height() > 64 * o.lane_height);
    QVERIFY(aspect(size) < 16.0 / 9.0);
  }

  // The footer says what a reader needs (packs per pass), not how many bars were drawn.
  void footerCountsPacksNotBars() {
    const auto pr = testing::tiny_plan();
    const GanttModel m = GanttModel::build(pr.plan, pr.result);
    const QString text = metrics_text(m);
    QVERIFY2(!text.contains(QStringLiteral("bars")), qPrintable(text));
    QCOMPARE(pack_count_text(m), QStringLiteral("2 forward · 2 backward packs"));
    QVERIFY(text.contains(QStringLiteral("2 forward · 2 backward packs")));
    const auto two = testing::synthetic_plan(4, 24, 2);
    QCOMPARE(pack_count_text(GanttModel::build(two.plan, two.result)),
             QStringLiteral("48 forward · 48 backward packs"));
  }

  // The legend names only what the picture can show.
  void legendListsOnlyWhatIsDrawn() {
    const auto pr = testing::tiny_plan();
    const GanttModel m = GanttModel::build(pr.plan, pr.result);
    GanttExportOptions o;
    QStringList legend = gantt_image_legend({{QString(), &m}}, o);
    QVERIFY(legend.contains(QStringLiteral("Forward pack")));
    QVERIFY(legend.contains(QStringLiteral("Backward pack")));
    QVERIFY(legend.contains(QStringLiteral("Bubble (idle)")));  // a third of the time is idle
    QVERIFY2(!legend.contains(QStringLiteral("Sequence, forward")), qPrintable(legend.join('|')));
    QVERIFY(!legend.contains(QStringLiteral("Folded packs (×n)")));
    QVERIFY(!legend.join('|').contains(QStringLiteral("Memory")));
    QVERIFY(!legend.contains(QStringLiteral("DP sync / optimizer")));
    o.highlight = 0;
    o.memory_strip = true;
    legend = gantt_image_legend({{QString(), &m}}, o);
    QVERIFY(legend.contains(QStringLiteral("Sequence, forward")));
    QVERIFY(legend.contains(QStringLiteral("Sequence, backward")));
    // The memory strips' scale is said once, in the legend (each stage's label gives its peak).
    QVERIFY2(legend.contains(QStringLiteral("Memory (strip top 200 B)")),
             qPrintable(legend.join('|')));
    o.bubble_tint = false;
    QVERIFY(!gantt_image_legend({{QString(), &m}}, o).contains(QStringLiteral("Bubble (idle)")));
    // Thousands of packs in 1600 px are folded: then, and only then, the legend says so.
    const auto dense = testing::synthetic_plan(4, 5000);
    const GanttModel d = GanttModel::build(dense.plan, dense.result);
    QVERIFY(
        gantt_image_legend({{QString(), &d}}, {}).contains(QStringLiteral("Folded packs (×n)")));
  }

  // A folded run says how many packs it holds, of which pass, and how long it lasts — what a
  // whole-view Gantt of thousands of sequences shows instead of one bare "×706".
  void foldedRunsSayWhatTheyHold() {
    const auto dense = testing::synthetic_plan(4, 5000);
    const GanttModel m = GanttModel::build(dense.plan, dense.result);
    const GanttPainter gp(m, GanttPaintOptions{});
    const GanttLayout l = gp.layout(QRect(0, 0, 1600, 400));
    const GanttGeometry g = gp.geometry(l, m.time_extent());
    const DrawItem* widest = nullptr;
    for (const DrawItem& d : g.lanes[0])
      if (d.folded() && (!widest || d.x1 - d.x0 > widest->x1 - widest->x0)) widest = &d;
    QVERIFY(widest != nullptr);
    const QFontMetrics fm(QFont(QStringLiteral("DejaVu Sans"), 9));
    const QString full = fold_label(m, 0, *widest, fm, 10000);
    const auto& bars = m.lane(0).bars;
    const double span = bars[std::size_t(widest->first + widest->count - 1)].end -
                        bars[std::size_t(widest->first)].start;
    QCOMPARE(widest->forward + widest->backward, widest->count);  // no sync or optimizer here
    QCOMPARE(full, QStringLiteral("%1 packs (%2 F · %3 B) · %4")
                       .arg(widest->count)
                       .arg(widest->forward)
                       .arg(widest->backward)
                       .arg(QString::fromStdString(format_time(span, m.time_unit()))));
    // Narrower runs fall back to shorter labels.
    const QString shorter = QStringLiteral("%1 packs · %2")
                                .arg(widest->count)
                                .arg(QString::fromStdString(format_time(span, m.time_unit())));
    QCOMPARE(fold_label(m, 0, *widest, fm, fm.horizontalAdvance(shorter) + 4), shorter);
    const QString bare = QStringLiteral("×%1").arg(widest->count);
    QCOMPARE(fold_label(m, 0, *widest, fm, fm.horizontalAdvance(bare) + 4), bare);
    QVERIFY(fold_label(m, 0, *widest, fm, 5).isEmpty());
  }

  // Issue 33: a folded stage of 356 backward packs said "357 B", the optimizer step counted as a
  // backward pack. The step is named apart and the packs are only forward and backward bars.
  void aFoldedRunCountsNoStepAsABackwardPack() {
    auto pr = testing::synthetic_plan(1, 356, 1, false);
    auto& ops = pr.result.replicas[0].stages[0].ops;
    const double end = ops.back().end;
    ops.push_back(testing::make_op(end, end + 0.5, -1, 0, OpKind::Optimizer));
    const GanttModel m = GanttModel::build(pr.plan, pr.result);
    const TimeScale scale(m.time_extent(), 0, 100);
    std::vector<DrawItem> items;
    build_lane_draw_list(m, 0, scale, items);
    QCOMPARE(items.size(), std::size_t(1));
    const QFontMetrics fm(QFont(QStringLiteral("DejaVu Sans"), 9));
    const QString span = QString::fromStdString(format_time(end + 0.5, m.time_unit()));
    QCOMPARE(fold_label(m, 0, items[0], fm, 10000),
             QStringLiteral("712 packs (356 F · 356 B) + 1 sync/opt · %1").arg(span));
    const QString shorter = QStringLiteral("712 packs · %1").arg(span);
    QCOMPARE(fold_label(m, 0, items[0], fm, fm.horizontalAdvance(shorter) + 4), shorter);
    QCOMPARE(fold_label(m, 0, items[0], fm, fm.horizontalAdvance(QStringLiteral("×712")) + 4),
             QStringLiteral("×712"));
  }

  // The explorer's picture is titled with the workload, p, t, d, S, strategy and iteration time.
  void exporterTitlesThePicture() {
    auto pr = testing::tiny_plan();
    pr.plan.strategy = "slimpack";
    pr.plan.slice_size = 8192;
    auto snap = std::make_shared<ExplorerSnapshot>();
    snap->plan = std::make_shared<const Plan>(pr.plan);
    snap->sim = pr.result;
    snap->workload_label = "preset long-sft-128k, seed 42";
    snap->config.tp = 8;
    ui::Exporter exporter;
    exporter.setSources(snap, {});
    const QString title = exporter.optionsFor(false).title;
    QVERIFY2(title.startsWith(QStringLiteral("preset long-sft-128k, seed 42 — slimpack")),
             qPrintable(title));
    QVERIFY(title.contains(QStringLiteral("p=2 t=8 d=1")));
    QVERIFY(title.contains(QStringLiteral("S=8,192")));
    QVERIFY(title.contains(QStringLiteral("iteration ")));
    QVERIFY(exporter.optionsFor(true).title.isEmpty());  // a comparison names its plans instead
  }

  // The whole title reaches a slide: it has the header's top line to itself, the whole width (it
  // was cut where the legend on the line below begins), and is set smaller before it is cut.
  void theTitleIsNotCut() {
    const QString title = QStringLiteral(
        "preset long-sft-128k, seed 42 — slimpack · p=4 t=8 d=1 · S=8,192 · iteration 9.31 s");
    QFont base = QGuiApplication::font();
    base.setPointSizeF(10.0);
    // Room enough: 1.35 times the text's size, as before.
    QCOMPARE(title_font(base, title, 4000).pointSizeF(), 13.5);
    // A 1280-pixel slide with its margins: smaller, and whole.
    for (int width : {1268, 900}) {
      const QFont f = title_font(base, title, width);
      QVERIFY(f.pointSizeF() >= base.pointSizeF());
      QVERIFY2(
          QFontMetrics(f).horizontalAdvance(title) <= width || f.pointSizeF() == base.pointSizeF(),
          qPrintable(QString::number(f.pointSizeF())));
    }
    QVERIFY(QFontMetrics(title_font(base, title, 1268)).horizontalAdvance(title) <= 1268);
    // The layout's titled header holds the larger title line and the legend's line under it.
    GanttPaintOptions options;
    options.title = title;
    options.legend = true;
    const QFontMetrics fm(base);
    const auto pr = testing::tiny_plan();
    const GanttModel m = GanttModel::build(pr.plan, pr.result);
    const GanttLayout l = compute_layout(m, QRect(0, 0, 1280, 720), options, fm);
    QVERIFY(l.header.height() >=
            QFontMetrics(title_font(base, title, 4000)).height() + fm.height() + 4);
  }

  // Save dialogs open in a folder that can be written: the last one saved to, else Pictures or
  // home; never the bundled samples the open dialogs start in.
  void saveDialogsOpenInAWritableFolder() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    auto settings = ui::Settings::fromFile(dir.filePath("s.ini"));
    const QString fallback = settings->saveDirectory();
    QVERIFY(QFileInfo(fallback).isDir());
    QVERIFY(QFileInfo(fallback).isWritable());
    QVERIFY(fallback != settings->lastDirectory() || fallback == QDir::homePath());
    settings->setSaveDirectory(dir.path());
    QCOMPARE(settings->saveDirectory(), dir.path());
    settings->setSaveDirectory(dir.filePath("gone"));  // removed since
    QCOMPARE(settings->saveDirectory(), fallback);
    settings->setSaveDirectory(dir.filePath("s.ini"));  // not a folder
    QCOMPARE(settings->saveDirectory(), fallback);
  }
};

int main(int argc, char** argv) {
  QGuiApplication app(argc, argv);
  TestExports t;
  return QTest::qExec(&t, argc, argv);
}

#include "test_exports.moc"

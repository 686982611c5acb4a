// Smoke tests of the Gantt painter and exports: a known plan rendered into a QImage, with bar
// positions and colors checked at chosen pixels (no golden images).
#include <QFile>
#include <QGuiApplication>
#include <QImage>
#include <QTemporaryDir>
#include <QtTest>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <QDir>
#include <QFileInfo>
#include <set>
#include <thread>
#include "../core/render/gantt_fixture.h"

#include "painter/gantt_chrome.h"
#include "painter/gantt_export.h"
#include "painter/gantt_painter.h"

using namespace slimpack;

namespace {

// Label column 100 px, no axis (right pad 2 px): in a 1600 px image the plot is x in [100, 1598),
// so the range [0, 14.98] is exactly 100 px per unit and a bar [a, b) covers x in [100+100a,
// 100+100b).
GanttPaintOptions plain_options() {
  GanttPaintOptions o;
  o.axis = false;
  o.label_width = 100;
  o.lane_height = 40;
  o.bar_labels = false;
  return o;
}

QRgb rgb(const QColor& c) {
  return c.rgb();
}

}  // namespace

class TestGanttPainter : public QObject {
  Q_OBJECT

 private slots:
  void layoutMapsTimeToPixels() {
    const auto pr = testing::tiny_plan();
    const GanttModel m = GanttModel::build(pr.plan, pr.result);
    const GanttPainter gp(m, plain_options());
    const GanttLayout l = gp.layout(QRect(0, 0, 1600, 100));
    QCOMPARE(l.plot.left(), 100);
    QCOMPARE(l.plot.width(), 1498);
    const GanttGeometry g = gp.geometry(l, {0.0, 14.98});
    QCOMPARE(g.scale.x_of(2.0), 300.0);
    QCOMPARE(l.lane_at(l.lane_top[1] + 5), 1);
    QCOMPARE(l.lane_at(l.plot.top() - 1), -1);
    // Hit test through the layout: x = 350 on lane 0 is F2, in the bubble (x = 750) nothing.
    const int y0 = l.bar_band(0).center().y();
    QCOMPARE(gp.hit(l, g, QPoint(350, y0)), (BarRef{0, 1}));
    QVERIFY(!gp.hit(l, g, QPoint(750, y0)).valid());
    QCOMPARE(gp.hit(l, g, QPoint(750, l.bar_band(1).center().y())), (BarRef{1, 2}));  // B1 [6,9)
  }

  void rendersBarsAndBubblesAtKnownPixels() {
    const auto pr = testing::tiny_plan();
    const GanttModel m = GanttModel::build(pr.plan, pr.result);
    const GanttPainter gp(m, plain_options());
    QImage img(1600, 100, QImage::Format_RGB32);
    QPainter p(&img);
    gp.paint(p, img.rect(), {0.0, 14.98});
    p.end();
    const GanttPalette pal = GanttPalette::make(GanttTheme::Light);
    const GanttLayout l = gp.layout(img.rect());
    const int y0 = l.bar_band(0).top() + 2;
    const int y1 = l.bar_band(1).top() + 2;
    QCOMPARE(img.pixel(105, y0), rgb(pal.forward[0]));  // F1 [0,2) on stage 0
    QCOMPARE(img.pixel(299, y0), rgb(pal.forward[0]));
    QCOMPARE(img.pixel(300, y0), rgb(pal.forward[1]));    // F2 [2,4): the other shade
    QCOMPARE(img.pixel(650, y0), rgb(pal.bubble_tint));   // idle 4..9 on stage 0
    QCOMPARE(img.pixel(1000, y0), rgb(pal.backward[0]));  // B1 [9,12)
    QCOMPARE(img.pixel(150, y1), rgb(pal.bubble_tint));   // stage 1 waits until 2
    QCOMPARE(img.pixel(700, y1), rgb(pal.backward[0]));   // B1 [6,9) on stage 1
    QCOMPARE(img.pixel(1300, y1), rgb(pal.bubble_tint));  // stage 1 done at 12
    QCOMPARE(img.pixel(50, y0), rgb(pal.label_background));
  }

  void overlayHighlightsEverySliceOfTheSequence() {
    const auto pr = testing::tiny_plan();
    const GanttModel m = GanttModel::build(pr.plan, pr.result);
    const GanttPainter gp(m, plain_options());
    QImage img(1600, 100, QImage::Format_RGB32);
    QPainter p(&img);
    gp.paint(p, img.rect(), {0.0, 14.98}, /*highlight=*/2);  // C: F2 and B1 on both stages
    p.end();
    const GanttPalette pal = GanttPalette::make(GanttTheme::Light);
    const GanttLayout l = gp.layout(img.rect());
    const int y0 = l.bar_band(0).center().y();
    const int y1 = l.bar_band(1).center().y();
    QCOMPARE(img.pixel(400, y0), rgb(pal.highlight));            // F2 stage 0
    QCOMPARE(img.pixel(1100, y0), rgb(pal.highlight_backward));  // B1 stage 0: its own colour
    QCOMPARE(img.pixel(600, y1), rgb(pal.highlight));            // F2 stage 1
    QCOMPARE(img.pixel(800, y1), rgb(pal.highlight_backward));   // B1 stage 1
    QCOMPARE(img.pixel(200, y0), rgb(pal.forward[0]));           // F1 has no slice of C
    QCOMPARE(img.pixel(1400, y0), rgb(pal.backward[1]));
    QCOMPARE(img.pixel(300, y0), rgb(pal.highlight_outline));  // outline on the bar edge
  }

  void denseLanesAreFolded() {
    const auto pr = testing::synthetic_plan(4, 20000);
    const GanttModel m = GanttModel::build(pr.plan, pr.result);
    GanttPaintOptions o = plain_options();
    const GanttPainter gp(m, o);
    const GanttLayout l = gp.layout(QRect(0, 0, 1600, 300));
    const GanttGeometry g = gp.geometry(l, m.time_extent());
    QVERIFY(g.item_count < m.bar_count() / 20);
    int total = 0;
    for (const auto& d : g.lanes[0]) total += d.count;
    QCOMPARE(total, 40000);  // every bar of stage 0 is in exactly one item
  }

  // A folded run is striped in the forward and backward families, never a mixed third colour:
  // every pixel of a folded item is one of the four pack shades, or the lane's background (and
  // its grid lines) where a column is partly idle. Its columns show the work's density: the forward
  // share of the run's coloured pixels is the forward share of the stage's busy time.
  void foldedRunsKeepTheirColourFamilies() {
    const auto pr = testing::synthetic_plan(4, 20000);
    const GanttModel m = GanttModel::build(pr.plan, pr.result);
    GanttPaintOptions o = plain_options();
    o.bubble_tint = false;
    const GanttPainter gp(m, o);
    QImage img(1600, 300, QImage::Format_RGB32);
    QPainter p(&img);
    gp.paint(p, img.rect(), m.time_extent());
    p.end();
    const GanttLayout l = gp.layout(img.rect());
    const GanttGeometry g = gp.geometry(l, m.time_extent());
    const GanttPalette pal = GanttPalette::make(GanttTheme::Light);
    const std::set<QRgb> families = {rgb(pal.forward[0]),  rgb(pal.forward[1]),
                                     rgb(pal.backward[0]), rgb(pal.backward[1]),
                                     rgb(pal.background),  rgb(pal.grid)};
    const QRect band = l.bar_band(0);
    int folded_px = 0, forward_px = 0, backward_px = 0;
    for (const DrawItem& d : g.lanes[0]) {
      if (!d.folded() || d.x1 - d.x0 < 4) continue;
      for (int x = int(std::ceil(d.x0)) + 1; x < int(d.x1) - 1; ++x)
        for (int y = band.top(); y <= band.bottom(); ++y) {
          const QRgb c = img.pixel(x, y);
          QVERIFY2(families.count(c) == 1, qPrintable(QColor(c).name()));
          ++folded_px;
          forward_px += c == rgb(pal.forward[0]) || c == rgb(pal.forward[1]);
          backward_px += c == rgb(pal.backward[0]) || c == rgb(pal.backward[1]);
        }
    }
    QVERIFY(folded_px > 1000);
    QVERIFY(forward_px > 0 && backward_px > 0);
    const GanttLane& lane = m.lane(0);
    const double fwd_share =
        lane.fwd_time_prefix.back() / (lane.fwd_time_prefix.back() + lane.bwd_time_prefix.back());
    const double painted = double(forward_px) / (forward_px + backward_px);
    QVERIFY2(std::abs(painted - fwd_share) < 0.05,
             qPrintable(QStringLiteral("%1 vs %2").arg(painted).arg(fwd_share)));
  }

  // A narrow widget-style header (no title): the legend shortens its labels and stays inside
  // the picture, leaving the left part free for the highlighted sequence's name.
  void legendFitsANarrowHeader() {
    const GanttPalette pal = GanttPalette::make(GanttTheme::Light);
    for (int width : {1400, 700, 420}) {
      QImage img(width + 40, 40, QImage::Format_RGB32);
      img.fill(Qt::black);
      QPainter p(&img);
      p.setFont(QFont(QStringLiteral("DejaVu Sans"), 9));
      const QRect header(20, 5, width, 30);
      LegendContent all;
      all.sync = all.memory = true;
      paint_header(p, header, QString(), true, all, pal, width / 3);
      p.end();
      // Nothing outside the header; the reserved left third stays background.
      QCOMPARE(img.pixel(10, 20), QColor(Qt::black).rgb());
      QCOMPARE(img.pixel(width + 30, 20), QColor(Qt::black).rgb());
      for (int x = header.left(); x < header.left() + width / 3; ++x)
        for (int y = header.top(); y <= header.bottom(); ++y)
          QCOMPARE(img.pixel(x, y), rgb(pal.background));
      // Some legend was drawn.
      int drawn = 0;
      for (int x = header.left() + width / 3; x <= header.right(); ++x)
        drawn += img.pixel(x, 25) != rgb(pal.background);
      QVERIFY(drawn > 20);
    }
  }

  void memoryStripShowsTheStepSeries() {
    const auto pr = testing::tiny_plan();
    const GanttModel m = GanttModel::build(pr.plan, pr.result);
    GanttPaintOptions o = plain_options();
    o.memory_strip = true;
    o.bubble_tint = false;
    const GanttPainter gp(m, o);
    QImage img(1600, 100, QImage::Format_RGB32);
    QPainter p(&img);
    gp.paint(p, img.rect(), {0.0, 14.98});
    p.end();
    const GanttLayout l = gp.layout(img.rect());
    const QRect band = l.memory_band(0);
    QVERIFY(band.height() >= 3);
    const QRgb bg = GanttPalette::make(GanttTheme::Light).background.rgb();
    // Stage 0 holds 200 bytes (the peak) during [2,12): full strip; 100 during [12,15): half.
    QVERIFY(img.pixel(600, band.top()) != bg);
    QCOMPARE(img.pixel(1350, band.top()), bg);
    QVERIFY(img.pixel(1350, band.bottom()) != bg);
  }

  void exportsPngSvgPdfAndComparisons() {
    const auto pr = testing::tiny_plan();
    const auto syn = testing::synthetic_plan(4, 24);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    GanttExportOptions o;
    o.width = 1000;
    o.max_aspect = 0;  // lanes of lane_height (the slide shape is tested in test_exports)
    o.scale = 2.0;
    const std::string png = dir.filePath("g.png").toStdString();
    QVERIFY(export_gantt_png(pr.plan, pr.result, png, o).ok());
    const QImage img(QString::fromStdString(png));
    QCOMPARE(img.width(), 2000);
    QVERIFY(img.height() > 2 * 2 * o.lane_height);
    o.scale = 1.0;
    const std::string svg = dir.filePath("g.svg").toStdString();
    QVERIFY(export_gantt_svg(pr.plan, pr.result, svg, o).ok());
    QFile sf(QString::fromStdString(svg));
    QVERIFY(sf.open(QIODevice::ReadOnly));
    QVERIFY(sf.readAll().contains("<svg"));
    const std::string pdf = dir.filePath("g.pdf").toStdString();
    QVERIFY(export_gantt_pdf(pr.plan, pr.result, pdf, o).ok());
    QFile pf(QString::fromStdString(pdf));
    QVERIFY(pf.open(QIODevice::ReadOnly));
    QVERIFY(pf.read(5) == "%PDF-");
    const Status bad = export_gantt(pr.plan, pr.result, dir.filePath("g.bmp").toStdString(), o);
    QVERIFY(!bad.ok());
    QCOMPARE(bad.error().kind, ErrorKind::BadInput);
    QVERIFY(!QFile::exists(dir.filePath("g.bmp")));
    QVERIFY(!export_gantt_svg(pr.plan, pr.result, png, o).ok());  // extension mismatch

    const std::string cmp = dir.filePath("c.png").toStdString();
    QVERIFY(export_gantt_compare(
                {{"tiny", &pr.plan, &pr.result}, {"synthetic", &syn.plan, &syn.result}}, cmp, o)
                .ok());
    const QImage ci(QString::fromStdString(cmp));
    QVERIFY(ci.height() > img.height() / 2 + 4 * o.lane_height);
    QVERIFY(!export_gantt_compare({}, cmp, o).ok());

    // Pictures for a human to look at when SLIMPACK_GANTT_PICTURES names a folder.
    const QByteArray out = qgetenv("SLIMPACK_GANTT_PICTURES");
    if (!out.isEmpty()) {
      const std::string base = out.toStdString() + "/";
      GanttExportOptions big;
      big.highlight = 2;
      big.memory_strip = true;
      QVERIFY(export_gantt_png(pr.plan, pr.result, base + "tiny.png", big).ok());
      const auto wide = testing::synthetic_plan(4, 32, 2);
      QVERIFY(export_gantt_png(wide.plan, wide.result, base + "synthetic.png", big).ok());
      big.theme = GanttTheme::Dark;
      QVERIFY(export_gantt_png(wide.plan, wide.result, base + "synthetic_dark.png", big).ok());
      big.theme = GanttTheme::Light;
      const auto dense = testing::synthetic_plan(8, 5000);
      QVERIFY(export_gantt_png(dense.plan, dense.result, base + "dense.png", big).ok());
      QVERIFY(export_gantt_compare(
                  {{"tiny", &pr.plan, &pr.result}, {"synthetic", &syn.plan, &syn.result}},
                  base + "compare.png", big)
                  .ok());
      QVERIFY(export_gantt_svg(pr.plan, pr.result, base + "tiny.svg", big).ok());
    }
  }

  // Pictures go through the output-file rule (core/common/output_file.h) like every output: a FIFO
  // or a character device is written in place, a link's target gets the picture, a failure keeps
  // the old file, and the named format wins over a missing extension.
  void exportsFollowTheOutputFileRule() {
    const auto pr = testing::tiny_plan();
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    GanttExportOptions o;
    o.width = 600;

    const std::string fifo = dir.filePath("pipe").toStdString();
    QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
    for (const auto format :
         {GanttImageFormat::Png, GanttImageFormat::Svg, GanttImageFormat::Pdf}) {
      QByteArray received;
      std::thread reader([&] {
        QFile in(QString::fromStdString(fifo));
        if (in.open(QIODevice::ReadOnly)) received = in.readAll();
      });
      GanttExportOptions named = o;
      named.format = format;
      const Status st = export_gantt(pr.plan, pr.result, fifo, named);
      if (!st.ok()) {  // the FIFO was never opened: wake the reader so that join returns
        const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
        if (fd >= 0) ::close(fd);
      }
      reader.join();
      QVERIFY2(st.ok(), st.ok() ? "" : st.error().message.c_str());
      QVERIFY(received.startsWith(format == GanttImageFormat::Png   ? QByteArray("\x89PNG")
                                  : format == GanttImageFormat::Svg ? QByteArray("<?xml")
                                                                    : QByteArray("%PDF-")));
      QVERIFY(QFileInfo(QString::fromStdString(fifo)).isFile() == false);
      struct stat sb {};
      QCOMPARE(::lstat(fifo.c_str(), &sb), 0);
      QVERIFY(S_ISFIFO(sb.st_mode));
    }

    if (::geteuid() == 0) {
      const std::string dev = dir.filePath("null").toStdString();
      if (::mknod(dev.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0) {
        QVERIFY(export_gantt_png(pr.plan, pr.result, dev, o).ok());
        struct stat sb {};
        QCOMPARE(::lstat(dev.c_str(), &sb), 0);
        QVERIFY(S_ISCHR(sb.st_mode));
      } else {
        qInfo("mknod refused here: the character-device case is skipped");
      }
    } else {
      qInfo("not root: the character-device case is skipped (mknod needs root)");
    }

    // A link to a regular file stays a link; its target gets the picture.
    const QString target = dir.filePath("real.png");
    QFile old(target);
    QVERIFY(old.open(QIODevice::WriteOnly));
    old.write("old");
    old.close();
    const QString link = dir.filePath("link.png");
    QVERIFY(QFile::link(QStringLiteral("real.png"), link));
    QVERIFY(export_gantt(pr.plan, pr.result, link.toStdString(), o).ok());
    QVERIFY(QFileInfo(link).isSymLink());
    QVERIFY(QImage(target).width() == 600);

    // A refused export (a PNG to a .svg name) leaves the old file and no temporary file.
    GanttExportOptions png = o;
    png.format = GanttImageFormat::Png;
    const Status mismatch = export_gantt(pr.plan, pr.result, target.toStdString() + ".svg", png);
    QVERIFY(!mismatch.ok());
    QCOMPARE(mismatch.error().kind, ErrorKind::BadInput);
    QVERIFY(QImage(target).width() == 600);
    QVERIFY(QDir(dir.path())
                .entryList({QStringLiteral("*.tmp-*")}, QDir::AllEntries | QDir::Hidden)
                .isEmpty());
  }
};

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM",
          qgetenv("QT_QPA_PLATFORM").isEmpty() ? "offscreen" : qgetenv("QT_QPA_PLATFORM"));
  QGuiApplication app(argc, argv);
  TestGanttPainter t;
  return QTest::qExec(&t, argc, argv);
}

#include "test_gantt_painter.moc"

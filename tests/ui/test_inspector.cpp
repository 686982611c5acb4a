// Asymmetry made visible: on the default workload the chosen plan packs forward and backward
// differently (Mf != Mb); pinning a sequence in the Gantt lists, in the sequence inspector, every
// forward and backward pack that holds one of its slices on every stage, with the slices' token
// ranges (checked against the plan itself), each pack named as the Gantt labels its bar (issue
// 33: the inspector's B46 was the Gantt's B47); the highlight paints forward and backward in two
// colours and its label counts the slices the slicer cut, not drawn bars nor the pieces packs hold.
#include <QDockWidget>
#include <QLabel>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include "gantt/gantt_view.h"
#include "gantt/sequence_inspector.h"
#include "painter/gantt_painter.h"
#include "painter/gantt_palette.h"
#include "render/sequence_slices.h"
#include "window/explorer_controller.h"
#include "window/main_window.h"
#include "window/settings.h"

using namespace slimpack;
using namespace slimpack::ui;

namespace {
constexpr int kTimeoutMs = 60000;

// "[0:1024) [1024:2048)": the sequence's slices in a pack of the plan, as the inspector writes
// them.
QString slicesOf(const Pack& pack, SeqIndex seq) {
  std::vector<std::pair<Tokens, Tokens>> out;
  for (const Segment& s : pack.segments)
    if (s.seq == seq) out.emplace_back(s.begin, s.end);
  std::sort(out.begin(), out.end());
  QStringList text;
  for (const auto& [b, e] : out) text << QStringLiteral("[%1:%2)").arg(b).arg(e);
  return text.join(' ');
}
}  // namespace

class TestInspector : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir dir_;
  std::unique_ptr<Settings> settings_;
  std::unique_ptr<MainWindow> window_;
  ExplorerController& c() { return window_->controller(); }

 private slots:
  void initTestCase() {
    settings_ = Settings::fromFile(dir_.filePath("settings.ini"));
    window_ = std::make_unique<MainWindow>(*settings_);
    window_->setErrorDialogsEnabled(false);
    window_->resize(1400, 900);
    window_->show();
    QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    QTRY_VERIFY_WITH_TIMEOUT(c().snapshot() && !c().busy(), kTimeoutMs);
  }
  void cleanupTestCase() { window_.reset(); }

  void theDefaultPlanIsAsymmetric() {
    const Plan& plan = *c().snapshot()->plan;
    QVERIFY(plan.replicas[0].forward.size() != plan.replicas[0].backward.size());
  }

  void theInspectorListsThePinnedSequencesSlices() {
    GanttView* g = window_->ganttView();
    auto* inspector = window_->findChild<SequenceInspector*>();
    QVERIFY(inspector);
    window_->findChild<QDockWidget*>("dock.sequence")->raise();
    // Pin the sequence of the longest pack under stage 0's middle, with a click.
    const GanttLayout l = g->currentLayout();
    QPoint at;
    for (int x = l.plot.center().x(); x < l.plot.right() && at.isNull(); x += 3)
      if (g->barAt(QPoint(x, l.bar_band(0).center().y())).valid())
        at = QPoint(x, l.bar_band(0).center().y());
    QVERIFY(!at.isNull());
    QTest::mouseClick(g, Qt::LeftButton, {}, at);
    const int seq = g->pinnedSequence();
    QVERIFY(seq >= 0);
    QCOMPARE(inspector->sequence(), seq);

    // Against the plan: the packs of each pass holding a slice of `seq`, and those slices.
    const Plan& plan = *c().snapshot()->plan;
    const ReplicaPlan& rp = plan.replicas[0];
    // Pack index k is named k + 1, as the Gantt's labels and the paper's F_1..F_M.
    QStringList forward, backward;
    for (std::size_t k = 0; k < rp.forward.size(); ++k) {
      const QString s = slicesOf(rp.forward[k], seq);
      if (!s.isEmpty()) forward << QStringLiteral("F%1 %2").arg(k + 1).arg(s);
    }
    for (std::size_t k = 0; k < rp.backward.size(); ++k) {
      const QString s = slicesOf(rp.backward[k], seq);
      if (!s.isEmpty()) backward << QStringLiteral("B%1 %2").arg(k + 1).arg(s);
    }
    // The slices the slicer cut: ceil(length / S).
    QVERIFY(plan.slice_size > 0);
    const Tokens length = plan.sequences[static_cast<std::size_t>(seq)].length;
    const int slices = static_cast<int>((length + plan.slice_size - 1) / plan.slice_size);
    QVERIFY(!forward.isEmpty() && !backward.isEmpty());

    QTreeWidget* tree = inspector->tree();
    QCOMPARE(tree->topLevelItemCount(), plan.stages);
    // Every row's name is the Gantt's label of the same bar, on every stage and pass.
    const std::vector<SequencePackRow> rows = sequence_pack_rows(*g->model(), seq);
    std::size_t next = 0;
    for (int st = 0; st < plan.stages; ++st)
      for (int pass = 0; pass < 2; ++pass)
        for (int k = 0; k < tree->topLevelItem(st)->child(pass)->childCount(); ++k, ++next) {
          QVERIFY(next < rows.size());
          QCOMPARE(tree->topLevelItem(st)->child(pass)->child(k)->text(0),
                   bar_label(g->model()->bar(rows[next].bar)));
        }
    QCOMPARE(next, rows.size());
    for (int st = 0; st < plan.stages; ++st) {
      QTreeWidgetItem* stage = tree->topLevelItem(st);
      QCOMPARE(stage->text(0), QStringLiteral("Stage %1").arg(st));
      QCOMPARE(stage->childCount(), 2);
      QCOMPARE(stage->child(0)->text(0), QStringLiteral("Forward packs"));
      QCOMPARE(stage->child(1)->text(0), QStringLiteral("Backward packs"));
      for (int pass = 0; pass < 2; ++pass) {
        QStringList listed;
        for (int k = 0; k < stage->child(pass)->childCount(); ++k) {
          QTreeWidgetItem* row = stage->child(pass)->child(k);
          listed << row->text(0) + ' ' + row->text(1);
          QVERIFY(!row->text(2).isEmpty() && !row->text(3).isEmpty());  // start and end times
        }
        // The packs run in their index order on every stage.
        QCOMPARE(listed, pass == 0 ? forward : backward);
      }
    }
    QVERIFY2(inspector->summary()->text().contains(QStringLiteral("%1 slices").arg(slices)),
             qPrintable(inspector->summary()->text()));
    QVERIFY(inspector->summary()->text().contains(
        QStringLiteral("in %1 forward packs and %2 backward packs")
            .arg(forward.size())
            .arg(backward.size())));
    // The highlight label counts the same slices; so do the rows' tooltips of each pass.
    QCOMPARE(sequence_slice_count(*g->model(), seq), slices);
    for (int pass = 0; pass < 2; ++pass) {
      int in_rows = 0;
      QTreeWidgetItem* packs = tree->topLevelItem(0)->child(pass);
      for (int k = 0; k < packs->childCount(); ++k)
        in_rows += packs->child(k)->toolTip(1).section(' ', 0, 0).toInt();
      QCOMPARE(in_rows, slices);
    }

    // Forward and backward bars of the highlight are painted in two colours.
    const GanttPalette palette = GanttPalette::make(GanttTheme::Light);
    QVERIFY(palette.highlight != palette.highlight_backward);
    const QImage shot = g->grab().toImage();
    bool fwd = false, bwd = false;
    for (const BarRef& ref : g->model()->sequence_bars(seq)) {
      if (ref.lane != 0) continue;
      const GanttBar& bar = g->model()->bar(ref);
      const int x = static_cast<int>(g->timeScale().x_of(0.5 * (bar.start + bar.end)));
      if (x <= l.plot.left() || x >= l.plot.right()) continue;
      const QColor px = shot.pixelColor(x, l.bar_band(0).center().y());
      if (bar.kind == BarKind::Forward && px == palette.highlight) fwd = true;
      if (bar.kind == BarKind::Backward && px == palette.highlight_backward) bwd = true;
    }
    QVERIFY(fwd);
    QVERIFY(bwd);

    // A click on empty space unpins: the inspector says how to pick one.
    QTest::mouseClick(g, Qt::LeftButton, {}, QPoint(l.plot.left() + 1, l.plot.bottom() + 2));
    QTRY_COMPARE(inspector->sequence(), -1);
  }
};

QTEST_MAIN(TestInspector)
#include "test_inspector.moc"

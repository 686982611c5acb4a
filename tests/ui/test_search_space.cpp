// The Search tab's space fields: what is typed becomes the searched lists (the CLI's reader), a
// bad field refuses to run with its name and reason (no job starts, the last result stays), and a
// search over typed lists tries exactly those values.
#include <QChart>
#include <QChartView>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTest>

#include "charts/search_chart.h"
#include "jobs/job_tracker.h"
#include "models/search_model.h"
#include "panels/search_panel.h"
#include "panels/search_space_editor.h"
#include "search_test_support.h"

using namespace slimpack;
using namespace slimpack::ui;

class TestSearchSpace : public QObject {
  Q_OBJECT
 private slots:
  void blankFieldsAreTheAutomaticSpace() {
    SearchSpaceEditor editor;
    auto space = editor.space(64);
    QVERIFY(space.ok());
    SearchSpace expected;
    expected.gpus = 64;
    QVERIFY(*space == expected);
    QCOMPARE(editor.field("cp")->placeholderText(), QStringLiteral("1,2,4,8"));
    QVERIFY(editor.field("gpus") == nullptr);
  }

  void typedFieldsBecomeTheLists() {
    SearchSpaceEditor editor;
    QTest::keyClicks(editor.field("pp"), QStringLiteral("2, 4"));
    QTest::keyClicks(editor.field("recompute"), QStringLiteral("none,full"));
    QTest::keyClicks(editor.field("strategy"), QStringLiteral("slimpack"));
    auto space = editor.space(16);
    QVERIFY2(space.ok(), space ? "" : space.error().message.c_str());
    QCOMPARE(space->pp, (std::vector<int>{2, 4}));
    QCOMPARE(space->recompute.size(), std::size_t{2});
    QCOMPARE(space->recompute[1].mode, RecomputeMode::Full);
    QCOMPARE(space->strategies, std::vector<std::string>{"slimpack"});
    // Written back as typed (normalised).
    SearchSpaceEditor other;
    other.setSpace(*space);
    QCOMPARE(other.field("pp")->text(), QStringLiteral("2,4"));
    QVERIFY(*other.space(16) == *space);
  }

  void badFieldIsNamed() {
    SearchSpaceEditor editor;
    editor.field("tp")->setText(QStringLiteral("2,eight"));
    auto space = editor.space(16);
    QVERIFY(!space.ok());
    QCOMPARE(QString::fromStdString(space.error().message),
             QStringLiteral("Search space, t: expected an integer, got 'eight'"));
    // Named by the tab's label, not the option's session key ("slice_size").
    editor.field("tp")->clear();
    editor.field("slice")->setText(QStringLiteral("4096,-1"));
    space = editor.space(16);
    QVERIFY(!space.ok());
    QVERIFY2(QString::fromStdString(space.error().message).startsWith("Search space, S: "),
             space.error().message.c_str());
  }

  void panelRefusesABadSpaceAndStartsNothing() {
    SearchPanel panel;
    panel.setBasis(smallSearchWorkload(), ConfigSpec{});
    panel.setGpus(8);
    QSignalSpy bad(&panel, &SearchPanel::badInput);
    // 64 stages: more than Llama-3-8B's 32 layers, found before any job starts.
    panel.spaceEditor()->field("pp")->setText(QStringLiteral("64"));
    panel.run();
    QCOMPARE(bad.count(), 1);
    QCOMPARE(bad.at(0).at(1).toString(),
             QStringLiteral("Search space, p: 64 is more stages than the model's 32 layers"));
    QVERIFY(!panel.jobs().busy());
    QVERIFY(!panel.result());
    QVERIFY(panel.message().contains(QStringLiteral("Search space, p")));
  }

  void searchTriesExactlyTheTypedValues() {
    SearchPanel panel;
    panel.setBasis(smallSearchWorkload(), ConfigSpec{});
    panel.setGpus(8);
    panel.setBatches(1);
    SearchSpaceEditor* editor = panel.spaceEditor();
    editor->field("pp")->setText(QStringLiteral("2"));
    editor->field("tp")->setText(QStringLiteral("2,4"));
    editor->field("cp")->setText(QStringLiteral("1"));
    editor->field("recompute")->setText(QStringLiteral("full"));
    editor->field("strategy")->setText(QStringLiteral("slimpack"));
    QSignalSpy finished(&panel, &SearchPanel::finished);
    // Return in a field runs the search, as the button does.
    QTest::keyClick(editor->field("strategy"), Qt::Key_Return);
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
    QVERIFY(panel.result());
    const SearchResult& result = *panel.result();
    QVERIFY(!result.rows.empty());
    for (const SearchRow& row : result.rows) {
      QCOMPARE(row.config.p, 2);
      QVERIFY(row.config.t == 2 || row.config.t == 4);
      QCOMPARE(row.config.c, 1);
      QCOMPARE(row.config.recompute.mode, RecomputeMode::Full);
      QCOMPARE(row.config.strategy, std::string("slimpack"));
    }
    // d: every d with p * t * d <= 8, so t = 2 with d = 1, 2 and t = 4 with d = 1.
    QCOMPARE(result.rows.size(), std::size_t{3});
  }

  // An empty plot says why: no search yet, or nothing fits (the table has the reasons).
  void emptyPlotSaysWhy() {
    SearchPanel panel;
    QVERIFY(panel.chart()->view()->chart()->title().startsWith(QStringLiteral("Press Search")));
    ConfigSpec tiny;
    tiny.memory_cap_gb = 1.0;
    panel.setBasis(smallSearchWorkload(), tiny);
    panel.setGpus(4);
    panel.setBatches(1);
    QSignalSpy finished(&panel, &SearchPanel::finished);
    panel.run();
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
    QVERIFY(panel.result());
    QCOMPARE(panel.result()->stats.solved, 0);
    QVERIFY(panel.chart()->view()->chart()->title().startsWith(QStringLiteral("No configuration")));
    QVERIFY(panel.model()->rowCount() > 0);  // the infeasible ones, with their limits
  }
};

QTEST_MAIN(TestSearchSpace)
#include "test_search_space.moc"

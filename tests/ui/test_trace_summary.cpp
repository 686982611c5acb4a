// The Traces tab's GPU summary: the two-rank sample run opened in a TraceWorkspace, its summary
// computed on a worker and shown in the table (per rank, whole trace or one step) and the stacked
// chart, with the figures worked out by hand in tests/core/app/trace_summary_report_test.cpp.
#include <QBarSet>
#include <QChart>
#include <QCheckBox>
#include <QComboBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QStackedBarSeries>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QtTest>
#include <fstream>
#include <sstream>

#include "charts/gpu_time_chart.h"
#include "jobs/job_tracker.h"
#include "trace/trace_diff_model.h"
#include "trace/trace_diff_panel.h"
#include "trace/trace_summary_panel.h"
#include "trace/trace_view.h"
#include "trace/trace_workspace.h"

using namespace slimpack;
using namespace slimpack::ui;

namespace {

constexpr int kTimeoutMs = 30000;

QString sample(const char* name) {
  return QStringLiteral(SLIMPACK_SAMPLES_DIR "/traces/") + QString::fromLatin1(name);
}

double us(const QTableWidget* t, int row, int column) {
  const QTableWidgetItem* item = t->item(row, column);
  return item ? item->data(TraceSummaryPanel::MicrosecondsRole).toDouble() : -1.0;
}

bool waitIdle(TraceWorkspace& ws) {
  return QTest::qWaitFor([&] { return !ws.busy() && ws.summaryPanel()->summary(); }, kTimeoutMs);
}

// `ranks` rank files in `dir`: the two sample ranks again and again, each copy with its own
// distributedInfo.rank.
std::vector<std::string> writeRanks(const QTemporaryDir& dir, int ranks) {
  std::vector<std::string> files;
  for (int r = 0; r < ranks; ++r) {
    const std::string from = r % 2 ? "ddp/rank1.pt.trace.json" : "ddp/rank0.pt.trace.json";
    std::ifstream in(std::string(SLIMPACK_SAMPLES_DIR "/traces/") + from, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    std::string t = text.str();
    const std::string key = r % 2 ? "\"rank\": 1" : "\"rank\": 0";
    t.replace(t.find(key), key.size(), "\"rank\": " + std::to_string(r));
    files.push_back(dir.filePath(QStringLiteral("r%1.json").arg(r)).toStdString());
    std::ofstream(files.back(), std::ios::binary) << t;
  }
  return files;
}

}  // namespace

class TestTraceSummary : public QObject {
  Q_OBJECT

 private slots:
  void sampleRunTable() {
    TraceWorkspace ws;
    ws.resize(1200, 800);
    ws.show();
    ws.openTraces({sample("ddp/rank1.pt.trace.json"), sample("ddp/rank0.pt.trace.json")});
    QVERIFY(waitIdle(ws));
    // Kineto names both processes python3: their process_labels tell the groups apart.
    QStringList groups;
    for (int i = 0; i < ws.viewA()->model()->lane_count(); ++i)
      groups << QString::fromStdString(ws.viewA()->model()->lane(i).label);
    QVERIFY2(groups.join('|').contains(QStringLiteral("rank 0 · python3 (GPU 0)")),
             qPrintable(groups.join('|')));
    QVERIFY2(groups.join('|').contains(QStringLiteral("rank 1 · python3 (CPU)")),
             qPrintable(groups.join('|')));
    TraceSummaryPanel* p = ws.summaryPanel();
    QVERIFY(!p->isVisible());  // until "GPU Summary" is pressed
    auto* button = ws.findChild<QPushButton*>(QStringLiteral("traceSummaryButton"));
    QVERIFY(button);
    button->click();
    QVERIFY(p->isVisible());

    const QTableWidget* t = p->table();
    QCOMPARE(t->rowCount(), 2);
    // Ranks in rank order, whatever order the files were given in.
    QCOMPARE(t->item(0, TraceSummaryPanel::Rank)->text(), QStringLiteral("0"));
    QCOMPARE(t->item(0, TraceSummaryPanel::File)->text(), QStringLiteral("rank0.pt.trace.json"));
    // Whole trace of rank 0: span 420, busy 304.984375, computation 234.984375, exposed
    // communication 60, memcpy 10, idle 115.015625 (host 110, kernel 5.015625: the 5 us gap is
    // under HTA's 30 us kernel-wait threshold, the default --kernel-gap).
    QCOMPARE(us(t, 0, TraceSummaryPanel::Span), 420.0);
    QCOMPARE(us(t, 0, TraceSummaryPanel::Busy), 304.984375);
    QCOMPARE(us(t, 0, TraceSummaryPanel::Computation), 234.984375);
    QCOMPARE(us(t, 0, TraceSummaryPanel::Communication), 60.0);
    QCOMPARE(us(t, 0, TraceSummaryPanel::Memcpy), 10.0);
    QCOMPARE(us(t, 0, TraceSummaryPanel::Idle), 115.015625);
    QCOMPARE(us(t, 0, TraceSummaryPanel::Overlap), 60.0);
    QCOMPARE(us(t, 0, TraceSummaryPanel::IdleHost), 110.0);
    QCOMPARE(us(t, 0, TraceSummaryPanel::IdleKernel), 5.015625);
    QCOMPARE(us(t, 0, TraceSummaryPanel::IdleOther), 0.0);
    QCOMPARE(us(t, 1, TraceSummaryPanel::Busy), 295.0);
    QCOMPARE(t->item(0, TraceSummaryPanel::Span)->text(), QStringLiteral("420 us"));

    // Step 1: rank 0 computation 110, communication 20, memcpy 10, idle 60; rank 1 is slowest.
    auto* steps = p->findChild<QComboBox*>(QStringLiteral("traceSummaryStep"));
    QVERIFY(steps);
    QCOMPARE(steps->count(), 3);  // whole trace, step #1, step #2
    steps->setCurrentIndex(1);
    QCOMPARE(p->step(), std::optional<int>(1));
    QCOMPARE(us(t, 0, TraceSummaryPanel::Span), 200.0);
    QCOMPARE(us(t, 0, TraceSummaryPanel::Computation), 110.0);
    QCOMPARE(us(t, 0, TraceSummaryPanel::Communication), 20.0);
    QCOMPARE(us(t, 0, TraceSummaryPanel::Idle), 60.0);
    QCOMPARE(us(t, 1, TraceSummaryPanel::Computation), 130.0);
    QVERIFY2(p->message().contains(QStringLiteral("step 1 rank 1")), qPrintable(p->message()));

    // The chart stacks computation, communication, memcpy and idle per rank (µs below 10 ms).
    const auto series = p->chart()->chart()->series();
    QCOMPARE(series.size(), 1);
    auto* stacked = qobject_cast<QStackedBarSeries*>(series.front());
    QVERIFY(stacked);
    const auto sets = stacked->barSets();
    QCOMPARE(sets.size(), 4);
    QCOMPARE(sets[0]->label(), QStringLiteral("computation"));
    QCOMPARE(sets[0]->at(0), 110.0);
    QCOMPARE(sets[0]->at(1), 130.0);
    QCOMPARE(sets[1]->at(0), 20.0);
    QCOMPARE(sets[2]->at(0), 10.0);
    QCOMPARE(sets[3]->at(0), 60.0);
    // The four parts stack up to each rank's span.
    QCOMPARE(sets[0]->at(1) + sets[1]->at(1) + sets[2]->at(1) + sets[3]->at(1), 203.0);
  }

  // Several ranks are summarised at once on the worker pool: the panel shows what the serial
  // walk of core/app computes, rank by rank; a new run (or none) cancels a summary under way.
  void manyRanksAsSerially() {
    QTemporaryDir dir;
    TraceRunRequest request;
    request.files = writeRanks(dir, 12);
    auto run = load_trace_run(request);
    QVERIFY(run.ok());
    auto shared = std::make_shared<const TraceRun>(std::move(*run));
    auto serial = summarize_trace_run(*shared);
    QVERIFY(serial.ok());
    TraceSummaryPanel p;
    QSignalSpy done(&p, &TraceSummaryPanel::summarized);
    p.setRun(shared);
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, kTimeoutMs);
    QVERIFY(p.summary());
    QCOMPARE(run_summary_json(*p.summary()).dump(), run_summary_json(*serial).dump());
    QCOMPARE(p.table()->rowCount(), 12);
    for (int r = 0; r < 12; ++r)
      QCOMPARE(p.table()->item(r, TraceSummaryPanel::Rank)->text(), QString::number(r));
    QCOMPARE(us(p.table(), 2, TraceSummaryPanel::Busy), 304.984375);  // a copy of rank 0

    p.setRun(shared);
    p.setRun(nullptr);  // cancels the job: nothing shown, the panel idle
    QTRY_VERIFY_WITH_TIMEOUT(!p.jobs().busy(), kTimeoutMs);
    QVERIFY(!p.summary());
    QCOMPARE(p.table()->rowCount(), 0);
  }

  // The diff table compares per profiler step by default (HTA's view): means per step.
  void diffTablePerStepByDefault() {
    TraceWorkspace ws;
    QSignalSpy loaded(&ws, &TraceWorkspace::loaded);
    ws.openTraces({sample("ddp/rank0.pt.trace.json")});
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, kTimeoutMs);
    ws.openTraces({sample("ddp/rank1.pt.trace.json")}, TraceWorkspace::Slot::B);
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 2, kTimeoutMs);
    QTRY_VERIFY_WITH_TIMEOUT(!ws.busy(), kTimeoutMs);
    const TraceDiffModel& m = *ws.diff().model();
    QCOMPARE(m.comparison().a.steps, (std::vector<int>{1, 2}));
    QVERIFY(!m.comparedWhole());
    auto row = [&](const char* name) -> const NameDiff* {
      for (const NameDiff& d : m.rows())
        if (d.name == name) return &d;
      return nullptr;
    };
    // aten::mm: 4 calls over A's two steps, 2 over B's: 2 and 1 per step.
    QVERIFY(row("aten::mm"));
    QCOMPARE(row("aten::mm")->count_a, 2.0);
    QCOMPARE(row("aten::mm")->count_b, 1.0);
    QVERIFY(!row("PyTorch Profiler (0)"));  // the profiler's own span is left out
    // ProfilerStep#1 is one of two steps: 0.5 per step, shown with decimals.
    for (int r = 0; r < m.rowCount(); ++r)
      if (m.index(r, TraceDiffModel::Name).data().toString() == QStringLiteral("ProfilerStep#1"))
        QCOMPARE(m.index(r, TraceDiffModel::CountA).data().toString(), QStringLiteral("0.50"));
    // Off: the whole runs.
    auto* per_step = ws.findChild<QCheckBox*>(QStringLiteral("tracePerStep"));
    QVERIFY(per_step && per_step->isChecked());
    per_step->setChecked(false);
    QTRY_VERIFY_WITH_TIMEOUT(!ws.diff().jobs().busy() && m.comparison().a.steps.empty(),
                             kTimeoutMs);
    QCOMPARE(row("aten::mm")->count_a, 4.0);
  }

  void traceWithoutGpuSaysSo() {
    TraceWorkspace ws;
    ws.openTraces({QStringLiteral(SLIMPACK_SAMPLES_DIR "/runs/calibrate/worker-a.pt.trace.json")});
    QVERIFY(QTest::qWaitFor([&] { return !ws.busy() && !ws.summaryPanel()->message().isEmpty(); },
                            kTimeoutMs));
    TraceSummaryPanel* p = ws.summaryPanel();
    QVERIFY(!p->summary());
    QVERIFY2(p->message().contains(QStringLiteral("no GPU operation")), qPrintable(p->message()));
    QCOMPARE(p->table()->rowCount(), 0);
  }
};

QTEST_MAIN(TestTraceSummary)
#include "test_trace_summary.moc"

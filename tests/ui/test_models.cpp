// Item models (checked with QAbstractItemModelTester) and the small Qt-free helpers behind the
// panels: histogram bins, number formatting, the ops CSV and the sweep chart's click mapping.
// Every expected number is worked out by hand from the synthetic snapshot below.
#include <QAbstractItemModelTester>
#include <QBrush>
#include <QSpinBox>
#include <QTest>

#include "app/config_options.h"
#include "app/ops_csv.h"
#include "charts/histogram_bins.h"
#include "charts/sweep_chart.h"
#include "common/format.h"
#include "models/compare_model.h"
#include "models/format.h"
#include "models/metrics_model.h"
#include "models/stage_model.h"
#include "panels/compare_view.h"
#include "panels/config_panel.h"
#include "solver/strategy.h"

using namespace slimpack;
using namespace slimpack::ui;

namespace {

// One replica, two stages, makespan 4 s: stage 0 busy 3 s, stage 1 busy 2 s, so the bubble is
// 1 - 5 / (2 * 4) = 0.375; stage 1 peaks at 90 GB against an 80 GB cap.
SnapshotPtr makeSnapshot() {
  auto s = std::make_shared<ExplorerSnapshot>();
  SimResult& r = s->sim;
  r.replicas.resize(1);
  r.replicas[0].stages.resize(2);
  r.replicas[0].stages[0].busy = 3.0;
  r.replicas[0].stages[0].bubble_ratio = 0.25;
  r.replicas[0].stages[0].peak_memory_bytes = 10e9;
  r.replicas[0].stages[1].busy = 2.0;
  r.replicas[0].stages[1].bubble_ratio = 0.5;
  r.replicas[0].stages[1].peak_memory_bytes = 90e9;
  r.makespan = 4.0;
  r.iteration_time = 4.0;
  r.bubble_ratio = 0.375;
  r.tokens_per_second = 1000.0;
  r.mfu = 0.4;
  r.peak_memory_bytes = 90e9;
  s->memory_cap_bytes = 80e9;
  auto plan = std::make_shared<Plan>();
  plan->strategy = "slimpack";
  plan->slice_size = 4096;
  plan->replicas.resize(1);
  plan->replicas[0].forward.resize(3);
  plan->replicas[0].backward.resize(2);
  s->plan = plan;
  s->batch_stats.count = 12;
  s->batch_stats.total_tokens = 65536;
  return s;
}

const MetricRow* findRow(const std::vector<MetricRow>& rows, const QString& name) {
  for (const auto& r : rows)
    if (r.name == name) return &r;
  return nullptr;
}

}  // namespace

// A sweep point with the fields the chart reads (core/app/sweep.h has more).
SweepPoint sweepPoint(Tokens s, double seconds, double bubble, bool ok, std::string error) {
  SweepPoint p;
  p.slice_size = s;
  p.value = std::to_string(s);
  p.iteration_time = seconds;
  p.bubble_ratio = bubble;
  p.ok = ok;
  p.error = std::move(error);
  return p;
}

class TestModels : public QObject {
  Q_OBJECT
 private slots:
  void metricsModelRows() {
    MetricsModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model.rowCount(), 0);
    model.setSnapshot(makeSnapshot());
    QVERIFY(model.rowCount() > 8);
    QCOMPARE(model.columnCount(), 2);
    const auto& rows = model.rows();
    QCOMPARE(findRow(rows, "Iteration time")->value, QStringLiteral("4.00 s"));
    QCOMPARE(findRow(rows, "Bubble ratio")->value, QStringLiteral("37.5 %"));
    QCOMPARE(findRow(rows, "MFU")->value, QStringLiteral("40.0 %"));
    QCOMPARE(findRow(rows, "Throughput")->value, QStringLiteral("1.00 k tok/s"));
    QCOMPARE(findRow(rows, "Packs (F / B)")->value, QStringLiteral("3 / 2"));
    const MetricRow* peak = findRow(rows, "Peak memory");
    QCOMPARE(peak->value, QStringLiteral("90.0 GB / 80.0 GB"));
    QVERIFY(peak->warning);  // over the cap
    // The view shows warnings in red.
    const int peak_row = static_cast<int>(peak - rows.data());
    QVERIFY(model.data(model.index(peak_row, MetricsModel::Value), Qt::ForegroundRole).isValid());
    model.setSnapshot(nullptr);
    QCOMPARE(model.rowCount(), 0);
  }

  void stageModelRows() {
    StageModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setSnapshot(makeSnapshot());
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.columnCount(), int(StageModel::ColumnCount));
    QCOMPARE(model.data(model.index(0, StageModel::Stage)).toString(), QStringLiteral("Stage 0"));
    QCOMPARE(model.data(model.index(1, StageModel::Bubble)).toString(), QStringLiteral("50.0 %"));
    QCOMPARE(model.data(model.index(0, StageModel::Headroom), Qt::UserRole).toDouble(), 70e9);
    QCOMPARE(model.data(model.index(1, StageModel::Headroom), Qt::UserRole).toDouble(), -10e9);
    QVERIFY(model.data(model.index(1, StageModel::Headroom), Qt::ForegroundRole).isValid());
    QVERIFY(!model.data(model.index(0, StageModel::Headroom), Qt::ForegroundRole).isValid());
    QCOMPARE(model.data(model.index(1, StageModel::Busy)).toString(), QStringLiteral("2.00 s"));
  }

  void compareModelSpeedups() {
    std::vector<CompareEntry> entries(3);
    entries[0].strategy = "fixed";
    entries[0].plan = std::make_shared<Plan>();
    auto fixed = std::make_shared<SimResult>();
    fixed->iteration_time = 2.0;
    fixed->bubble_ratio = 0.3;
    entries[0].sim = fixed;
    entries[1].strategy = "slimpack";
    entries[1].plan = std::make_shared<Plan>();
    auto slim = std::make_shared<SimResult>();
    slim->iteration_time = 1.6;
    slim->peak_memory_bytes = 50e9;
    entries[1].sim = slim;
    entries[2].strategy = "balanced";
    entries[2].outcome = RowOutcome::Infeasible;
    entries[2].reason = "sequence s3 fits no stage";
    InfeasibleDetail over;
    over.limit = Limit::StageMemory;
    over.stage = 2;
    over.needed = 83.3e9;
    over.cap = 80e9;
    entries[2].limit = over;
    set_compare_speedups(entries);  // as run_compare does
    CompareModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setEntries(entries);
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.data(model.index(0, CompareModel::Speedup), Qt::UserRole).toDouble(), 1.0);
    QCOMPARE(model.data(model.index(1, CompareModel::Speedup), Qt::UserRole).toDouble(), 1.25);
    QCOMPARE(model.data(model.index(1, CompareModel::Speedup)).toString(), QStringLiteral("1.25x"));
    QCOMPARE(model.data(model.index(1, CompareModel::PeakMemory)).toString(),
             QStringLiteral("50.0 GB"));
    QCOMPARE(model.data(model.index(2, CompareModel::IterationTime)).toString(),
             QStringLiteral("infeasible"));
    // The binding limit comes as values: what the stage needs, shown and sortable.
    QCOMPARE(model.data(model.index(2, CompareModel::PeakMemory)).toString(),
             QStringLiteral("needs 83.3 GB (stage 2)"));
    QCOMPARE(model.data(model.index(2, CompareModel::PeakMemory), Qt::UserRole).toDouble(), 83.3e9);
    QCOMPARE(model.data(model.index(2, CompareModel::Strategy), Qt::ToolTipRole).toString(),
             QStringLiteral("sequence s3 fits no stage"));
    model.setEntries({});
    QCOMPARE(model.rowCount(), 0);
  }

  // The first strategy failed: the baseline is the first that solved, never a 0.00x column.
  void compareBaselineIsTheFirstSolvedStrategy() {
    std::vector<CompareEntry> entries(3);
    entries[0].strategy = "fixed";
    entries[0].outcome = RowOutcome::Infeasible;
    entries[0].reason =
        "sequence 's16' does not fit: needs 93100000000 bytes, cap 80000000000 bytes";
    for (int i : {1, 2}) {
      entries[i].strategy = i == 1 ? "sliced" : "slimpack";
      entries[i].plan = std::make_shared<Plan>();
      auto sim = std::make_shared<SimResult>();
      sim->iteration_time = i == 1 ? 3.0 : 2.0;
      entries[i].sim = sim;
    }
    set_compare_speedups(entries);
    CompareModel model;
    model.setEntries(entries);
    QCOMPARE(model.rows()[1].speedup, 1.0);
    QVERIFY(model.rows()[1].baseline);
    QCOMPARE(model.rows()[2].speedup, 1.5);
    QCOMPARE(model.data(model.index(1, CompareModel::Speedup)).toString(),
             QStringLiteral("1.00x (baseline)"));
    // The failure's reason is in the row, in GB.
    const QString why = model.data(model.index(0, CompareModel::Speedup)).toString();
    QVERIFY2(why.contains("93.1 GB") && why.contains("80.0 GB"), qPrintable(why));
  }

  void readableMessages() {
    QCOMPARE(readableMessage(std::string("needs 80011054848 bytes, cap 8e10")),
             QStringLiteral("needs 80.0 GB, cap 8e10"));
    // Bytes of a binary file: escaped, not mojibake; valid UTF-8 stays.
    const std::string garbage = std::string("bad.csv: line 1: \xff\xfe") + "\x01 é";
    QCOMPARE(readableMessage(garbage), QStringLiteral("bad.csv: line 1: \\xff\\xfe\\x01 é"));
    QCOMPARE(readableMessage(std::string(1000, 'a'), 10).size(), 10);
  }

  void interleavedFallbackIsNamed() {
    ExplorerSnapshot s;
    auto plan = std::make_shared<Plan>();
    plan->stages = 4;
    plan->vchunks = 2;
    plan->schedule = ScheduleKind::Interleaved;
    plan->replicas.resize(1);
    plan->replicas[0].forward.resize(6);  // not a multiple of p = 4: runs 1F1B
    plan->replicas[0].backward.resize(6);
    s.plan = plan;
    const QString why = interleavedFallback(s);
    QVERIFY2(why.startsWith("Interleaved fell back to 1F1B") && why.contains("p = 4") &&
                 why.contains("6 forward packs"),
             qPrintable(why));
    bool row = false;
    for (const MetricRow& r : metric_rows(s))
      if (r.name == "Schedule") row = r.warning && r.value.contains("1F1B") && r.tooltip == why;
    QVERIFY(row);
    plan->replicas[0].forward.resize(8);
    plan->replicas[0].backward.resize(8);
    QVERIFY(interleavedFallback(s).isEmpty());
    // Asymmetric packing: as many packs as p would allow, but Mf != Mb (the old check missed it,
    // while the simulator ran 1F1B).
    plan->replicas[0].backward.resize(12);
    QVERIFY2(interleavedFallback(s).contains("8 forward and 12 backward packs"),
             qPrintable(interleavedFallback(s)));
    plan->replicas[0].backward.resize(8);
    plan->vchunks = 1;
    QVERIFY(interleavedFallback(s).contains("v = 1"));
  }

  // The automatic S is explained by the strategy's properties and the typed chosen candidate,
  // never by the strategy's name or the notes' text.
  void autoSliceIsExplainedByTypedFields() {
    ExplorerSnapshot s;
    auto plan = std::make_shared<Plan>();
    plan->slice_size = 8192;
    s.plan = plan;
    s.config.strategy = "slimpack";
    s.solve_stats.notes = "chosen: S=1 Mf=1 simulated=1s";  // text nobody reads
    s.solve_stats.chosen_candidate = "S=8192 Mf=12 Mb=14";
    QCOMPARE(autoSliceReason(s), QString("the fastest simulated candidate (S=8192 Mf=12 Mb=14)"));
    // What it was compared against, as the solve says.
    s.solve_stats.compared = "S = 512..131072 (9 sizes), packs balanced";
    QCOMPARE(autoSliceReason(s), QString("the fastest simulated candidate (S=8192 Mf=12 Mb=14) of "
                                         "S = 512..131072 (9 sizes), packs balanced"));
    s.solve_stats.compared.clear();
    s.solve_stats.chosen_candidate.clear();
    QCOMPARE(autoSliceReason(s), QString("the fastest simulated candidate"));
    s.config.strategy = "sliced";
    QCOMPARE(autoSliceReason(s), QString("the sliced strategy's default S"));
    s.config.slice_size = 4096;  // a chosen S needs no reason
    QVERIFY(autoSliceReason(s).isEmpty());
  }

  // The comparison checks the baseline and every slicing strategy by default (registry
  // properties), in registry order.
  void compareDefaultsComeFromStrategyProperties() {
    CompareView view;
    QStringList expected;
    for (const auto& name : strategy_names()) {
      const auto info = strategy_info(name);
      QVERIFY(info.has_value());
      if (info->is_baseline || info->uses_slices) expected << QString::fromStdString(name);
    }
    QCOMPARE(view.selectedStrategies(), expected);
    QCOMPARE(expected, QStringList({"fixed", "sliced", "slimpack"}));
  }

  // The panel's spin boxes may be narrower than the option table (a slider needs an end) but never
  // offer a value the CLI and the session file would refuse.
  void configPanelRangesLieInTheOptionTable() {
    ConfigPanel panel;
    const std::pair<const char*, QSpinBox*> boxes[] = {
        {"pp", panel.ppBox()}, {"tp", panel.tpBox()},           {"vchunks", panel.vchunksBox()},
        {"cp", panel.cpBox()}, {"context", panel.contextBox()}, {"slice", panel.sliceSpin()}};
    for (const auto& [flag, box] : boxes) {
      const ConfigOption* option = find_option(flag);
      QVERIFY2(option && option->kind == OptionKind::Integer, flag);
      QVERIFY2(box->minimum() >= option->min_int, flag);
      QVERIFY2(box->maximum() <= option->max_int, flag);
    }
  }

  void sweepPointTooltips() {
    SweepPoint ok = sweepPoint(2048, 4.75, 0.125, true, {});
    QCOMPARE(SweepChart::pointText(ok),
             QStringLiteral("S = 2,048: iteration 4.75 s, bubble 12.5 %\nClick to use this S"));
    SweepPoint bad = sweepPoint(512, 0, 0, false, "needs 93100000000 bytes");
    QCOMPARE(SweepChart::pointText(bad), QStringLiteral("S = 512: infeasible\nneeds 93.1 GB"));
    const std::vector<SweepPoint> pts{bad, ok};
    QCOMPARE(SweepChart::pointAt(pts, 600.0), 0);       // infeasible points have tooltips too
    QCOMPARE(SweepChart::nearestPoint(pts, 600.0), 1);  // but only feasible ones are clicked
  }

  void sliderPositionsArePowersOfTwo() {
    QCOMPARE(ConfigPanel::sliceOfIndex(0), Tokens{0});
    QCOMPARE(ConfigPanel::sliceOfIndex(1), Tokens{512});
    QCOMPARE(ConfigPanel::sliceOfIndex(5), Tokens{8192});
    QCOMPARE(ConfigPanel::sliderIndexOf(0), 0);
    QCOMPARE(ConfigPanel::sliderIndexOf(512), 1);
    QCOMPARE(ConfigPanel::sliderIndexOf(3000), 3);  // 2048 <= 3000 < 4096
    QCOMPARE(ConfigPanel::sliderIndexOf(8192), 5);
  }

  void log2Bins() {
    const auto bins = log2_bins({1, 2, 3, 4, 7, 8, 100});
    QCOMPARE(bins.size(), std::size_t{7});  // [1,2) ... [64,128)
    QCOMPARE(bins[0].lo, Tokens{1});
    QCOMPARE(bins[0].count, 1);
    QCOMPARE(bins[1].count, 2);  // 2, 3
    QCOMPARE(bins[2].count, 2);  // 4, 7
    QCOMPARE(bins[2].tokens, Tokens{11});
    QCOMPARE(bins[3].count, 1);  // 8
    QCOMPARE(bins[4].count, 0);  // [16,32) kept, empty
    QCOMPARE(bins[6].lo, Tokens{64});
    QCOMPARE(bins[6].hi, Tokens{128});
    QCOMPARE(bins[6].count, 1);
    QVERIFY(log2_bins({}).empty());
    // 1024 sits at the start of its bin, 1023 at the end of the previous one.
    const auto edge = log2_bins({1023, 1024});
    QCOMPARE(edge.size(), std::size_t{2});
    QCOMPARE(edge[1].lo, Tokens{1024});
  }

  void formatting() {
    // Three significant digits, as the CLI and the Gantt tooltips print them (core/common/format).
    QCOMPARE(formatTime(0.0123), QStringLiteral("12.3 ms"));
    QCOMPARE(formatTime(0.5), QStringLiteral("500 ms"));
    QCOMPARE(formatTime(1.5), QStringLiteral("1.50 s"));
    QCOMPARE(formatTime(42e-6), QStringLiteral("42.0 us"));
    QCOMPARE(formatTime(33, "units"), QStringLiteral("33.0 units"));
    QCOMPARE(formatBytes(61.3e9), QStringLiteral("61.3 GB"));
    QCOMPARE(formatBytes(7.5e9), QStringLiteral("7.50 GB"));
    QCOMPARE(QString::fromStdString(slimpack::format_bytes(7.5e9)), formatBytes(7.5e9));
    QCOMPARE(formatPercent(0.125), QStringLiteral("12.5 %"));
    QCOMPARE(formatTokens(1048576), QStringLiteral("1.05 M"));
    QCOMPARE(formatTokens(65536), QStringLiteral("65,536"));
  }

  void opsCsv() {
    Plan plan;
    plan.sequences = {{"a", 100}, {"b", 28}};
    plan.replicas.resize(1);
    Pack f;
    f.segments = {{0, 0, 100}, {1, 0, 28}};
    plan.replicas[0].forward = {f};
    plan.replicas[0].backward = {f};
    SimResult r;
    r.replicas.resize(1);
    r.replicas[0].stages.resize(1);
    TimedOp fw{0.0, 1.0, 0, 0, 0, OpKind::Forward};
    TimedOp bw{1.0, 3.5, 0, 0, 0, OpKind::Backward};
    TimedOp opt{3.5, 4.0, -1, 0, 0, OpKind::Optimizer};
    r.replicas[0].stages[0].ops = {fw, bw, opt};
    const std::string csv = ops_csv(plan, r);
    const std::string expected =
        std::string("replica,stage,kind,pack,name,start,end,duration,tokens\n") + "0,0," +
        op_kind_name(OpKind::Forward) + ",0,F1,0,1,1,128\n" + "0,0," +
        op_kind_name(OpKind::Backward) + ",0,B1,1,3.5,2.5,128\n" + "0,0," +
        op_kind_name(OpKind::Optimizer) + ",,,3.5,4,0.5,\n";
    QCOMPARE(QString::fromStdString(csv), QString::fromStdString(expected));
  }

  void sweepClickPicksNearestFeasiblePoint() {
    std::vector<SweepPoint> pts(4);
    pts[0] = sweepPoint(512, 1.0, 0.1, true, {});
    pts[1] = sweepPoint(1024, 0.9, 0.1, true, {});
    pts[2] = sweepPoint(2048, 0.0, 0.0, false, "infeasible");
    pts[3] = sweepPoint(4096, 0.8, 0.2, true, {});
    // log2(2000) = 10.97: 1024 is 0.97 away, 4096 is 1.03 away; 2048 is infeasible.
    QCOMPARE(SweepChart::nearestPoint(pts, 2000), 1);
    QCOMPARE(SweepChart::nearestPoint(pts, 4000), 3);
    QCOMPARE(SweepChart::nearestPoint(pts, 100), 0);
    QCOMPARE(SweepChart::nearestPoint({}, 100), -1);
  }
};

QTEST_MAIN(TestModels)
#include "test_models.moc"

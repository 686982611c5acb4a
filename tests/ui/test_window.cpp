// Main window behaviour on the offscreen platform: the default workload shows a result; a bad
// file (dropped or opened) reports file/line/reason once and keeps the current session; the
// slider re-solves live. Also prints two measured figures (not asserted: tests never depend on
// wall-clock time): slider change -> new picture, and the longest GUI-thread stall while jobs run.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QInputDialog>
#include <QLineEdit>
#include <QMenuBar>
#include <QMimeData>
#include <QPushButton>
#include <QScopeGuard>
#include <QScreen>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <thread>

#include "gantt/gantt_view.h"
#include "jobs/job_tracker.h"
#include "open_window.h"
#include "panels/compare_view.h"
#include "panels/config_panel.h"
#include "panels/search_panel.h"
#include "panels/search_space_editor.h"
#include "sim/simulator.h"
#include "stall_probe.h"
#include "trace/trace_workspace.h"
#include "window/explorer_args.h"
#include "window/explorer_controller.h"
#include "window/exporter.h"
#include "window/main_window.h"
#include "window/presentation_mode.h"
#include "window/saved_views.h"
#include "window/session_io.h"
#include "window/settings.h"

using namespace slimpack;
using namespace slimpack::ui;

namespace {
// A minute for a result; sanitizer builds run several times slower and scale it
// (SLIMPACK_TEST_TIMEOUT_SCALE, set by scripts/sanitizers.sh). A limit, never a measurement.
int timeoutScale() {
  const int scale = qEnvironmentVariableIntValue("SLIMPACK_TEST_TIMEOUT_SCALE");
  return scale > 1 ? scale : 1;
}
const int kResultTimeoutMs = 60000 * timeoutScale();

void dropFile(QWidget* target, const QString& path) {
  QMimeData mime;
  mime.setUrls({QUrl::fromLocalFile(path)});
  // As a real drag does: the drop only reaches a widget that accepted the drag entering it.
  QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QCoreApplication::sendEvent(target, &enter);
  QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  QCoreApplication::sendEvent(target, &drop);
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
  const QString path = dir.filePath(name);
  QFile f(path);
  f.open(QIODevice::WriteOnly);
  f.write(text);
  return path;
}
}  // namespace

class TestWindow : public QObject {
  Q_OBJECT
 private:
  QTemporaryDir dir_;
  std::unique_ptr<Settings> settings_;
  std::unique_ptr<MainWindow> window_;

 private slots:
  void initTestCase() { window_ = openTestWindow(dir_, settings_); }
  void cleanupTestCase() { window_.reset(); }

  void opensOnTheDefaultWorkload() {
    ExplorerController& c = window_->controller();
    QTRY_VERIFY_WITH_TIMEOUT(c.snapshot() != nullptr, kResultTimeoutMs);
    const auto& s = *c.snapshot();
    QCOMPARE(s.workload.preset, std::string(kDefaultPreset));
    QCOMPARE(s.workload.seed, kDefaultSeed);
    QVERIFY(s.batch_stats.total_tokens >= kDefaultBatchTokens);
    QVERIFY(s.sim.iteration_time > 0);
    QVERIFY(window_->ganttView()->model() == s.gantt);
    QCOMPARE(window_->ganttView()->model()->stages(), s.config.pp);
  }

  void droppedBadLengthFileShowsErrorAndKeepsSession() {
    ExplorerController& c = window_->controller();
    QTRY_VERIFY_WITH_TIMEOUT(c.snapshot() && !c.busy(), kResultTimeoutMs);
    const SnapshotPtr before = c.snapshot();
    const SessionFile session = window_->session().currentSession();
    const QString bad = writeFile(dir_, "bad_lengths.csv", "length\n512\nlots\n1024\n");
    QSignalSpy errors(window_.get(), &MainWindow::errorShown);
    dropFile(window_.get(), bad);
    QTRY_COMPARE_WITH_TIMEOUT(errors.count(), 1, kResultTimeoutMs);
    const QString title = errors.at(0).at(0).toString();
    const QString message = errors.at(0).at(1).toString();
    QVERIFY2(title.contains("bad_lengths.csv"), qPrintable(title));
    QVERIFY2(message.contains("bad_lengths.csv") && message.contains("3"), qPrintable(message));
    QVERIFY(!c.busy());
    QVERIFY(c.snapshot() == before);
    QVERIFY(window_->session().currentSession().workload == session.workload);
    QVERIFY(window_->session().currentSession().config == session.config);
  }

  void openedBadSessionAndBadPlanShowErrors() {
    ExplorerController& c = window_->controller();
    const SnapshotPtr before = c.snapshot();
    QSignalSpy errors(window_.get(), &MainWindow::errorShown);
    window_->session().openFile(
        writeFile(dir_, "broken.slimpack", "{\"format\": \"slimpack-session\","));
    QCOMPARE(errors.count(), 1);  // sessions are read synchronously (they are tiny)
    QVERIFY(errors.at(0).at(1).toString().contains("broken.slimpack"));
    const QString plan = writeFile(
        dir_, "bad_plan.json",
        R"({"format":"slimpack-plan","version":1,"stages":2,"sequences":[{"id":"a","length":8}],)"
        R"("forward_packs":[{"segments":[{"seq":"zz"}]}],"backward_packs":[]})");
    window_->session().openFile(plan);
    QTRY_COMPARE_WITH_TIMEOUT(errors.count(), 2, kResultTimeoutMs);
    QVERIFY2(errors.at(1).at(1).toString().contains("bad_plan.json"),
             qPrintable(errors.at(1).at(1).toString()));
    QVERIFY(c.snapshot() == before);
  }

  // A bad list typed in the Search tab reaches the window's error dialog, named by its field.
  void badSearchSpaceShowsError() {
    QSignalSpy errors(window_.get(), &MainWindow::errorShown);
    SearchPanel* search = window_->searchPanel();
    search->spaceEditor()->field("cp")->setText(QStringLiteral("1,0"));
    search->run();
    QCOMPARE(errors.count(), 1);
    QCOMPARE(errors.at(0).at(0).toString(), QStringLiteral("Cannot search"));
    QVERIFY2(errors.at(0).at(1).toString().startsWith(QStringLiteral("Search space, c: ")),
             qPrintable(errors.at(0).at(1).toString()));
    QVERIFY(!search->jobs().busy());
    search->spaceEditor()->field("cp")->clear();
  }

  void droppedGoodLengthFileReplacesWorkload() {
    ExplorerController& c = window_->controller();
    const QString good = QStringLiteral(SLIMPACK_SAMPLES_DIR "/lengths/chat_sft_lengths.csv");
    dropFile(window_.get(), good);
    QTRY_VERIFY_WITH_TIMEOUT(
        c.snapshot() && c.snapshot()->workload.file == good.toStdString() && !c.busy(),
        kResultTimeoutMs);
    QVERIFY(settings_->recentFiles().contains(good));
    // Back to the default preset for the following tests.
    WorkloadSpec w;
    c.setWorkload(w);
    QTRY_VERIFY_WITH_TIMEOUT(c.snapshot()->workload == w && !c.busy(), kResultTimeoutMs);
  }

  void droppedPlanIsShownInsteadOfSolving() {
    ExplorerController& c = window_->controller();
    QTRY_VERIFY_WITH_TIMEOUT(c.snapshot() && !c.busy(), kResultTimeoutMs);
    const ConfigSpec config = c.config();
    const QString plan = QStringLiteral(SLIMPACK_SAMPLES_DIR "/plans/asymmetric-example.json");
    dropFile(window_.get(), plan);
    QTRY_VERIFY_WITH_TIMEOUT(!c.busy() && c.snapshot()->plan_file == plan.toStdString(),
                             kResultTimeoutMs);
    const auto& snap = *c.snapshot();
    QCOMPARE(snap.plan->strategy, std::string("hand-made"));
    QCOMPARE(snap.plan->slice_size, Tokens{4096});
    QCOMPARE(window_->ganttView()->model()->stages(), 4);
    QCOMPARE(snap.sim.time_unit, std::string("units"));  // the plan's own abstract times
    QVERIFY(window_->windowTitle().contains("asymmetric-example.json"));
    // One name, no doubled program name: the platform adds " — SlimPack Explorer" itself.
    QVERIFY(!window_->windowTitle().contains("SlimPack Explorer"));
    QCOMPARE(settings_->recentFiles().front(), plan);
    // Back to solving the workload with the configuration the plan did not change.
    c.clearPlan();
    QTRY_VERIFY_WITH_TIMEOUT(!c.busy() && c.snapshot()->plan_file.empty(), kResultTimeoutMs);
    ConfigSpec restored = c.config();
    restored.strategy = config.strategy;
    c.setConfig(restored);
    QTRY_VERIFY_WITH_TIMEOUT(!c.busy() && c.snapshot()->plan->strategy == config.strategy,
                             kResultTimeoutMs);
  }

  // A production trace's CSV (TIMESTAMP,ContextTokens,GeneratedTokens) has no "length" column:
  // dropping it asks which column, driven here with real key and mouse events; the choice loads
  // the file, is remembered for it (no question the next time) and the panel can switch it.
  void multiColumnCsvAsksForItsColumnAndRemembersIt() {
    ExplorerController& c = window_->controller();
    QTRY_VERIFY_WITH_TIMEOUT(c.snapshot() && !c.busy(), kResultTimeoutMs);
    const QString csv = QStringLiteral(SLIMPACK_SOURCE_DIR "/tests/cli/inputs/three-columns.csv");
    // With dialogs off (as in tests and screenshots) nobody is asked: the reader's reason is
    // reported and the session stays.
    const WorkloadSpec before = c.workload();
    QSignalSpy errors(window_.get(), &MainWindow::errorShown);
    dropFile(window_.get(), csv);
    QTRY_VERIFY_WITH_TIMEOUT(errors.count() == 1 && !c.busy(), kResultTimeoutMs);
    QVERIFY(errors.front().at(1).toString().contains("pick one with --column"));
    QCOMPARE(c.workload(), before);

    window_->setErrorDialogsEnabled(true);
    auto dialogsOff = qScopeGuard([this] { window_->setErrorDialogsEnabled(false); });
    QStringList offered;
    int asked = 0;
    QTimer answer;
    answer.setInterval(20);
    QObject::connect(&answer, &QTimer::timeout, [&] {
      auto* dialog = window_->findChild<QInputDialog*>(QStringLiteral("lengthColumnDialog"));
      if (dialog == nullptr || !dialog->isVisible()) return;
      ++asked;
      offered = dialog->comboBoxItems();
      auto* combo = dialog->findChild<QComboBox*>();
      QTest::keyClick(combo, Qt::Key_C);  // the first item starting with C: ContextTokens
      auto* ok = dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
      QTest::mouseClick(ok, Qt::LeftButton);
    });
    answer.start();
    dropFile(window_.get(), csv);
    QTRY_VERIFY2_WITH_TIMEOUT(!c.busy() && c.snapshot()->workload.file == csv.toStdString(),
                              qPrintable(QStringLiteral("asked %1 times").arg(asked)),
                              kResultTimeoutMs);
    QCOMPARE(asked, 1);
    QCOMPARE(offered, QStringList({"TIMESTAMP", "ContextTokens", "GeneratedTokens"}));
    // (asked once: the dialog closed with the choice)
    QCOMPARE(c.snapshot()->workload.column, std::string("ContextTokens"));
    QCOMPARE(c.snapshot()->batch_stats.count, std::int64_t{6});
    QCOMPARE(c.snapshot()->batch_stats.max, Tokens{879});
    QCOMPARE(settings_->lengthColumn(csv), QStringLiteral("ContextTokens"));

    // Back to the preset, then the same file again: the remembered column, no question.
    c.setWorkload(WorkloadSpec{});
    QTRY_VERIFY_WITH_TIMEOUT(!c.busy() && c.snapshot()->workload.file.empty(), kResultTimeoutMs);
    dropFile(window_.get(), csv);
    QTRY_VERIFY_WITH_TIMEOUT(!c.busy() && c.snapshot()->workload.file == csv.toStdString(),
                             kResultTimeoutMs);
    QCOMPARE(asked, 1);
    QCOMPARE(c.snapshot()->workload.column, std::string("ContextTokens"));

    // The Column field switches it: typed, then Enter.
    auto* field = window_->findChild<QLineEdit*>(QStringLiteral("lengthColumn"));
    QVERIFY(field && field->isEnabled());
    field->selectAll();
    QTest::keyClicks(field, QStringLiteral("GeneratedTokens"));
    QTest::keyClick(field, Qt::Key_Return);
    QTRY_VERIFY_WITH_TIMEOUT(!c.busy() && c.snapshot()->workload.column == "GeneratedTokens",
                             kResultTimeoutMs);
    QCOMPARE(c.snapshot()->batch_stats.max, Tokens{109});
    answer.stop();
    c.setWorkload(WorkloadSpec{});
    QTRY_VERIFY_WITH_TIMEOUT(!c.busy() && c.snapshot()->workload.file.empty(), kResultTimeoutMs);
  }

  // `slimpack-explorer --column NAME FILE`: the command line's column opens the file at once.
  void commandLineColumnOpensAMultiColumnFile() {
    ExplorerController& c = window_->controller();
    QTRY_VERIFY_WITH_TIMEOUT(c.snapshot() && !c.busy(), kResultTimeoutMs);
    const QString csv = QStringLiteral(SLIMPACK_SOURCE_DIR "/tests/cli/inputs/three-columns.csv");
    const ExplorerArgs args =
        parse_explorer_args({"slimpack-explorer", "--column", "GeneratedTokens", csv});
    QCOMPARE(args.column, QStringLiteral("GeneratedTokens"));
    open_from_args(*window_, args);
    QTRY_VERIFY_WITH_TIMEOUT(!c.busy() && c.snapshot()->workload.file == csv.toStdString(),
                             kResultTimeoutMs);
    QCOMPARE(c.snapshot()->workload.column, std::string("GeneratedTokens"));
    QCOMPARE(c.snapshot()->batch_stats.max, Tokens{109});
    c.setWorkload(WorkloadSpec{});
    QTRY_VERIFY_WITH_TIMEOUT(!c.busy() && c.snapshot()->workload.file.empty(), kResultTimeoutMs);
  }

  // A schedule's setup fixes its cost model: the explorer shows the times `slimpack simulate
  // --plan SCHEDULE` gives, whatever the panel held, until the user changes the configuration.
  void droppedScheduleIsPricedByItsOwnSetup() {
    ExplorerController& c = window_->controller();
    QTRY_VERIFY_WITH_TIMEOUT(c.snapshot() && !c.busy(), kResultTimeoutMs);
    const ConfigSpec before = c.config();
    const QString file = QStringLiteral(SLIMPACK_SAMPLES_DIR "/schedules/tiny-p4.schedule.json");
    auto loaded = load_schedule_file(file.toStdString());
    QVERIFY(loaded.ok());
    auto expected = simulate(*loaded->plan, loaded->cost.get());
    QVERIFY(expected.ok());
    dropFile(window_.get(), file);
    QTRY_VERIFY_WITH_TIMEOUT(!c.busy() && c.snapshot()->plan_file == file.toStdString(),
                             kResultTimeoutMs);
    QCOMPARE(c.snapshot()->sim.iteration_time, expected->iteration_time);
    QCOMPARE(c.snapshot()->cost->model().name, std::string("tiny-8x256"));
    // The tiny model is no preset: the panel keeps its model and split, so the sweep and a
    // re-priced plan stay consistent.
    QCOMPARE(c.config().model, before.model);
    QCOMPARE(c.config().stage_split, before.stage_split);
    QCOMPARE(c.config().tp, 1);
    // A configuration change re-prices the plan with the panel's model.
    ConfigSpec edited = c.config();
    edited.tp = 8;
    c.setConfig(edited);
    QTRY_VERIFY_WITH_TIMEOUT(
        !c.busy() && c.snapshot()->cost && c.snapshot()->cost->model().name == before.model,
        kResultTimeoutMs);
    c.clearPlan();
    QTRY_VERIFY_WITH_TIMEOUT(!c.busy() && c.snapshot()->plan_file.empty(), kResultTimeoutMs);
    c.setConfig(before);
    QTRY_VERIFY_WITH_TIMEOUT(!c.busy() && c.snapshot()->config == before, kResultTimeoutMs);
  }

  void dockLayoutIsRestoredInTheNextWindow() {
    QTemporaryDir dir;
    auto settings = Settings::fromFile(dir.filePath("layout.ini"));
    QSize size;
    {
      MainWindow first(*settings);
      first.setErrorDialogsEnabled(false);
      first.resize(1200, 800);
      first.show();
      first.findChild<QDockWidget*>(QStringLiteral("dock.memory"))->hide();
      size = first.size();  // at least the docks' minimum sizes
      first.close();        // saves geometry and dock state
    }
    MainWindow second(*settings);
    second.setErrorDialogsEnabled(false);
    second.show();
    QVERIFY(!second.findChild<QDockWidget*>(QStringLiteral("dock.memory"))->isVisible());
    QVERIFY(second.findChild<QDockWidget*>(QStringLiteral("dock.metrics"))->isVisible());
    // The size comes back as far as this screen holds it (the offscreen screen is 800x600: a
    // 1200x800 window restored whole opened larger than the screen).
    const QRect avail = second.screen()->availableGeometry();
    const QSize least = second.minimumSizeHint();
    QCOMPARE(second.width(), std::max(least.width(), std::min(size.width(), avail.width() - 16)));
    QCOMPARE(second.height(),
             std::max(least.height(), std::min(size.height(), avail.height() - 48)));
    second.close();
  }

  // Moves the slider to `step` and returns the milliseconds until the picture of that S has been
  // painted (an event loop stops on the snapshot: the clock stops at the repaint, not at a poll).
  double sliderToPictureMs(int step) {
    ExplorerController& c = window_->controller();
    const Tokens want = ConfigPanel::sliceOfIndex(step);
    QEventLoop loop;
    QElapsedTimer clock;
    double ms = -1;
    connect(&c, &ExplorerController::snapshotChanged, &loop, [&](const SnapshotPtr& s) {
      if (s->config.slice_size != want) return;
      window_->ganttView()->repaint();
      ms = static_cast<double>(clock.nsecsElapsed()) / 1e6;
      loop.quit();
    });
    QTimer::singleShot(kResultTimeoutMs, &loop, &QEventLoop::quit);
    clock.start();
    window_->configPanel()->sliceSlider()->setValue(step);
    loop.exec();
    if (c.snapshot()->config.slice_size != want) return -1;
    if (window_->ganttView()->model() != c.snapshot()->gantt) return -1;
    return ms;
  }

  static double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  }

  void sliderResolvesLiveAndMeasuresLatency() {
    ExplorerController& c = window_->controller();
    // A single change after a pause: it runs at once.
    std::vector<double> single;
    for (int step : {3, 4, 5, 2}) {  // S = 2K, 4K, 8K, 1K
      QTRY_VERIFY_WITH_TIMEOUT(!c.busy(), kResultTimeoutMs);
      QTest::qWait(2 * ExplorerController::kDebounceMs);
      single.push_back(sliderToPictureMs(step));
      QVERIFY(single.back() >= 0);
    }
    // Changes in quick succession, as in a drag: each waits for the coalescing window.
    std::vector<double> drag;
    for (int step : {4, 3, 5, 2}) {
      drag.push_back(sliderToPictureMs(step));
      QVERIFY(drag.back() >= 0);
    }
    qInfo(
        "MEASURE slider->picture on the default workload: single change median %.1f ms (max "
        "%.1f); during a drag median %.1f ms (max %.1f; includes the %d ms coalescing window)",
        median(single), *std::max_element(single.begin(), single.end()), median(drag),
        *std::max_element(drag.begin(), drag.end()), ExplorerController::kDebounceMs);
  }

  void exportsWriteFiles() {
    ExplorerController& c = window_->controller();
    QTRY_VERIFY_WITH_TIMEOUT(c.snapshot() && !c.busy(), kResultTimeoutMs);
    Exporter& ex = window_->exporter();
    QSignalSpy done(&ex, &Exporter::exported);
    QSignalSpy failed(&ex, &Exporter::failed);
    const QString png = dir_.filePath("gantt.png");
    GanttExportOptions options;
    options.scale = 2.0;
    ex.setImageOptions(options);
    ex.exportTo(Exporter::Kind::Image, png);
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 1, kResultTimeoutMs);
    QImage image(png);
    QVERIFY(!image.isNull());
    QCOMPARE(image.width(), 2 * options.width);  // the scale factor multiplies the pixels
    const QString csv = dir_.filePath("ops.csv");
    ex.exportTo(Exporter::Kind::OpsCsv, csv);
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 2, kResultTimeoutMs);
    QFile f(csv);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QCOMPARE(f.readLine().trimmed(),
             QByteArray("replica,stage,kind,pack,name,start,end,duration,tokens"));
    const QString trace = dir_.filePath("trace.json");
    ex.exportTo(Exporter::Kind::ChromeTrace, trace);
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 3, kResultTimeoutMs);
    QVERIFY(QFileInfo(trace).size() > 0);
    // Into a FIFO: written in place through the output-file rule, never replaced.
    const std::string fifo = dir_.filePath("ops.fifo").toStdString();
    QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
    QByteArray piped;
    std::thread reader([&] {
      QFile in(QString::fromStdString(fifo));
      if (in.open(QIODevice::ReadOnly)) piped = in.readAll();
    });
    const auto release = qScopeGuard([&] {
      if (!reader.joinable()) return;
      const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);  // wakes a reader still waiting
      if (fd >= 0) ::close(fd);
      reader.join();
    });
    ex.exportTo(Exporter::Kind::OpsCsv, QString::fromStdString(fifo));
    QTRY_COMPARE_WITH_TIMEOUT(done.count(), 4, kResultTimeoutMs);
    reader.join();
    QVERIFY(piped.startsWith("replica,stage,kind,pack,name,start,end,duration,tokens"));
    struct stat sb {};
    QCOMPARE(::lstat(fifo.c_str(), &sb), 0);
    QVERIFY(S_ISFIFO(sb.st_mode));
    ex.exportTo(Exporter::Kind::Image, dir_.filePath("gantt.bmp"));  // unsupported extension
    QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, kResultTimeoutMs);
    QVERIFY(!QFileInfo::exists(dir_.filePath("gantt.bmp")));
  }

  void costProfileIsCheckedBeforeItIsUsed() {
    ExplorerController& c = window_->controller();
    QTRY_VERIFY_WITH_TIMEOUT(c.snapshot() && !c.busy(), kResultTimeoutMs);
    const double builtin = c.snapshot()->sim.iteration_time;
    QSignalSpy errors(window_.get(), &MainWindow::errorShown);
    // A broken profile: one dialog naming the file, and the configuration is unchanged.
    const QString bad = writeFile(dir_, "bad.profile.json", "{\"format\": \"nope\"}");
    c.setCostFiles(bad, QString());
    QTRY_COMPARE_WITH_TIMEOUT(errors.count(), 1, kResultTimeoutMs);
    QVERIFY(errors.at(0).at(0).toString().contains("bad.profile.json"));
    QVERIFY(c.config().cost_profile_file.empty());
    QVERIFY(!c.busy());
    // The sample H100 profile: the configuration names it, the panel shows it, and the fitted
    // coefficients change the simulated iteration.
    const QString good = QStringLiteral(SLIMPACK_SAMPLES_DIR "/costs/h100-llama-3-8b.profile.json");
    c.setCostFiles(good, QString());
    QTRY_VERIFY_WITH_TIMEOUT(
        !c.busy() && c.snapshot()->config.cost_profile_file == good.toStdString(),
        kResultTimeoutMs);
    QCOMPARE(errors.count(), 1);
    QVERIFY(window_->configPanel()->costText().contains("h100-llama-3-8b.profile.json"));
    QVERIFY(c.snapshot()->sim.iteration_time != builtin);
    c.setCostFiles(QString(), QString());  // back to the built-in coefficients
    QTRY_VERIFY_WITH_TIMEOUT(!c.busy() && c.snapshot()->config.cost_profile_file.empty(),
                             kResultTimeoutMs);
    // Dropping the profile on the window applies it too.
    dropFile(window_.get(), good);
    QTRY_VERIFY_WITH_TIMEOUT(
        !c.busy() && c.snapshot()->config.cost_profile_file == good.toStdString(),
        kResultTimeoutMs);
    QCOMPARE(errors.count(), 1);
    // A trace opens in the Traces tab (tests/ui/test_traces.cpp): no error, the profile stays.
    QSignalSpy traced(window_->traceWorkspace(), &TraceWorkspace::loaded);
    dropFile(window_.get(), QStringLiteral(SLIMPACK_SAMPLES_DIR "/traces/kineto_small.json"));
    QTRY_COMPARE_WITH_TIMEOUT(traced.count(), 1, kResultTimeoutMs);
    QCOMPARE(errors.count(), 1);
    QCOMPARE(c.config().cost_profile_file, good.toStdString());
    c.setCostFiles(QString(), QString());
    QTRY_VERIFY_WITH_TIMEOUT(!c.busy() && c.snapshot()->config.cost_profile_file.empty(),
                             kResultTimeoutMs);
    QCOMPARE(c.snapshot()->sim.iteration_time, builtin);
    QCOMPARE(window_->configPanel()->costText(), QStringLiteral("built-in coefficients"));
  }

  void virtualChunksOnlyForTheInterleavedSchedule() {
    ExplorerController& c = window_->controller();
    QTRY_VERIFY_WITH_TIMEOUT(c.snapshot() && !c.busy(), kResultTimeoutMs);
    ConfigPanel* panel = window_->configPanel();
    QVERIFY(!panel->vchunksBox()->isEnabled());
    const ConfigSpec before = c.config();
    ConfigSpec spec = before;
    spec.strategy = "fixed";  // interleaving is for unsliced plans
    spec.schedule = ScheduleKind::Interleaved;
    c.setConfig(spec);
    QVERIFY(panel->vchunksBox()->isEnabled());
    panel->vchunksBox()->setValue(4);
    QCOMPARE(c.config().vchunks, 4);
    QTRY_VERIFY_WITH_TIMEOUT(!c.busy() && c.snapshot()->config.vchunks == 4, kResultTimeoutMs);
    QCOMPARE(c.snapshot()->plan->schedule, ScheduleKind::Interleaved);
    QCOMPARE(c.snapshot()->plan->vchunks, 4);
    c.setConfig(before);
    QVERIFY(!panel->vchunksBox()->isEnabled());
    QTRY_VERIFY_WITH_TIMEOUT(!c.busy(), kResultTimeoutMs);
  }

  void presentationModeStepsThroughSavedViewsWithTheKeyboard() {
    ExplorerController& c = window_->controller();
    QTRY_VERIFY_WITH_TIMEOUT(c.snapshot() && !c.busy(), kResultTimeoutMs);
    GanttView* gantt = window_->ganttView();
    window_->showView(QStringLiteral("gantt"));
    window_->savedViews().clear();
    const double end = gantt->model()->time_extent().t1;
    gantt->setViewRange(0.0, end / 4);
    gantt->setHighlightedSequence(2);
    window_->savedViews().saveCurrent();
    gantt->setViewRange(end / 2, end);
    gantt->setHighlightedSequence(-1);
    window_->savedViews().saveCurrent();
    QCOMPARE(window_->savedViews().views().size(), std::size_t{2});
    QCOMPARE(window_->savedViews().views()[0].selected_sequence, 2);
    QCOMPARE(window_->savedViews().views()[0].tab, std::string("gantt"));
    gantt->fitToWindow();

    PresentationMode& pm = window_->presentation();
    pm.enter();
    QVERIFY(pm.active());
    for (const QDockWidget* dock : window_->findChildren<QDockWidget*>())
      QVERIFY2(!dock->isVisible(), qPrintable(dock->objectName()));
    QVERIFY(!window_->menuBar()->isVisible());
    QCOMPARE(gantt->paintOptions().theme, GanttTheme::HighContrast);

    const auto rangeIs = [&](double t0, double t1) {
      return gantt->viewRange() == TimeRange{t0, t1};
    };
    QTest::keyClick(gantt, Qt::Key_Right);
    QVERIFY(rangeIs(0.0, end / 4));
    QCOMPARE(gantt->pinnedSequence(), 2);
    QCOMPARE(pm.caption(), QStringLiteral("1 / 2 · view 1"));
    QTest::keyClick(gantt, Qt::Key_PageDown);  // what a presenter's clicker sends
    QVERIFY(rangeIs(end / 2, end));
    QCOMPARE(gantt->pinnedSequence(), -1);
    QTest::keyClick(gantt, Qt::Key_Right);  // past the last view: stays there
    QCOMPARE(pm.currentView(), 1);
    QTest::keyClick(gantt, Qt::Key_Left);
    QVERIFY(rangeIs(0.0, end / 4));
    QTest::keyClick(gantt, Qt::Key_End);
    QCOMPARE(pm.currentView(), 1);
    QTest::keyClick(gantt, Qt::Key_Home);
    QCOMPARE(pm.currentView(), 0);

    QTest::keyClick(gantt, Qt::Key_Escape);
    QVERIFY(!pm.active());
    QVERIFY(pm.caption().isEmpty());
    QVERIFY(window_->menuBar()->isVisible());
    QVERIFY(window_->findChild<QDockWidget*>(QStringLiteral("dock.config"))->isVisible());
    QCOMPARE(gantt->paintOptions().theme, GanttTheme::Light);
    QVERIFY(!c.busy());  // Escape left presentation mode; it did not reach the cancel action
    window_->savedViews().clear();
  }

  void savedViewRemembersTheCompareTab() {
    ExplorerController& c = window_->controller();
    QTRY_VERIFY_WITH_TIMEOUT(c.snapshot() && !c.busy(), kResultTimeoutMs);
    c.requestCompare({"fixed", "slimpack"});
    QTRY_VERIFY_WITH_TIMEOUT(!c.busy() && window_->compareView()->views().size() == 2,
                             kResultTimeoutMs);
    window_->showView(QStringLiteral("compare"));
    CompareView* compare = window_->compareView();
    compare->setViewRange(1.0, 2.0);
    window_->savedViews().saveCurrent();
    QCOMPARE(window_->savedViews().views().back().tab, std::string("compare"));
    window_->showView(QStringLiteral("gantt"));
    compare->setViewRange(0.0, 5.0);
    window_->savedViews().apply(window_->savedViews().views().back());
    QCOMPARE(window_->findChild<QTabWidget*>()->currentWidget(), compare);
    for (const GanttView* v : compare->views()) QVERIFY(v->viewRange() == (TimeRange{1.0, 2.0}));
    window_->savedViews().clear();
    QVERIFY(window_->savedViews().views().empty());
    window_->showView(QStringLiteral("gantt"));
  }

  // Starts a sweep, a comparison and five live re-solves, runs a real event loop until every
  // job is done (QTRY_* would sleep between event batches) and prints the longest stalls.
  void measureStallWhileJobsRun(const char* what) {
    ExplorerController& c = window_->controller();
    QEventLoop loop;
    QTimer deadline;
    deadline.setSingleShot(true);
    connect(&deadline, &QTimer::timeout, &loop, &QEventLoop::quit);
    for (JobTracker* jobs : {&c.pipelineJobs(), &c.sweepJobs(), &c.compareJobs()})
      connect(jobs, &JobTracker::busyChanged, &loop, [&] {
        if (!c.busy()) loop.quit();
      });
    StallProbe probe;
    probe.start();
    c.requestSweep();
    c.requestCompare({"fixed", "sliced", c.config().strategy.c_str()});
    for (int step : {4, 20, 40, 24, 10}) window_->configPanel()->sliceSlider()->setValue(step);
    QVERIFY(c.busy());
    deadline.start(5 * kResultTimeoutMs);
    loop.exec();
    probe.stop();
    QVERIFY(!c.busy());
    QVERIFY(c.snapshot() != nullptr);
    QVERIFY(!window_->compareView()->entries().empty());
    qInfo(
        "MEASURE %s: longest GUI-thread stall while sweep + compare + live re-solves ran %.1f "
        "ms (in %s); longest 1 ms timer gap %.1f ms; last Gantt frame %.1f ms",
        what, probe.worstMs(), qPrintable(probe.worstEvent()), probe.worstTickGapMs(),
        window_->ganttView()->lastFrameMs());
  }

  void guiThreadStaysResponsiveWhileJobsRun() {
    ExplorerController& c = window_->controller();
    QTRY_VERIFY_WITH_TIMEOUT(!c.busy(), kResultTimeoutMs);
    measureStallWhileJobsRun("default workload");
    // A large input: 4M tokens of the long-tail preset on p=8, d=8 (512 lanes of bars).
    WorkloadSpec big = c.workload();
    big.preset = "short-heavy-tail";
    big.batch_tokens = 4 * 1024 * 1024;
    ConfigSpec wide = c.config();
    wide.pp = 8;
    wide.dp = 8;
    c.setAll(big, wide);
    QTRY_VERIFY_WITH_TIMEOUT(!c.busy() && c.snapshot() && c.snapshot()->config.dp == 8,
                             kResultTimeoutMs);
    measureStallWhileJobsRun("4M tokens, p=8 d=8");
  }
};

QTEST_MAIN(TestWindow)
#include "test_window.moc"

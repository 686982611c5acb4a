#pragma once
// What the Traces-tab tests share: the sample traces, writing a trace of a test's own, waiting for
// a load (and the diff it starts) to finish, the window they open, and the guide's screenshots
// when asked for.
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QWidget>

#include <memory>

#include "open_window.h"
#include "trace/trace_diff_panel.h"
#include "trace/trace_workspace.h"
#include "window/explorer_controller.h"
#include "window/main_window.h"
#include "window/settings.h"

namespace trace_test {

constexpr int kTimeoutMs = 30000;

inline QString sample(const char* name) {
  return QStringLiteral(SLIMPACK_SAMPLES_DIR "/traces/") + QString::fromLatin1(name);
}

inline QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
  const QString path = dir.filePath(name);
  QFile f(path);
  f.open(QIODevice::WriteOnly);
  f.write(text);
  return path;
}

// A copy of the Chrome trace `from` as on a machine `factor` times as slow: every "ts" and "dur"
// multiplied. Written to `dir`/`name`; returns its path (empty when `from` cannot be read).
inline QString writeScaledTrace(const QString& from, const QTemporaryDir& dir, const QString& name,
                                double factor) {
  QFile in(from);
  if (!in.open(QIODevice::ReadOnly)) return {};
  QJsonObject doc = QJsonDocument::fromJson(in.readAll()).object();
  QJsonArray events = doc.value("traceEvents").toArray();
  for (qsizetype i = 0; i < events.size(); ++i) {
    QJsonObject e = events[i].toObject();
    for (const char* key : {"ts", "dur"})
      if (e.contains(key)) e.insert(key, factor * e.value(key).toDouble());
    events[i] = e;
  }
  doc.insert("traceEvents", events);
  return writeFile(dir, name, QJsonDocument(doc).toJson());
}

// `count` loads seen by `spy`, and no load or diff job still running.
inline void waitLoaded(slimpack::ui::TraceWorkspace& ws, QSignalSpy& spy, int count) {
  QTRY_COMPARE_WITH_TIMEOUT(spy.count(), count, kTimeoutMs);
  QTRY_VERIFY_WITH_TIMEOUT(!ws.loadJobs().busy(), kTimeoutMs);
  QTRY_VERIFY_WITH_TIMEOUT(!ws.diff().jobs().busy(), kTimeoutMs);
}

// The base of a test program that drives one window's Traces tab: openWindow() in initTestCase
// (calibrated profiles go to Qt's test folder; returns once the first plan is solved),
// window_.reset() in cleanupTestCase.
class TraceWindowTest : public QObject {
 protected:
  QTemporaryDir dir_;
  std::unique_ptr<slimpack::ui::Settings> settings_;
  std::unique_ptr<slimpack::ui::MainWindow> window_;

  void openWindow(int timeout_ms = kTimeoutMs) {
    QStandardPaths::setTestModeEnabled(true);
    window_ = openTestWindow(dir_, settings_);
    slimpack::ui::ExplorerController& c = window_->controller();
    QTRY_VERIFY_WITH_TIMEOUT(c.snapshot() && !c.busy(), timeout_ms);
  }
  slimpack::ui::TraceWorkspace& ws() { return *window_->traceWorkspace(); }
  void waitLoaded(QSignalSpy& spy, int count) { trace_test::waitLoaded(ws(), spy, count); }
};

// The guide's pictures: saved only when SLIMPACK_SCREENSHOT_DIR names a folder.
inline void shoot(QWidget* w, const char* name) {
  const QByteArray dir = qgetenv("SLIMPACK_SCREENSHOT_DIR");
  if (dir.isEmpty()) return;
  QTest::qWait(50);
  QVERIFY(w->grab().save(QDir(QString::fromLocal8Bit(dir)).filePath(name)));
}

}  // namespace trace_test

#pragma once
// Measures the longest stretch the GUI thread spends in one piece of work, and names the event
// that started it. An application-wide event filter timestamps every event as its dispatch
// begins, and the event dispatcher's aboutToBlock/awake signals mark when the thread goes idle
// and wakes: the longest gap between two such marks is the longest time the thread was busy
// without starting anything new (one handler, one paint, one layout pass), which is how long
// a keystroke or a mouse move could have waited.
//
// A 1 ms precise timer gives the second figure: the longest gap between its ticks, i.e. how late
// a timer (or an input event) could be served. Run the probe under a real QEventLoop: QTest's
// qWait and QTRY_* sleep 10 ms between event batches, which would read as 10 ms stalls.
// Measurement only: no test asserts a wall-clock figure.
#include <QAbstractEventDispatcher>
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QMetaEnum>
#include <QObject>
#include <QString>
#include <QTimer>
#include <algorithm>

class StallProbe : public QObject {
 public:
  StallProbe() {
    clock_.start();
    tick_.setTimerType(Qt::PreciseTimer);
    tick_.setInterval(1);
    connect(&tick_, &QTimer::timeout, this, [this] {
      const qint64 now = clock_.nsecsElapsed();
      worst_tick_ns_ = std::max(worst_tick_ns_, now - last_tick_ns_);
      last_tick_ns_ = now;
    });
  }
  ~StallProbe() override { stop(); }

  void start() {
    last_ns_ = last_tick_ns_ = clock_.nsecsElapsed();
    last_what_ = QStringLiteral("start");
    worst_ns_ = worst_tick_ns_ = 0;
    idle_ = false;
    worst_what_.clear();
    auto* dispatcher = QAbstractEventDispatcher::instance();
    connections_[0] = connect(dispatcher, &QAbstractEventDispatcher::aboutToBlock, this, [this] {
      note(clock_.nsecsElapsed(), QString());
      idle_ = true;  // what follows is sleep, not a stall
    });
    connections_[1] = connect(dispatcher, &QAbstractEventDispatcher::awake, this, [this] {
      idle_ = false;
      last_ns_ = clock_.nsecsElapsed();
      last_what_ = QStringLiteral("wake-up");
    });
    qApp->installEventFilter(this);
    tick_.start();
    running_ = true;
  }
  void stop() {
    if (!running_) return;
    running_ = false;
    tick_.stop();
    qApp->removeEventFilter(this);
    for (const auto& c : connections_) disconnect(c);
    note(clock_.nsecsElapsed(), QString());
  }
  double worstTickGapMs() const { return static_cast<double>(worst_tick_ns_) / 1e6; }
  double worstMs() const { return static_cast<double>(worst_ns_) / 1e6; }
  // "Type to Receiver" of the event whose dispatch began the longest busy stretch.
  const QString& worstEvent() const { return worst_what_; }

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override {
    // Nested dispatch (a paint sent from inside another event) restarts the stretch, so a long
    // stretch is charged to the innermost event that ran long.
    const char* type = QMetaEnum::fromType<QEvent::Type>().valueToKey(event->type());
    note(clock_.nsecsElapsed(), QStringLiteral("%1 to %2")
                                    .arg(QLatin1String(type ? type : "?"),
                                         QLatin1String(watched->metaObject()->className())));
    return false;
  }

 private:
  void note(qint64 now, QString what) {
    if (idle_) {
      idle_ = false;  // the first event after a sleep: the gap before it was idle time
    } else if (now - last_ns_ > worst_ns_) {
      worst_ns_ = now - last_ns_;
      worst_what_ = last_what_;
    }
    last_ns_ = now;
    last_what_ = std::move(what);
  }

  QElapsedTimer clock_;
  QTimer tick_;
  QMetaObject::Connection connections_[2];
  qint64 last_tick_ns_ = 0;
  qint64 worst_tick_ns_ = 0;
  bool idle_ = false;
  qint64 last_ns_ = 0;
  qint64 worst_ns_ = 0;
  QString last_what_;
  QString worst_what_;
  bool running_ = false;
};

#pragma once
// How the GUI benchmarks wait for the window: the event loop runs until a condition holds or a
// time limit passes. Two ways, for two kinds of figure:
//   Wait::Spin   processes events back to back: a result is seen the moment it is painted (the
//                slider bench times 15 ms frames), at the cost of a busy core;
//   Wait::Sleep  sleeps up to 5 ms between looks (QTest::qWait), as a window waiting for its user
//                does: the jobs bench times seconds of work on 2 cores, which a spinning loop
//                would share (3x the CPU before).
#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTest>

namespace slimpack::bench {

enum class Wait { Spin, Sleep };

// True once `done()` holds; false after `ms` milliseconds.
template <class Done>
bool run_events_until(Done done, int ms, Wait wait) {
  QElapsedTimer t;
  t.start();
  while (!done()) {
    if (t.elapsed() > ms) return false;
    if (wait == Wait::Spin)
      QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    else
      QTest::qWait(5);
  }
  return true;
}

}  // namespace slimpack::bench

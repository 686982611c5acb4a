#pragma once
// TraceSearch: finding events by name in the Traces tab. The search field marks the events whose
// name contains the text (case-insensitive) in run A and run B; run A's matches are listed in the
// details area in time order, and Enter / Shift+Enter in the field (or the arrows beside it) step
// through them, each selected, described and scrolled into view; "N of M" counts them. A
// statistics row marks the events named exactly so (markName). The marks are kept across folding,
// filtering and pinning (the list of matches follows the rows shown).
#include <QObject>
#include <QString>

#include "render/trace_timeline.h"

QT_BEGIN_NAMESPACE
class QLabel;
class QLineEdit;
class QToolButton;
QT_END_NAMESPACE

namespace slimpack::ui {

class TraceDetailsPanel;
class TraceLoader;
class TimelineStack;
class TraceView;

class TraceSearch : public QObject {
  Q_OBJECT

 public:
  // Matches are marked on the stacked timelines (`stack`); `view_a` and `view_b` are its runs.
  TraceSearch(const TraceLoader& loader, TimelineStack& stack, TraceView* view_a, TraceView* view_b,
              TraceDetailsPanel* details, QObject* parent = nullptr);

  // The field and the controls beside it, for the tab's bar.
  QLineEdit* field() const { return search_; }
  QToolButton* previousButton() const { return prev_; }
  QToolButton* nextButton() const { return next_; }
  QLabel* matchLabel() const { return match_label_; }

  // Searches both runs for `text`; returns the matches in A. The first match at or after the
  // visible range's start becomes the current one on the first step.
  int find(const QString& text);
  QString text() const;
  // The search again (the runs were aligned: other snapshots); nothing when the field is empty.
  void refresh();
  void clear();
  // The next / previous match of A (wrapping): selected, described and scrolled into view.
  void nextMatch();
  void previousMatch();
  // Marks the events named exactly `name` in both runs as the matches.
  void markName(const QString& name);
  // `ref` was selected in run A: when it is a match, it becomes the current one.
  void selectMatch(TraceEventRef ref);

  // The current match (0-based; -1: none), the number of matches in A, "2 of 7".
  int currentMatch() const { return current_match_; }
  int matchCount() const;
  QString matchCountText() const;
  // Events marked in each run by the last search (or by another marking: setMarkedCounts).
  int markedInA() const { return matches_a_; }
  int markedInB() const { return matches_b_; }
  void setMarkedCounts(int in_a, int in_b);

 signals:
  void statusChanged();  // the counts changed: the tab's status line follows
  void statusMessage(const QString& message);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void setUpControls();
  void goToMatch(int index);
  void followRows();

  const TraceLoader& loader_;
  TimelineStack& stack_;
  TraceView* view_a_;
  TraceView* view_b_;
  TraceDetailsPanel* details_;
  QLineEdit* search_;
  QToolButton* prev_;
  QToolButton* next_;
  QLabel* match_label_;
  int current_match_ = -1;
  int matches_a_ = 0;
  int matches_b_ = 0;
};

}  // namespace slimpack::ui

// TraceWorkspace's search and navigation: matches of a name in both runs, stepping through run A's
// matches (Enter / Shift+Enter, the arrows), the details area following the selected event, and
// jumps to an event (a match, a child, a flow's other end) that unfold, scroll and select it.
#include <QFileInfo>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <algorithm>
#include <cctype>

#include "trace/elided_label.h"
#include "trace/trace_details_panel.h"
#include "trace/trace_scroll_area.h"
#include "trace/trace_tables.h"
#include "trace/trace_view.h"
#include "trace/trace_workspace.h"

namespace slimpack::ui {
namespace {

std::string to_lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

std::vector<TraceEventRef> marked_events(const TraceView& view) {
  std::vector<TraceEventRef> out;
  if (!view.timeline() || !view.model()) return out;
  out.reserve(view.marked().size() + view.instants().marked().size());
  for (const BarRef& b : view.marked())
    out.push_back(view.timeline()->locate(view.model()->bar(b).pack));
  // Instant events match like bars (their markers stay whatever rows are shown).
  out.insert(out.end(), view.instants().marked().begin(), view.instants().marked().end());
  return out;
}

// Marks the events and the instant events whose name passes `match(source, name index)`;
// returns how many.
template <class Match>
int mark_all(TraceView& v, Match match) {
  v.markWhere(match);
  v.instants().setMarked(v.timeline()->instants_where(match));
  v.update();
  return static_cast<int>(v.marked().size() + v.instants().marked().size());
}

// The same run, maybe with another origin (with_origin shares the imported traces).
bool same_run(const TraceTimeline* a, const TraceTimeline* b) {
  return a && b && !a->sources().empty() && !b->sources().empty() &&
         a->sources().front().trace == b->sources().front().trace;
}

QString run_title(const TraceTimeline& t) {
  const auto files = t.sources().size();
  QString title = QString::fromStdString(t.sources().front().label);
  if (files > 1) title += QObject::tr(" and %1 more files").arg(files - 1);
  return title;
}

}  // namespace

void TraceWorkspace::connectSearch() {
  connect(search_, &QLineEdit::textChanged, this, [this](const QString& t) { search(t); });
  search_->installEventFilter(this);
  connect(details_, &TraceDetailsPanel::nameChosen, this, &TraceWorkspace::markName);
  connect(next_, &QToolButton::clicked, this, &TraceWorkspace::nextMatch);
  connect(prev_, &QToolButton::clicked, this, &TraceWorkspace::previousMatch);
  connect(details_, &TraceDetailsPanel::jumpTo, this,
          [this](const TraceTimeline* t, TraceEventRef ref) {
            if (comparing() && same_run(view_b_->timeline().get(), t))
              revealIn(view_b_, ref);
            else if (same_run(view_a_->timeline().get(), t))
              revealIn(view_a_, ref);
          });
  // An alignment gives run A another origin: the details follow (the same events).
  connect(view_a_, &GanttView::modelChanged, this, [this] {
    const auto& t = view_a_->timeline();
    if (t && details_->timeline() != t && same_run(details_->timeline().get(), t.get()))
      details_->rebase(t);
  });
  for (TraceView* v : {view_a_, view_b_}) {
    connect(v, &TraceView::eventSelected, this, [this, v](TraceEventRef ref) {
      if (!ref.valid()) return;
      details_->describeEvent(v->timeline(), ref);
      details_->setCurrentIndex(TraceDetailsPanel::EventTab);
      const int row = v == view_a_ ? details_->matches()->rowOf(ref) : -1;
      if (row >= 0) {
        current_match_ = row;
        details_->matchTable()->selectRow(row);
        match_label_->setText(matchCountText());
      }
    });
    TraceScrollArea* area = v == view_a_ ? scroll_a_ : scroll_b_;
    // The view's height may change with the reveal (a group unfolded): scroll once the area
    // laid it out again.
    connect(v, &TraceView::rowsToReveal, area, [area](int top, int bottom) {
      QTimer::singleShot(0, area, [area, top, bottom] {
        area->ensureVisible(0, (top + bottom) / 2, 0, (bottom - top) / 2 + 24);
      });
    });
    // Folding, filtering or pinning changes which events have bars: the list of matches follows.
    connect(v, &TraceView::rowsChanged, this, [this, v] {
      if (v == view_a_ && (matchCount() > 0 || !search_->text().isEmpty())) {
        const TraceEventRef current = details_->matches()->event(current_match_);
        details_->setMatches(marked_events(*view_a_));
        current_match_ = details_->matches()->rowOf(current);
        match_label_->setText(matchCountText());
      }
    });
  }
  connect(view_a_, &TraceView::selectionChanged, this, [this](double t0, double t1) {
    details_->setSelectionRange(t1 > t0 ? std::optional(std::pair(t0, t1)) : std::nullopt,
                                view_a_->selectionLanes());
  });
}

bool TraceWorkspace::eventFilter(QObject* watched, QEvent* event) {
  // Run B's pane (its title and timeline) shows and hides with its scroll area, which follows
  // the view: code that hides view B hides all of it.
  if (watched == scroll_b_ && event->type() == QEvent::ShowToParent) pane_b_->show();
  if (watched == scroll_b_ && event->type() == QEvent::HideToParent) pane_b_->hide();
  if (watched == search_ && event->type() == QEvent::KeyPress) {
    auto* key = static_cast<QKeyEvent*>(event);
    if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
      if (key->modifiers() & Qt::ShiftModifier)
        previousMatch();
      else
        nextMatch();
      return true;
    }
  }
  return QWidget::eventFilter(watched, event);
}

int TraceWorkspace::search(const QString& text) {
  if (search_->text() != text) {
    const QSignalBlocker block(search_);
    search_->setText(text);
  }
  matches_a_ = matches_b_ = 0;
  const std::string needle = to_lower(text.toStdString());
  for (TraceView* v : {view_a_, view_b_}) {
    if (!v->timeline() || !v->model()) continue;
    if (needle.empty()) {
      v->clearMarks();
      continue;
    }
    // Kept across folding and unfolding groups (markWhere), unlike a fixed list of bars.
    const TraceTimeline* t = v->timeline().get();
    (v == view_a_ ? matches_a_ : matches_b_) = mark_all(*v, [t, needle](int s, int n) {
      return to_lower(t->sources()[static_cast<std::size_t>(s)]
                          .trace->names[static_cast<std::size_t>(n)])
                 .find(needle) != std::string::npos;
    });
  }
  current_match_ = -1;
  details_->setMatches(needle.empty() ? std::vector<TraceEventRef>{} : marked_events(*view_a_));
  match_label_->setText(matchCountText());
  updateStatus();
  return matches_a_;
}

void TraceWorkspace::markName(const QString& name) {
  const std::string wanted = name.toStdString();
  for (TraceView* v : {view_a_, view_b_}) {
    if (!v->timeline() || !v->model()) continue;
    const TraceTimeline* t = v->timeline().get();
    (v == view_a_ ? matches_a_ : matches_b_) = mark_all(*v, [t, wanted](int s, int n) {
      return t->sources()[static_cast<std::size_t>(s)].trace->names[static_cast<std::size_t>(n)] ==
             wanted;
    });
  }
  current_match_ = -1;
  details_->setMatches(marked_events(*view_a_));
  match_label_->setText(matchCountText());
  status_message_ = tr("“%1”: %2 events in A").arg(name).arg(matches_a_) +
                    (comparing() ? tr(", %1 in B").arg(matches_b_) : QString());
  updateStatus();
  status_message_.clear();
}

int TraceWorkspace::matchCount() const {
  return details_->matches()->rowCount();
}

QString TraceWorkspace::matchCountText() const {
  if (search_->text().isEmpty() && matchCount() == 0) return {};
  return tr("%1 of %2").arg(current_match_ + 1).arg(matchCount());
}

void TraceWorkspace::nextMatch() {
  const int n = matchCount();
  if (n == 0) return;
  int next = current_match_ + 1;
  if (current_match_ < 0) {
    // The first match: the first one at or after the visible range's start (then wrapping).
    const double t0 = view_a_->viewRange().t0 * 1e6 + run_a_.timeline->origin_us();
    next = 0;
    for (int r = 0; r < n; ++r)
      if (run_a_.timeline->event(details_->matches()->event(r))->start_us >= t0) {
        next = r;
        break;
      }
  }
  goToMatch(next % n);
}

void TraceWorkspace::previousMatch() {
  const int n = matchCount();
  if (n == 0) return;
  goToMatch(current_match_ <= 0 ? n - 1 : current_match_ - 1);
}

void TraceWorkspace::goToMatch(int index) {
  const TraceEventRef ref = details_->matches()->event(index);
  if (!ref.valid()) return;
  current_match_ = index;
  const int tab = details_->currentIndex();
  revealIn(view_a_, ref);
  details_->setCurrentIndex(tab);  // stepping through matches keeps the tab the user looks at
  details_->matchTable()->selectRow(index);
  match_label_->setText(matchCountText());
}

void TraceWorkspace::revealIn(TraceView* view, TraceEventRef ref) {
  view->revealEvent(ref);
  details_->describeEvent(view->timeline(), ref);
}

void TraceWorkspace::updateTitles() {
  label_a_->setText(run_a_.timeline ? tr("A: %1").arg(run_title(*run_a_.timeline)) : QString());
  label_a_->setVisible(static_cast<bool>(run_a_.timeline));
  label_b_->setText(run_b_.timeline ? tr("B: %1").arg(run_title(*run_b_.timeline)) : QString());
  label_a_->setToolTip(paths_a_.join(QLatin1Char('\n')));
  label_b_->setToolTip(paths_b_.join(QLatin1Char('\n')));
}

}  // namespace slimpack::ui

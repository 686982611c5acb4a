#include "trace/trace_search.h"

#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QTableView>
#include <QToolButton>
#include <algorithm>
#include <cctype>

#include "trace/timeline_stack.h"
#include "trace/trace_details_panel.h"
#include "trace/trace_loader.h"
#include "trace/trace_tables.h"
#include "trace/trace_view.h"

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

}  // namespace

TraceSearch::TraceSearch(const TraceLoader& loader, TimelineStack& stack, TraceView* view_a,
                         TraceView* view_b, TraceDetailsPanel* details, QObject* parent)
    : QObject(parent),
      loader_(loader),
      stack_(stack),
      view_a_(view_a),
      view_b_(view_b),
      details_(details),
      search_(new QLineEdit),
      prev_(new QToolButton),
      next_(new QToolButton),
      match_label_(new QLabel) {
  setUpControls();
  connect(search_, &QLineEdit::textChanged, this, [this](const QString& t) { find(t); });
  search_->installEventFilter(this);
  connect(details_, &TraceDetailsPanel::nameChosen, this, &TraceSearch::markName);
  connect(next_, &QToolButton::clicked, this, &TraceSearch::nextMatch);
  connect(prev_, &QToolButton::clicked, this, &TraceSearch::previousMatch);
  // Folding, filtering or pinning changes which events have bars: the list of matches follows.
  connect(view_a_, &TraceView::rowsChanged, this, &TraceSearch::followRows);
}

void TraceSearch::setUpControls() {
  search_->setPlaceholderText(tr("Search events by name"));
  search_->setClearButtonEnabled(true);
  search_->setObjectName(QStringLiteral("traceSearch"));
  prev_->setArrowType(Qt::UpArrow);
  next_->setArrowType(Qt::DownArrow);
  prev_->setObjectName(QStringLiteral("traceSearchPrev"));
  next_->setObjectName(QStringLiteral("traceSearchNext"));
  prev_->setToolTip(tr("Previous match (Shift+Enter in the search field)"));
  next_->setToolTip(tr("Next match (Enter in the search field)"));
  match_label_->setObjectName(QStringLiteral("traceMatchCount"));
}

bool TraceSearch::eventFilter(QObject* watched, QEvent* event) {
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
  return QObject::eventFilter(watched, event);
}

QString TraceSearch::text() const {
  return search_->text();
}

void TraceSearch::refresh() {
  if (!search_->text().isEmpty()) find(search_->text());
}

void TraceSearch::clear() {
  search_->clear();
}

void TraceSearch::setMarkedCounts(int in_a, int in_b) {
  matches_a_ = in_a;
  matches_b_ = in_b;
}

int TraceSearch::find(const QString& text) {
  if (search_->text() != text) {
    const QSignalBlocker block(search_);
    search_->setText(text);
  }
  const std::string needle = to_lower(text.toStdString());
  if (needle.empty()) {
    stack_.markNone();
    setMarkedCounts(0, 0);
  } else {
    const std::vector<int> marked = stack_.markWhere([needle](const std::string& name) {
      return to_lower(name).find(needle) != std::string::npos;
    });
    setMarkedCounts(marked.empty() ? 0 : marked[0], marked.size() < 2 ? 0 : marked[1]);
  }
  current_match_ = -1;
  details_->setMatches(needle.empty() ? std::vector<TraceEventRef>{} : marked_events(*view_a_));
  match_label_->setText(matchCountText());
  emit statusChanged();
  return matches_a_;
}

void TraceSearch::markName(const QString& name) {
  const std::string wanted = name.toStdString();
  const std::vector<int> marked =
      stack_.markWhere([wanted](const std::string& candidate) { return candidate == wanted; });
  setMarkedCounts(marked.empty() ? 0 : marked[0], marked.size() < 2 ? 0 : marked[1]);
  current_match_ = -1;
  details_->setMatches(marked_events(*view_a_));
  match_label_->setText(matchCountText());
  emit statusMessage(tr("“%1”: %2 events in A").arg(name).arg(matches_a_) +
                     (loader_.comparing() ? tr(", %1 in B").arg(matches_b_) : QString()));
}

void TraceSearch::followRows() {
  if (matchCount() == 0 && search_->text().isEmpty()) return;
  const TraceEventRef current = details_->matches()->event(current_match_);
  details_->setMatches(marked_events(*view_a_));
  current_match_ = details_->matches()->rowOf(current);
  match_label_->setText(matchCountText());
}

void TraceSearch::selectMatch(TraceEventRef ref) {
  const int row = details_->matches()->rowOf(ref);
  if (row < 0) return;
  current_match_ = row;
  details_->matchTable()->selectRow(row);
  match_label_->setText(matchCountText());
}

int TraceSearch::matchCount() const {
  return details_->matches()->rowCount();
}

QString TraceSearch::matchCountText() const {
  if (search_->text().isEmpty() && matchCount() == 0) return {};
  return tr("%1 of %2").arg(current_match_ + 1).arg(matchCount());
}

void TraceSearch::nextMatch() {
  const int n = matchCount();
  if (n == 0) return;
  int next = current_match_ + 1;
  if (current_match_ < 0) {
    // The first match: the first one at or after the visible range's start (then wrapping).
    const TraceTimeline& run = *loader_.run(TraceLoader::Slot::A).timeline;
    const double t0 = view_a_->viewRange().t0 * 1e6 + run.origin_us();
    next = 0;
    for (int r = 0; r < n; ++r)
      if (run.event(details_->matches()->event(r))->start_us >= t0) {
        next = r;
        break;
      }
  }
  goToMatch(next % n);
}

void TraceSearch::previousMatch() {
  const int n = matchCount();
  if (n == 0) return;
  goToMatch(current_match_ <= 0 ? n - 1 : current_match_ - 1);
}

void TraceSearch::goToMatch(int index) {
  const TraceEventRef ref = details_->matches()->event(index);
  if (!ref.valid()) return;
  current_match_ = index;
  const int tab = details_->currentIndex();
  view_a_->revealEvent(ref);
  details_->describeEvent(view_a_->timeline(), ref);
  details_->setCurrentIndex(tab);  // stepping through matches keeps the tab the user looks at
  details_->matchTable()->selectRow(index);
  match_label_->setText(matchCountText());
}

}  // namespace slimpack::ui

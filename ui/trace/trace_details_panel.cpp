#include "trace/trace_details_panel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QTableView>
#include <QVBoxLayout>

#include "jobs/job_tracker.h"
#include "trace/trace_stats.h"
#include "trace/trace_tables.h"
#include "trace/trace_view.h"

namespace slimpack::ui {
namespace {

constexpr int kRefRole = Qt::UserRole + 1;  // a list item's event: (lane, index) of its source
constexpr int kMaxChildren = 500;           // a list stays a list

QString q(const std::string& s) {
  return QString::fromStdString(s);
}

QString us_text(double us) {
  return trace_duration_text(us * 1e-6);
}

std::vector<const ImportedTrace*> traces_of(const TraceTimeline& t) {
  std::vector<const ImportedTrace*> out;
  for (const TraceSource& s : t.sources()) out.push_back(s.trace.get());
  return out;
}

QLabel* heading(const QString& text) {
  auto* l = new QLabel(QStringLiteral("<b>%1</b>").arg(text));
  return l;
}

}  // namespace

TraceDetailsPanel::TraceDetailsPanel(QWidget* parent)
    : QTabWidget(parent),
      info_(new QLabel),
      args_(new QPlainTextEdit),
      children_(new QListWidget),
      links_(new QListWidget),
      matches_(new TraceMatchModel(this)),
      match_table_(makeTable(matches_)),
      selection_label_(new QLabel),
      selection_stats_(new TraceStatsModel(this)),
      selection_table_(makeTable(selection_stats_)),
      trace_stats_(new TraceStatsModel(this)),
      stats_table_(makeTable(trace_stats_)),
      jobs_(new JobTracker(this)),
      stats_jobs_(new JobTracker(this)) {
  setObjectName(QStringLiteral("traceDetails"));
  addTab(buildEventTab(), tr("Event"));
  addTab(match_table_, tr("Matches"));
  auto* selection = new QWidget;
  auto* sl = new QVBoxLayout(selection);
  sl->setContentsMargins(2, 2, 2, 2);
  selection_label_->setObjectName(QStringLiteral("traceSelectionLabel"));
  setSelectionRange(std::nullopt);  // the hint
  sl->addWidget(selection_label_);
  sl->addWidget(selection_table_, 1);
  addTab(selection, tr("Selection"));
  addTab(stats_table_, tr("Statistics"));
  setTabToolTip(StatisticsTab, tr("Every event of run A by name: count, total, self, mean, max"));
  for (QListWidget* list : {children_, links_})
    connect(list, &QListWidget::itemClicked, this, [this](QListWidgetItem* item) {
      if (!item->data(kRefRole).isValid()) return;
      const QPoint p = item->data(kRefRole).toPoint();
      if (shown_) emit jumpTo(shown_.get(), TraceEventRef{event_.source, p.x(), p.y()});
    });
  connect(match_table_, &QTableView::clicked, this, [this](const QModelIndex& index) {
    if (timeline_) emit jumpTo(timeline_.get(), matches_->event(index.row()));
  });
  for (QTableView* t : {selection_table_, stats_table_})
    connect(t, &QTableView::clicked, this, [this, t](const QModelIndex& index) {
      emit nameChosen(t->model()->index(index.row(), TraceStatsModel::Name).data().toString());
    });
  connect(this, &QTabWidget::currentChanged, this, [this](int tab) {
    if (tab == StatisticsTab && !stats_fresh_) computeStats();
  });
}

QWidget* TraceDetailsPanel::buildEventTab() {
  auto* page = new QWidget;
  info_->setObjectName(QStringLiteral("traceEventInfo"));
  info_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  info_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  info_->setWordWrap(true);
  info_->setText(tr("Click an event to see its details."));
  args_->setReadOnly(true);
  args_->setObjectName(QStringLiteral("traceEventArgs"));
  children_->setObjectName(QStringLiteral("traceEventChildren"));
  links_->setObjectName(QStringLiteral("traceEventLinks"));
  links_->setToolTip(tr("Events joined by flows (a CPU launch and its GPU kernel): click to go"));
  children_->setToolTip(tr("The event's direct children: click to go"));
  // Compact: the timelines above keep most of the height.
  for (QWidget* w : std::initializer_list<QWidget*>{args_, children_, links_}) {
    w->setMinimumHeight(36);
    w->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Ignored);
  }
  // Three columns, so that a short panel still shows every line of the event's figures.
  info_->setMinimumWidth(220);
  auto* left = new QVBoxLayout;
  left->addWidget(heading(tr("Args")));
  left->addWidget(args_, 1);
  auto* right = new QVBoxLayout;
  right->addWidget(heading(tr("Children")));
  right->addWidget(children_, 2);
  right->addWidget(heading(tr("Linked by flows")));
  right->addWidget(links_, 1);
  auto* layout = new QHBoxLayout(page);
  layout->setContentsMargins(2, 2, 2, 2);
  layout->addWidget(info_, 2);
  layout->addLayout(left, 2);
  layout->addLayout(right, 3);
  return page;
}

QTableView* TraceDetailsPanel::makeTable(QAbstractItemModel* model) {
  auto* t = new QTableView;
  t->setModel(model);
  t->setSortingEnabled(model != matches_);
  t->setSelectionBehavior(QAbstractItemView::SelectRows);
  t->setSelectionMode(QAbstractItemView::SingleSelection);
  t->verticalHeader()->hide();
  t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 4);
  t->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  if (model != matches_) t->sortByColumn(TraceStatsModel::Total, Qt::DescendingOrder);
  return t;
}

bool TraceDetailsPanel::busy() const {
  return jobs_->busy() || stats_jobs_->busy();
}

void TraceDetailsPanel::setTimeline(std::shared_ptr<const TraceTimeline> timeline) {
  timeline_ = std::move(timeline);
  describeEvent(nullptr, {});
  setMatches({});
  setSelectionRange(std::nullopt);
  stats_jobs_->cancel();
  trace_stats_->setRows({});
  stats_fresh_ = false;
  if (currentIndex() == StatisticsTab) computeStats();
}

void TraceDetailsPanel::rebase(std::shared_ptr<const TraceTimeline> timeline) {
  const bool shown_is_a = shown_ == timeline_;
  timeline_ = std::move(timeline);
  if (shown_is_a && shown_) describeEvent(timeline_, event_);
  matches_->rebase(timeline_);
}

void TraceDetailsPanel::computeStats() {
  if (!timeline_) return;
  stats_fresh_ = true;
  stats_jobs_->start(
      tr("Trace statistics"),
      [t = timeline_](const CancelToken& cancel, ProgressSink&) {
        return name_stats(traces_of(*t), {}, cancel);
      },
      [this](Expected<std::vector<TraceNameStat>> rows) {
        if (rows) trace_stats_->setRows(std::move(*rows));
      });
}

void TraceDetailsPanel::setMatches(std::vector<TraceEventRef> matches) {
  matches_->setMatches(timeline_, std::move(matches));
  setTabText(MatchesTab, matches_->rowCount() > 0 ? tr("Matches (%1)").arg(matches_->rowCount())
                                                  : tr("Matches"));
}

void TraceDetailsPanel::setSelectionRange(std::optional<std::pair<double, double>> range,
                                          std::vector<std::pair<int, int>> lanes) {
  if (!range || !timeline_) {
    jobs_->cancel();
    selection_stats_->setRows({});
    selection_label_->setText(
        tr("Shift+drag over lanes to select an area (from the time axis: every lane)."));
    return;
  }
  TraceStatsScope scope;
  scope.t0_us = range->first * 1e6 + timeline_->origin_us();
  scope.t1_us = range->second * 1e6 + timeline_->origin_us();
  const QString where = lanes.empty() ? tr("every lane")
                        : lanes.size() == 1
                            ? q(timeline_->lane_title(lanes[0].first, lanes[0].second))
                            : tr("%1 lanes").arg(lanes.size());
  if (!lanes.empty()) {
    std::sort(lanes.begin(), lanes.end());
    scope.lanes = [lanes](int source, int lane) {
      return std::binary_search(lanes.begin(), lanes.end(), std::pair(source, lane));
    };
  }
  selection_label_->setText(tr("Events overlapping %1 … %2 (%3) on %4, by name")
                                .arg(trace_duration_text(range->first),
                                     trace_duration_text(range->second),
                                     trace_duration_text(range->second - range->first), where));
  jobs_->start(
      tr("Selection summary"),
      [t = timeline_, scope](const CancelToken& cancel, ProgressSink&) {
        return name_stats(traces_of(*t), scope, cancel);
      },
      [this](Expected<std::vector<TraceNameStat>> rows) {
        if (rows) selection_stats_->setRows(std::move(*rows));
      });
  setCurrentIndex(SelectionTab);
}

void TraceDetailsPanel::describeEvent(std::shared_ptr<const TraceTimeline> timeline,
                                      TraceEventRef ref) {
  shown_ = std::move(timeline);
  event_ = ref;
  children_->clear();
  links_->clear();
  args_->clear();
  const TraceEvent* e = shown_ ? shown_->event(ref) : nullptr;
  if (!e) {
    info_->setText(tr("Click an event to see its details."));
    return;
  }
  const TraceSource& src = shown_->sources()[static_cast<std::size_t>(ref.source)];
  const ImportedTrace& trace = *src.trace;
  const TraceLane& lane = trace.lanes[static_cast<std::size_t>(ref.lane)];
  const std::string& cat = shown_->category(ref);
  const std::string& args = shown_->args(ref);
  args_->setPlainText(!args.empty()            ? q(args)
                      : trace.args_dropped > 0 ? tr("(args not kept: the import's memory budget "
                                                    "for args was spent)")
                                               : tr("(none)"));
  if (ref.instant) {  // a point in time: no duration, children or flows
    info_->setText(tr("<b>%1</b><br>category: %2<br>lane: %3<br>time: %4<br>instant event")
                       .arg(q(shown_->name(ref)).toHtmlEscaped(),
                            cat.empty() ? tr("none") : q(cat).toHtmlEscaped(),
                            trace_lane_text(*shown_, ref).toHtmlEscaped(),
                            us_text(e->start_us - shown_->origin_us())));
    links_->addItem(tr("(no flow)"));
    return;
  }
  const double self = event_self_us(lane, ref.index);
  info_->setText(tr("<b>%1</b><br>category: %2<br>lane: %3<br>start: %4<br>duration: %5<br>"
                    "self time: %6")
                     .arg(q(shown_->name(ref)).toHtmlEscaped(),
                          cat.empty() ? tr("none") : q(cat).toHtmlEscaped(),
                          trace_lane_text(*shown_, ref).toHtmlEscaped(),
                          us_text(e->start_us - shown_->origin_us()), us_text(e->dur_us),
                          us_text(self)));
  const auto children = event_children(lane, ref.index);
  for (std::size_t i = 0; i < children.size() && i < kMaxChildren; ++i) {
    const TraceEvent& c = lane.events[static_cast<std::size_t>(children[i])];
    auto* item = new QListWidgetItem(QStringLiteral("%1 — %2").arg(
        q(shown_->name({ref.source, ref.lane, children[i]})), us_text(c.dur_us)));
    item->setData(kRefRole, QPoint(ref.lane, children[i]));
    children_->addItem(item);
  }
  if (children.size() > kMaxChildren)
    children_->addItem(tr("… %1 more").arg(children.size() - kMaxChildren));
  for (const TraceFlowLink& link : flow_links(trace, ref.lane, ref.index)) {
    const TraceEventRef to{ref.source, link.lane, link.index};
    const QString what = link.outgoing ? tr("→ %1") : tr("← %1");
    auto* item = new QListWidgetItem(QStringLiteral("%1 (%2, %3) · %4")
                                         .arg(what.arg(q(shown_->name(to))), q(link.category),
                                              trace_lane_text(*shown_, to),
                                              us_text(shown_->event(to)->dur_us)));
    item->setData(kRefRole, QPoint(link.lane, link.index));
    links_->addItem(item);
  }
  if (links_->count() == 0) links_->addItem(tr("(no flow)"));
}

QString TraceDetailsPanel::eventText() const {
  return info_->text();
}

QString TraceDetailsPanel::argsText() const {
  return args_->toPlainText();
}

QString TraceDetailsPanel::selectionText() const {
  return selection_label_->text();
}

}  // namespace slimpack::ui

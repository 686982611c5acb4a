#include "window/saved_views.h"

#include <QStatusBar>
#include <string>

#include "gantt/gantt_view.h"
#include "panels/compare_view.h"
#include "window/main_window.h"

namespace slimpack::ui {

SavedViews::SavedViews(MainWindow& window) : QObject(&window), window_(window) {}

void SavedViews::saveCurrent() {
  SavedView v;
  v.name = "view " + std::to_string(views_.size() + 1);
  const GanttView* source = window_.ganttView();
  CompareView* compare = window_.compareView();
  if (window_.currentTabName() == QLatin1String("compare") && !compare->views().empty()) {
    v.tab = "compare";
    source = compare->views().front();
  }
  const TimeRange r = source->viewRange();
  v.t0 = r.t0;
  v.t1 = r.t1;
  v.selected_sequence = source->pinnedSequence();
  std::vector<SavedView> views = views_;
  views.push_back(std::move(v));
  setViews(std::move(views));
  window_.statusBar()->showMessage(
      tr("Saved view %1 (step through them in presentation mode)").arg(views_.size()), 4000);
}

void SavedViews::apply(const SavedView& v) const {
  if (v.tab == "compare") {
    window_.showView(QStringLiteral("compare"));
    if (v.t1 > v.t0) window_.compareView()->setViewRange(v.t0, v.t1);
    window_.compareView()->setHighlightedSequence(v.selected_sequence);
    return;
  }
  window_.showView(QStringLiteral("gantt"));
  GanttView* gantt = window_.ganttView();
  if (v.t1 > v.t0) gantt->setViewRange(v.t0, v.t1);
  // A view without a pinned sequence shows none: the previous view's highlight (pinned or under
  // the presenter's resting mouse) goes.
  if (v.selected_sequence < 0 || !gantt->model() ||
      v.selected_sequence >= gantt->model()->sequence_count())
    gantt->clearHighlight();
  else
    gantt->setHighlightedSequence(v.selected_sequence);
}

void SavedViews::clear() {
  setViews({});
  window_.statusBar()->showMessage(tr("Saved views cleared"), 3000);
}

void SavedViews::rename(std::size_t index, const QString& name) {
  if (index >= views_.size() || name.trimmed().isEmpty()) return;
  std::vector<SavedView> views = views_;
  views[index].name = name.trimmed().toStdString();
  setViews(std::move(views));
}

void SavedViews::setViews(std::vector<SavedView> views) {
  views_ = std::move(views);
  emit changed();
}

}  // namespace slimpack::ui

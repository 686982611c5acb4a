#include "trace/trace_run_alignment.h"

#include <QComboBox>
#include <QInputDialog>
#include <QLineEdit>
#include <QSignalBlocker>
#include <algorithm>

#include "trace/sim_check_panel.h"
#include "trace/timeline_stack.h"
#include "trace/trace_diff_panel.h"
#include "trace/trace_loader.h"
#include "trace/trace_view.h"

namespace slimpack::ui {
namespace {

constexpr int kAskRole = Qt::UserRole + 1;  // the "Align at event…" entry
using Slot = TraceLoader::Slot;

}  // namespace

TraceRunAlignment::TraceRunAlignment(Parts parts, QObject* parent)
    : QObject(parent), parts_(std::move(parts)), rank_align_(new QLineEdit), align_(new QComboBox) {
  setUpControls();
  connect(align_, &QComboBox::activated, this, &TraceRunAlignment::onActivated);
  connect(rank_align_, &QLineEdit::editingFinished, this, [this] {
    if (rank_align_->text().trimmed().toStdString() != parts_.loader->options().align_event)
      alignRanksAt(rank_align_->text());
  });
  connect(parts_.diff, &TraceDiffPanel::alignRequested, this, &TraceRunAlignment::alignAtEvent);
}

void TraceRunAlignment::setUpControls() {
  rank_align_->setObjectName(QStringLiteral("traceRankAlign"));
  rank_align_->setPlaceholderText(tr("Align ranks at event"));
  rank_align_->setClearButtonEnabled(true);
  rank_align_->setToolTip(
      tr("The ranks' clocks: each file's first event of this name is its time zero (e.g. "
         "ProfilerStep#2); empty: as recorded. slimpack's --trace-align"));
  align_->setObjectName(QStringLiteral("traceAlign"));
  align_->setToolTip(tr("How the two runs share the time axis"));
  // Its items come from the trace (event names): a long one must not set the tab's minimum
  // width (the list shows it whole).
  align_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  align_->setMinimumContentsLength(14);
}

void TraceRunAlignment::onActivated(int index) {
  if (index <= 0) {
    setAlignment(Align::FirstEvent);
  } else if (align_->itemData(index, kAskRole).toBool()) {
    // "Align at event…": any event name, the selected diff row's by default.
    bool ok = false;
    const QString name = QInputDialog::getText(align_->window(), tr("Align at Event"),
                                               tr("Event name (its first occurrence in each run):"),
                                               QLineEdit::Normal, parts_.diff->currentName(), &ok);
    if (ok && !name.isEmpty())
      alignAtEvent(name);
    else
      setAlignment(Align::FirstEvent);
  } else {
    setAlignment(Align::NamedEvent, align_->itemData(index).toString());
  }
}

void TraceRunAlignment::setShown(bool on) {
  align_->setVisible(on);
}

void TraceRunAlignment::restart() {
  if (!parts_.loader->comparing()) return;
  fillAlignMenu();
  setAlignment(Align::FirstEvent);
}

void TraceRunAlignment::fillAlignMenu() {
  align_->clear();
  align_->addItem(tr("Align at first event"));
  // Steps both runs have, then the top-level names of A (a chosen event).
  const auto steps_a = parts_.loader->run(Slot::A).timeline->names_with_prefix("ProfilerStep#");
  const auto steps_b = parts_.loader->run(Slot::B).timeline->names_with_prefix("ProfilerStep#");
  for (const auto& s : steps_a)
    if (std::find(steps_b.begin(), steps_b.end(), s) != steps_b.end())
      align_->addItem(tr("Align at %1").arg(QString::fromStdString(s)), QString::fromStdString(s));
  align_->addItem(tr("Align at event…"));
  align_->setItemData(align_->count() - 1, true, kAskRole);
}

bool TraceRunAlignment::alignAtEvent(const QString& name) {
  if (setAlignment(Align::NamedEvent, name)) return true;
  emit statusMessage(tr("no event named “%1” in both runs: alignment unchanged").arg(name));
  return false;
}

bool TraceRunAlignment::setAlignment(Align align, const QString& name) {
  TraceLoader& loader = *parts_.loader;
  if (!loader.comparing()) return false;
  double origin_a = loader.run(Slot::A).timeline->first_start_us();
  double origin_b = loader.run(Slot::B).timeline->first_start_us();
  if (align == Align::NamedEvent) {
    const auto a = loader.run(Slot::A).timeline->first_start_of(name.toStdString());
    const auto b = loader.run(Slot::B).timeline->first_start_of(name.toStdString());
    if (!a || !b) return false;
    origin_a = *a;
    origin_b = *b;
  }
  // A view whose origin stays keeps its snapshot (and its folded groups).
  if (loader.setOrigin(Slot::A, origin_a)) parts_.view_a->setTimeline(loader.run(Slot::A).timeline);
  if (loader.setOrigin(Slot::B, origin_b)) parts_.view_b->setTimeline(loader.run(Slot::B).timeline);
  // One axis: B shows A's range.
  TimelineStack::showOnOneAxis(parts_.view_a, parts_.view_b);
  int index = align == Align::FirstEvent ? 0 : align_->findData(name);
  if (index < 0) {  // a chosen event: listed before "Align at event…" from now on
    index = align_->count() - 1;
    align_->insertItem(index, tr("Align at %1").arg(name), name);
  }
  align_->setCurrentIndex(index);
  emit aligned();
  return true;
}

void TraceRunAlignment::alignRanksAt(const QString& event) {
  TraceSpec options = parts_.loader->options();
  options.align_event = event.trimmed().toStdString();
  if (!options.align_event.empty()) options.offsets_us.clear();
  parts_.loader->setOptions(options);
  showRankAlignment(QString::fromStdString(options.align_event));
  parts_.loader->reloadA();
}

void TraceRunAlignment::showRankAlignment(const QString& event) {
  const QSignalBlocker block(rank_align_);
  rank_align_->setText(event);
}

void TraceRunAlignment::alignToUnits(double origin_us) {
  TraceLoader& loader = *parts_.loader;
  if (!loader.run(Slot::A).timeline || !parts_.sim_shown()) return;
  if (loader.setOrigin(Slot::A, origin_us))
    parts_.view_a->setTimeline(loader.run(Slot::A).timeline);
  GanttView* sim_view = parts_.sim_check->simulatedView();
  if (!sim_view->model() || !parts_.view_a->model()) return;
  parts_.stack->syncLabelWidths();
  if (!parts_.sim_check->matchesPlan()) {  // two different runs: each on its own extent
    parts_.view_a->fitToWindow();
    sim_view->fitToWindow();
    return;
  }
  TimelineStack::showOnOneAxis(parts_.view_a, sim_view);
}

}  // namespace slimpack::ui

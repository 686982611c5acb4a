#include "trace/bubble_panel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPainter>
#include <QPixmap>
#include <QTableView>
#include <QVBoxLayout>

#include "app/trace_pipeline_report.h"
#include "jobs/job_tracker.h"
#include "trace/bubble_model.h"
#include "trace/sim_check_panel.h"
#include "trace/trace_view.h"

namespace slimpack::ui {
namespace {

QString q(const std::string& s) {
  return QString::fromStdString(s);
}

// A legend entry: a swatch of `color` (filled as the timeline tints a bubble, or a frame as it
// outlines the critical path) and its name.
QWidget* swatch(const QColor& color, const QString& name, const QString& tooltip, bool frame) {
  QPixmap box(14, 14);
  box.fill(color);
  if (frame) {
    QPainter p(&box);
    p.fillRect(box.rect().adjusted(3, 3, -3, -3), Qt::white);
  }
  auto* entry = new QWidget;
  auto* row = new QHBoxLayout(entry);
  row->setContentsMargins(0, 0, 6, 0);
  row->setSpacing(4);
  auto* icon = new QLabel;
  icon->setPixmap(box);
  row->addWidget(icon);
  row->addWidget(new QLabel(name));
  entry->setToolTip(tooltip);
  return entry;
}

}  // namespace

BubblePanel::BubblePanel(QWidget* parent)
    : QWidget(parent),
      jobs_(new JobTracker(this)),
      model_(new BubbleModel(this)),
      table_(new QTableView),
      summary_(new QLabel) {
  setObjectName(QStringLiteral("bubblePanel"));
  table_->setObjectName(QStringLiteral("bubbleTable"));
  table_->setModel(model_);
  table_->verticalHeader()->hide();
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setStretchLastSection(true);
  // Room for two stages (measured and simulated rows) when the splitter is crowded.
  table_->setMinimumHeight(table_->horizontalHeader()->sizeHint().height() +
                           4 * table_->verticalHeader()->defaultSectionSize() +
                           2 * table_->frameWidth());
  summary_->setObjectName(QStringLiteral("bubbleSummary"));
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(buildLegend());
  layout->addWidget(summary_);
  layout->addWidget(table_, 1);
  clear(
      tr("Show Measured vs Simulated with a run of the current plan to see where its bubbles "
         "come from."));
}

BubblePanel::~BubblePanel() = default;

QWidget* BubblePanel::buildLegend() {
  auto* legend = new QWidget;
  legend->setObjectName(QStringLiteral("bubbleLegend"));
  auto* row = new QHBoxLayout(legend);
  row->setContentsMargins(4, 2, 4, 2);
  row->addWidget(new QLabel(tr("Bubbles by cause:")));
  row->addWidget(swatch(bubbleCauseColor(BubbleCause::Dependency), tr("dependency"),
                        tr("Waiting for a message whose producer on another stage had not "
                           "finished"),
                        false));
  row->addWidget(swatch(bubbleCauseColor(BubbleCause::Transfer), tr("transfer"),
                        tr("Producer done, the message still in flight (receive not complete)"),
                        false));
  row->addWidget(swatch(bubbleCauseColor(BubbleCause::Fill), tr("fill / drain"),
                        tr("Before the stage's first unit and after its last"), false));
  row->addWidget(swatch(bubbleCauseColor(BubbleCause::Other), tr("other"),
                        tr("Host work, launch gaps: idle with the message there"), false));
  row->addWidget(swatch(criticalPathColor(), tr("critical path"),
                        tr("Walked back from the unit that ends last through the predecessor "
                           "ready last: the unit before it on its stage or its message"),
                        true));
  row->addStretch(1);
  return legend;
}

void BubblePanel::attach(SimCheckPanel* check, TraceView* view) {
  check_ = check;
  view_ = view;
  connect(check_, &SimCheckPanel::checked, this, [this] { analyse(); });
  connect(check_, &SimCheckPanel::failed, this, [this](const QString& message) {
    jobs_->cancel();
    clear(message);
  });
}

QString BubblePanel::summaryText() const {
  return summary_->text();
}

void BubblePanel::analyse() {
  jobs_->cancel();
  stale_ = false;
  const auto run = check_ ? check_->measured() : nullptr;
  const SnapshotPtr snapshot = check_ ? check_->simulation() : nullptr;
  if (!run || !snapshot || !snapshot->plan) {
    clear(
        tr("Show Measured vs Simulated with a run of the current plan to see where its "
           "bubbles come from."));
    return;
  }
  if (isHidden()) {
    stale_ = true;
    return;
  }
  summary_->setText(tr("classifying bubbles…"));
  jobs_->start(
      tr("Classifying bubbles"),
      [run, snapshot, request = check_->request()](
          const CancelToken& cancel, ProgressSink& progress) -> Expected<TracePipeline> {
        progress.report("classifying bubbles", 0.0);
        return trace_pipeline_run(*run, request, *snapshot->plan, snapshot->sim,
                                  snapshot->cost.get(), cancel);
      },
      [this](Expected<TracePipeline> result) {
        if (!result) {
          if (result.error().kind != ErrorKind::Cancelled) clear(q(result.error().message));
          return;
        }
        showResult(std::make_shared<const TracePipeline>(std::move(*result)));
      });
}

void BubblePanel::clear(const QString& message) {
  overlay_.setResult(nullptr);
  model_->clear();
  summary_->setText(message);
  updateOverlay();
  emit analysed();
}

void BubblePanel::showResult(std::shared_ptr<const TracePipeline> result) {
  const PipelineBubbles& m = result->measured;
  model_->setResult(*result);
  QStringList path;
  for (const std::string& line : critical_path_lines(m)) path << q(line);
  QString text = tr("Makespan measured %1, simulated %2. Critical path: %3.")
                     .arg(trace_duration_text(m.makespan_us * 1e-6),
                          trace_duration_text(result->simulated.makespan_us * 1e-6),
                          path.join(QStringLiteral(" → ")));
  const auto worst = worst_dependency_waits(m, 1);
  if (!worst.empty())
    text += tr(" Longest dependency wait: %1 waited %2 for %3.")
                .arg(q(bubble_unit_text(m, worst[0].unit)),
                     trace_duration_text(worst[0].duration_us() * 1e-6),
                     q(bubble_unit_text(m, worst[0].producer)));
  if (result->messages.empty())
    text += tr(" The run has no receive or send ranges: transfer cannot be told from other.");
  summary_->setText(text);
  overlay_.setResult(std::move(result));
  updateOverlay();
  emit analysed();
}

void BubblePanel::updateOverlay() {
  if (!view_) return;
  if (isVisible() && overlay_.result())
    view_->setOverlay([this](QPainter& p) { overlay_.paint(p, *view_); });
  else
    view_->setOverlay({});
}

void BubblePanel::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (stale_)
    analyse();
  else
    updateOverlay();
}

void BubblePanel::hideEvent(QHideEvent* event) {
  QWidget::hideEvent(event);
  updateOverlay();
}

}  // namespace slimpack::ui

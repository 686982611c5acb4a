#include "window/status_line.h"

#include <QFile>
#include <QIcon>
#include <QLabel>
#include <QProgressBar>
#include <QStatusBar>
#include <QToolButton>
#include <string>

#include "jobs/job_board.h"
#include "models/format.h"
#include "models/metrics_model.h"
#include "window/explorer_controller.h"
#include "window/view_states.h"

namespace slimpack::ui {

StatusLine::StatusLine(QStatusBar* bar, ExplorerController& controller, JobBoard& jobs,
                       const ViewStates& states, QObject* parent)
    : QObject(parent),
      controller_(controller),
      jobs_(jobs),
      states_(states),
      stage_(new QLabel),
      progress_(new QProgressBar),
      cancel_(new QToolButton),
      result_(new QLabel) {
  progress_->setRange(0, 1000);
  progress_->setMaximumWidth(160);
  progress_->setTextVisible(false);
  if (QFile::exists(":/icons/cancel.svg")) cancel_->setIcon(QIcon(":/icons/cancel.svg"));
  cancel_->setText(tr("Cancel"));
  cancel_->setToolTip(tr("Cancel the running job (Esc)"));
  bar->addWidget(result_, 1);
  bar->addPermanentWidget(stage_);
  bar->addPermanentWidget(progress_);
  bar->addPermanentWidget(cancel_);
  connect(&jobs_, &JobBoard::busyChanged, this, &StatusLine::updateBusy);
  connect(&jobs_, &JobBoard::progress, this,
          [this](const QString& job, const QString& stage, double f) {
            stage_->setText(stage.isEmpty() ? job : stage);
            progress_->setValue(static_cast<int>(f * 1000));
            updateBusy();  // the list of running jobs in the Cancel button's tooltip
          });
  connect(cancel_, &QToolButton::clicked, this, &StatusLine::cancelRequested);
  updateBusy();
}

void StatusLine::updateBusy() {
  const bool busy = controller_.busy() || jobs_.busy();
  stage_->setVisible(busy);
  progress_->setVisible(busy);
  cancel_->setVisible(busy);
  if (!busy) stage_->clear();
  const QStringList running = jobs_.running();
  cancel_->setToolTip(running.isEmpty()
                          ? tr("Cancel the running job (Esc)")
                          : tr("Cancel (Esc): %1").arg(running.join(QStringLiteral(", "))));
  emit busyChanged(busy);
}

void StatusLine::updateText() {
  const SnapshotPtr& snap = controller_.snapshot();
  switch (controller_.resultState()) {
    case ResultState::Failed:
    case ResultState::Cancelled: {
      // The same words as the banner on the views.
      result_->setText(QStringLiteral("<span style='color:#d64545'>%1</span>")
                           .arg(states_.resultBanner(false).toHtmlEscaped()));
      result_->setToolTip(states_.resultBanner());
      return;
    }
    case ResultState::Computing:
    case ResultState::Current:
      break;
  }
  if (!snap) return;
  const SimResult& r = snap->sim;
  QString text = tr("%1 · iteration %2 · bubble %3 · %4 · solved in %5, simulated in %6")
                     .arg(QString::fromStdString(snap->plan ? snap->plan->strategy : std::string()),
                          formatTime(r.iteration_time, QString::fromStdString(r.time_unit)),
                          formatPercent(r.bubble_ratio),
                          r.tokens_per_second > 0 ? formatRate(r.tokens_per_second) : QString("-"),
                          formatTime(snap->seconds_solve), formatTime(snap->seconds_simulate))
                     .toHtmlEscaped();
  const QString fallback = interleavedFallback(*snap);
  if (!fallback.isEmpty())
    text +=
        QStringLiteral(" · <span style='color:#b06000'>%1</span>").arg(fallback.toHtmlEscaped());
  result_->setText(text);
  result_->setToolTip(fallback);
}

}  // namespace slimpack::ui

#include "panels/workload_panel.h"

#include <QComboBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include "charts/length_histogram_chart.h"
#include "models/format.h"
#include "panels/state_frame.h"

namespace slimpack::ui {

WorkloadPanel::WorkloadPanel(QWidget* parent)
    : QWidget(parent),
      source_(new QComboBox),
      open_(new QPushButton(tr("Open…"))),
      column_(new QLineEdit),
      seed_(new QSpinBox),
      batch_k_(new QSpinBox),
      stats_(new QLabel),
      histogram_(new LengthHistogramChart) {
  for (const auto& name : length_preset_names()) {
    source_->addItem(QString::fromStdString(name), QString::fromStdString(name));
    source_->setItemData(source_->count() - 1,
                         QString::fromStdString(length_preset_description(name)), Qt::ToolTipRole);
  }
  source_->setToolTip(tr("Length distribution preset, or the opened length file"));
  open_->setToolTip(tr("Open a length file (.csv, .json, .jsonl) or a plan"));
  column_->setObjectName(QStringLiteral("lengthColumn"));
  column_->setPlaceholderText(tr("only column"));
  column_->setToolTip(tr("CSV column / JSONL field of a multi-column file"));
  seed_->setRange(0, 1'000'000'000);
  seed_->setToolTip(tr("Sampling seed: the same seed gives the same batch"));
  batch_k_->setRange(0, 64 * 1024);
  batch_k_->setSingleStep(256);
  batch_k_->setSuffix(tr(" K tokens"));
  batch_k_->setToolTip(
      tr("Token budget of the sampled batch, in K = 1024 tokens. The lowest value takes the whole "
         "file (a length file) or the default 1024 K tokens (a preset)."));
  stats_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  stats_->setWordWrap(true);

  auto* source_row = new QHBoxLayout;
  source_row->addWidget(source_, 1);
  source_row->addWidget(open_);
  auto* form = new QFormLayout;
  form->addRow(tr("Lengths"), source_row);
  form->addRow(tr("Column"), column_);
  form->addRow(tr("Seed"), seed_);
  form->addRow(tr("Batch budget"), batch_k_);
  form->setRowWrapPolicy(QFormLayout::WrapLongRows);
  auto* result = new QWidget;
  auto* result_col = new QVBoxLayout(result);
  result_col->setContentsMargins(0, 0, 0, 0);
  result_col->addWidget(stats_);
  result_col->addWidget(histogram_, 1);
  frame_ = new StateFrame(result);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(frame_, 1);

  connect(open_, &QPushButton::clicked, this, &WorkloadPanel::openFileRequested);
  connect(source_, &QComboBox::activated, this, [this] { edited(); });
  connect(column_, &QLineEdit::editingFinished, this, [this] { edited(); });
  // Typed numbers count on Enter or focus out: one solve and one undo step per typed value.
  seed_->setKeyboardTracking(false);
  batch_k_->setKeyboardTracking(false);
  connect(seed_, &QSpinBox::valueChanged, this, [this] { edited(); });
  connect(batch_k_, &QSpinBox::valueChanged, this, [this] { edited(); });
  setSpec(spec_);
}

void WorkloadPanel::setSpec(const WorkloadSpec& spec) {
  spec_ = spec;
  const QSignalBlocker b1(source_), b2(seed_), b3(batch_k_), b4(column_);
  // A file shows as an extra first entry carrying its path.
  if (source_->itemData(0, Qt::UserRole + 1).toBool()) source_->removeItem(0);
  if (!spec.file.empty()) {
    const QString path = QString::fromStdString(spec.file);
    source_->insertItem(0, tr("file: %1").arg(QFileInfo(path).fileName()), QString());
    source_->setItemData(0, true, Qt::UserRole + 1);
    source_->setItemData(0, path, Qt::ToolTipRole);
    source_->setCurrentIndex(0);
  } else {
    source_->setCurrentIndex(source_->findData(QString::fromStdString(spec.preset)));
  }
  column_->setText(QString::fromStdString(spec.column));
  column_->setEnabled(!spec.file.empty() && plan_file_.isEmpty());
  seed_->setValue(static_cast<int>(spec.seed));
  // Say what the lowest budget means for this source.
  batch_k_->setSpecialValueText(spec.file.empty() ? tr("default (1024 K)") : tr("whole file"));
  batch_k_->setValue(static_cast<int>(spec.batch_tokens / 1024));
  if (!plan_file_.isEmpty()) showPlanSource();
}

void WorkloadPanel::showPlanSource() {
  const QSignalBlocker block(source_);
  if (source_->itemData(0, Qt::UserRole + 1).toBool()) source_->removeItem(0);
  source_->insertItem(0, tr("plan: %1 (its own batch)").arg(QFileInfo(plan_file_).fileName()),
                      QString());
  // Not a file entry: picking it again changes nothing; picking a preset closes the plan.
  source_->setItemData(0, true, Qt::UserRole + 2);
  source_->setItemData(0, true, Qt::UserRole + 1);
  source_->setItemData(0, plan_file_, Qt::ToolTipRole);
  source_->setCurrentIndex(0);
}

void WorkloadPanel::setPlanFile(const QString& plan_file) {
  if (plan_file == plan_file_) return;
  plan_file_ = plan_file;
  for (QWidget* w : std::initializer_list<QWidget*>{seed_, batch_k_})
    w->setEnabled(plan_file.isEmpty());
  setSpec(spec_);  // shows the plan or the workload's source again
  source_->setToolTip(plan_file.isEmpty()
                          ? tr("Length distribution preset, or the opened length file")
                          : tr("The opened plan's batch. Pick a preset or open a length file to "
                               "solve a workload instead (the plan closes)."));
}

void WorkloadPanel::edited() {
  WorkloadSpec s = spec_;
  // The plan's entry stands for the plan: re-picking it changes nothing.
  if (source_->itemData(source_->currentIndex(), Qt::UserRole + 2).toBool()) return;
  const bool file = source_->itemData(source_->currentIndex(), Qt::UserRole + 1).toBool();
  if (!file) {
    s.file.clear();
    s.column.clear();
    s.preset = source_->currentData().toString().toStdString();
  } else {
    s.column = column_->text().trimmed().toStdString();
  }
  s.seed = static_cast<std::uint64_t>(seed_->value());
  // Only a change of the spin box rewrites the budget, so a session's exact budget survives edits
  // of other fields.
  if (batch_k_->value() != static_cast<int>(spec_.batch_tokens / 1024))
    s.batch_tokens = static_cast<Tokens>(batch_k_->value()) * 1024;
  // A file's batch index (a batch picked in the Dataset tab) counts the batches of one file and
  // budget: another source or budget draws a sampled batch again.
  if (s.file != spec_.file || s.column != spec_.column || s.batch_tokens != spec_.batch_tokens)
    s.batch_index = -1;
  if (s == spec_) return;
  setSpec(s);
  emit workloadEdited(s);
}

void WorkloadPanel::setSnapshot(const SnapshotPtr& snapshot) {
  if (!snapshot) {
    stats_->clear();
    histogram_->setLengths({});
    return;
  }
  const LengthStats& st = snapshot->batch_stats;
  stats_->setText(tr("<b>%1</b> sequences, <b>%2</b> tokens<br>mean %3 · p99 %4 · max %5")
                      .arg(formatTokens(double(st.count)), formatTokens(double(st.total_tokens)),
                           formatTokens(st.mean), formatTokens(st.p99),
                           formatTokens(double(st.max))));
  histogram_->setLengths(snapshot->batch_lengths);
}

void WorkloadPanel::setDark(bool dark) {
  histogram_->setDark(dark);
}

}  // namespace slimpack::ui

#include "panels/config_panel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QToolButton>

#include "cost/model_config.h"
#include "solver/strategy.h"

namespace slimpack::ui {
namespace {
void fill(QComboBox* box, const std::vector<std::string>& names) {
  for (const auto& n : names) box->addItem(QString::fromStdString(n));
}
}  // namespace

ConfigPanel::ConfigPanel(QWidget* parent)
    : QWidget(parent),
      model_(new QComboBox),
      gpu_(new QComboBox),
      pp_(new QSpinBox),
      dp_(new QSpinBox),
      tp_(new QSpinBox),
      strategy_(new QComboBox),
      slice_slider_(new QSlider(Qt::Horizontal)),
      slice_spin_(new QSpinBox),
      packs_(new QSpinBox),
      schedule_(new QComboBox),
      vchunks_(new QSpinBox),
      memory_cap_(new QDoubleSpinBox),
      costs_(new QLabel) {
  fill(model_, model_preset_names());
  fill(gpu_, gpu_preset_names());
  fill(strategy_, strategy_names());
  for (auto kind : {ScheduleKind::OneFOneB, ScheduleKind::GPipe, ScheduleKind::Interleaved})
    schedule_->addItem(QString::fromLatin1(schedule_name(kind)));
  pp_->setRange(1, 128);
  dp_->setRange(1, 64);
  tp_->setRange(1, 64);
  pp_->setToolTip(tr("Pipeline stages p"));
  dp_->setToolTip(tr("Data-parallel replicas d"));
  tp_->setToolTip(tr("Tensor-parallel degree t (with sequence parallelism)"));
  slice_slider_->setRange(0, kMaxSlice / kSliceStep);
  slice_slider_->setPageStep(4);
  slice_slider_->setToolTip(tr("Slice size S: drag to re-solve live (left end = automatic)"));
  slice_spin_->setRange(0, kMaxSlice);
  slice_spin_->setSingleStep(kSliceStep);
  slice_spin_->setSpecialValueText(tr("auto"));
  slice_spin_->setSuffix(tr(" tok"));
  packs_->setRange(0, 4096);
  packs_->setSpecialValueText(tr("auto"));
  packs_->setToolTip(tr("Forward MicroPacks per replica (auto = the strategy decides)"));
  vchunks_->setRange(1, 16);
  vchunks_->setPrefix(tr("v = "));
  vchunks_->setToolTip(tr("Virtual chunks per stage for the interleaved schedule"));
  memory_cap_->setRange(0, 1024);
  memory_cap_->setDecimals(0);
  memory_cap_->setSuffix(tr(" GB"));
  memory_cap_->setSpecialValueText(tr("GPU memory"));
  memory_cap_->setToolTip(tr("Memory cap per GPU (0 = the GPU's memory)"));

  auto* par = new QHBoxLayout;
  par->addWidget(pp_);
  par->addWidget(dp_);
  par->addWidget(tp_);
  auto* slice = new QHBoxLayout;
  slice->addWidget(slice_slider_, 1);
  slice->addWidget(slice_spin_);
  auto* schedule = new QHBoxLayout;
  schedule->addWidget(schedule_, 1);
  schedule->addWidget(vchunks_);
  auto* costs_button = new QToolButton;
  costs_button->setText(tr("Change…"));
  costs_button->setPopupMode(QToolButton::InstantPopup);
  auto* costs_menu = new QMenu(costs_button);
  costs_menu->addAction(tr("Load Fitted Cost &Profile…"), this,
                        [this] { emit costFileRequested(CostFile::Profile); });
  costs_menu->addAction(tr("Load Cost &Overrides…"), this,
                        [this] { emit costFileRequested(CostFile::Overrides); });
  costs_menu->addSeparator();
  costs_menu->addAction(tr("&Built-in Coefficients"), this, [this] {
    ConfigSpec s = spec_;
    s.cost_profile_file.clear();
    s.cost_overrides_file.clear();
    if (s == spec_) return;
    setSpec(s);
    emit configEdited(s);
  });
  costs_button->setMenu(costs_menu);
  costs_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* costs = new QHBoxLayout;
  costs->addWidget(costs_, 1);
  costs->addWidget(costs_button);
  auto* form = new QFormLayout(this);
  form->addRow(tr("Model"), model_);
  form->addRow(tr("GPU"), gpu_);
  form->addRow(tr("p / d / t"), par);
  form->addRow(tr("Strategy"), strategy_);
  form->addRow(tr("Slice size"), slice);
  form->addRow(tr("Packs"), packs_);
  form->addRow(tr("Schedule"), schedule);
  form->addRow(tr("Memory cap"), memory_cap_);
  form->addRow(tr("Costs"), costs);

  for (QComboBox* box : {model_, gpu_, strategy_, schedule_})
    connect(box, &QComboBox::activated, this, [this] { edited(); });
  for (QSpinBox* box : {pp_, dp_, tp_, packs_, vchunks_})
    connect(box, &QSpinBox::valueChanged, this, [this] { edited(); });
  connect(memory_cap_, &QDoubleSpinBox::valueChanged, this, [this] { edited(); });
  // Slider and spin box mirror each other; either one edits S.
  connect(slice_slider_, &QSlider::valueChanged, this, [this](int v) {
    const QSignalBlocker block(slice_spin_);
    slice_spin_->setValue(v * kSliceStep);
    edited();
  });
  connect(slice_spin_, &QSpinBox::valueChanged, this, [this](int v) {
    const QSignalBlocker block(slice_slider_);
    slice_slider_->setValue((v + kSliceStep / 2) / kSliceStep);
    edited();
  });
  setSpec(spec_);
}

void ConfigPanel::setSpec(const ConfigSpec& spec) {
  spec_ = spec;
  const QSignalBlocker b1(model_), b2(gpu_), b3(pp_), b4(dp_), b5(tp_), b6(strategy_),
      b7(slice_slider_), b8(slice_spin_), b9(packs_), b10(schedule_), b11(memory_cap_),
      b12(vchunks_);
  model_->setCurrentText(QString::fromStdString(spec.model));
  gpu_->setCurrentText(QString::fromStdString(spec.gpu));
  pp_->setValue(spec.pp);
  dp_->setValue(spec.dp);
  tp_->setValue(spec.tp);
  strategy_->setCurrentText(QString::fromStdString(spec.strategy));
  slice_spin_->setValue(static_cast<int>(spec.slice_size));
  slice_slider_->setValue(static_cast<int>((spec.slice_size + kSliceStep / 2) / kSliceStep));
  packs_->setValue(spec.packs);
  schedule_->setCurrentText(QString::fromLatin1(schedule_name(spec.schedule)));
  memory_cap_->setValue(spec.memory_cap_gb);
  vchunks_->setValue(spec.vchunks);
  vchunks_->setEnabled(spec.schedule == ScheduleKind::Interleaved);
  showCosts();
}

QString ConfigPanel::costText() const {
  return costs_->text();
}

void ConfigPanel::showCosts() {
  QStringList parts;
  if (!spec_.cost_profile_file.empty())
    parts << tr("profile %1")
                 .arg(QFileInfo(QString::fromStdString(spec_.cost_profile_file)).fileName());
  if (!spec_.cost_overrides_file.empty())
    parts << tr("overrides %1")
                 .arg(QFileInfo(QString::fromStdString(spec_.cost_overrides_file)).fileName());
  costs_->setText(parts.isEmpty() ? tr("built-in coefficients") : parts.join(QStringLiteral(", ")));
  costs_->setToolTip(
      parts.isEmpty()
          ? tr("DESIGN section 3 coefficients for the chosen model and GPU")
          : QString::fromStdString(spec_.cost_profile_file + "\n" + spec_.cost_overrides_file)
                .trimmed());
}

void ConfigPanel::edited() {
  ConfigSpec s = spec_;
  s.model = model_->currentText().toStdString();
  s.gpu = gpu_->currentText().toStdString();
  s.pp = pp_->value();
  s.dp = dp_->value();
  s.tp = tp_->value();
  s.strategy = strategy_->currentText().toStdString();
  s.slice_size = slice_spin_->value();
  s.packs = packs_->value();
  parse_schedule(schedule_->currentText().toStdString(), s.schedule);
  s.memory_cap_gb = memory_cap_->value();
  s.vchunks = vchunks_->value();
  vchunks_->setEnabled(s.schedule == ScheduleKind::Interleaved);
  if (s == spec_) return;
  spec_ = s;
  emit configEdited(s);
}

}  // namespace slimpack::ui

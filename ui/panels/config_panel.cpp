#include "panels/config_panel.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QToolButton>

#include <algorithm>

#include "app/config_options.h"
#include "cost/model_config.h"
#include "cost/recompute.h"
#include "cost/stage_split.h"
#include "models/format.h"
#include "solver/strategy.h"

namespace slimpack::ui {
namespace {
void fill(QComboBox* box, const std::vector<std::string>& names) {
  for (const auto& n : names) box->addItem(QString::fromStdString(n));
}

// The spin box steps through powers of two (512, 1K, 2K, ...) like the slider; typing takes any
// value. Below kMinSlice the next step down is "auto".
class SliceSpinBox : public QSpinBox {
 public:
  void stepBy(int steps) override {
    int v = value();
    for (; steps > 0; --steps)
      v = v < ConfigPanel::kMinSlice
              ? ConfigPanel::kMinSlice
              : static_cast<int>(ConfigPanel::sliceOfIndex(ConfigPanel::sliderIndexOf(v) + 1));
    for (; steps < 0; ++steps) {
      const int i = ConfigPanel::sliderIndexOf(v);
      // A value between two powers of two steps down to the lower one first.
      v = ConfigPanel::sliceOfIndex(i) < v ? static_cast<int>(ConfigPanel::sliceOfIndex(i))
          : i <= 1                         ? 0
                                           : static_cast<int>(ConfigPanel::sliceOfIndex(i - 1));
    }
    setValue(std::clamp(v, minimum(), maximum()));
  }
};
}  // namespace

int ConfigPanel::sliderIndexOf(Tokens slice) {
  if (slice <= 0) return 0;
  int i = 1;
  while (sliceOfIndex(i + 1) <= slice) ++i;
  return i;
}

Tokens ConfigPanel::sliceOfIndex(int index) {
  return index <= 0 ? 0 : static_cast<Tokens>(kMinSlice) << (index - 1);
}

ConfigPanel::ConfigPanel(QWidget* parent)
    : QWidget(parent),
      model_(new QComboBox),
      gpu_(new QComboBox),
      pp_(new QSpinBox),
      dp_(new QSpinBox),
      tp_(new QSpinBox),
      strategy_(new QComboBox),
      slice_slider_(new QSlider(Qt::Horizontal)),
      slice_spin_(new SliceSpinBox),
      packs_(new QSpinBox),
      schedule_(new QComboBox),
      vchunks_(new QSpinBox),
      context_(new QSpinBox),
      recompute_(new QComboBox),
      cp_(new QSpinBox),
      stage_layers_(new QLineEdit),
      memory_cap_(new QDoubleSpinBox),
      costs_(new QLabel),
      note_(new QLabel),
      auto_slice_(new QLabel) {
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
  slice_slider_->setRange(0, sliderIndexOf(kMaxSlice));
  slice_slider_->setPageStep(1);
  slice_slider_->setTickPosition(QSlider::TicksBelow);
  slice_slider_->setTickInterval(1);
  slice_slider_->setToolTip(
      tr("Slice size S in powers of two up to the longest sequence: drag to re-solve live "
         "(left end = the strategy's automatic choice)"));
  slice_spin_->setRange(0, kMaxSlice);
  slice_spin_->setSpecialValueText(tr("auto"));
  slice_spin_->setToolTip(tr("Slice size S in tokens (arrows step in powers of two)"));
  auto_slice_->setObjectName("config.autoSlice");
  auto_slice_->setWordWrap(true);
  note_->setObjectName("config.note");
  note_->setWordWrap(true);
  note_->hide();
  slice_spin_->setSuffix(tr(" tok"));
  packs_->setRange(0, 4096);
  packs_->setSpecialValueText(tr("auto"));
  packs_->setToolTip(tr("Forward MicroPacks per replica (auto = the strategy decides)"));
  vchunks_->setRange(1, 16);
  vchunks_->setPrefix(tr("v = "));
  vchunks_->setToolTip(tr("Virtual chunks per stage for the interleaved schedule"));
  context_->setRange(0, 16 * 1024 * 1024);
  context_->setSingleStep(4096);
  context_->setSpecialValueText(tr("auto"));
  context_->setSuffix(tr(" tok"));
  context_->setToolTip(
      tr("Context window (Megatron's --seq-length): fixed packs into packs of this many tokens; "
         "auto = the smallest power of two at or above the longest sample"));
  recompute_->setEditable(true);
  recompute_->setInsertPolicy(QComboBox::NoInsert);  // a typo is not offered again
  recompute_->addItems({"auto", "none", "selective", "full"});
  recompute_->setToolTip(
      tr("Activation recomputation: none, selective, full, a layer count per stage (e.g. 4), or "
         "auto = the fewest recomputed layers per stage that fit the memory cap"));
  cp_->setRange(1, 64);
  cp_->setPrefix(tr("c = "));
  cp_->setToolTip(
      tr("Context-parallel degree c: each sequence in 2c load-balanced chunks over c "
         "GPUs, K/V exchanged in a ring (GPUs = p·t·c·d)"));
  stage_layers_->setToolTip(
      tr("Layers per stage: auto (balances embedding and LM head), even, "
         "or a list such as 7,8,8,9 that sums to the model's layers"));
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
  // Laptop docks are narrow: fields wrap under their labels rather than being cut.
  form->setRowWrapPolicy(QFormLayout::WrapLongRows);
  form->addRow(note_);
  form->addRow(tr("Model"), model_);
  form->addRow(tr("GPU"), gpu_);
  form->addRow(tr("p / d / t"), par);
  form->addRow(tr("Strategy"), strategy_);
  form->addRow(tr("Slice size"), slice);
  form->addRow(QString(), auto_slice_);
  form->addRow(tr("Packs"), packs_);
  form->addRow(tr("Schedule"), schedule);
  auto* recompute_cp = new QHBoxLayout;
  recompute_cp->addWidget(recompute_, 1);
  recompute_cp->addWidget(cp_);
  form->addRow(tr("Context"), context_);
  form->addRow(tr("Recompute / CP"), recompute_cp);
  form->addRow(tr("Stage layers"), stage_layers_);
  form->addRow(tr("Memory cap"), memory_cap_);
  form->addRow(tr("Costs"), costs);

  for (QComboBox* box : {model_, gpu_, strategy_, schedule_})
    connect(box, &QComboBox::activated, this, [this] { edited(); });
  for (QSpinBox* box : {pp_, dp_, tp_, packs_, vchunks_, context_, cp_})
    connect(box, &QSpinBox::valueChanged, this, [this] { edited(); });
  connect(recompute_, &QComboBox::activated, this, [this] { edited(); });
  connect(recompute_->lineEdit(), &QLineEdit::editingFinished, this, [this] { edited(); });
  connect(stage_layers_, &QLineEdit::editingFinished, this, [this] { edited(); });
  connect(memory_cap_, &QDoubleSpinBox::valueChanged, this, [this] { edited(); });
  // Slider and spin box mirror each other; either one edits S.
  connect(slice_slider_, &QSlider::valueChanged, this, [this](int v) {
    const QSignalBlocker block(slice_spin_);
    slice_spin_->setValue(static_cast<int>(sliceOfIndex(v)));
    edited();
  });
  connect(slice_spin_, &QSpinBox::valueChanged, this, [this](int v) {
    const QSignalBlocker block(slice_slider_);
    slice_slider_->setValue(sliderIndexOf(v));
    edited();
  });
  setSpec(spec_);
}

void ConfigPanel::setSpec(const ConfigSpec& spec) {
  spec_ = spec;
  const QSignalBlocker b1(model_), b2(gpu_), b3(pp_), b4(dp_), b5(tp_), b6(strategy_),
      b7(slice_slider_), b8(slice_spin_), b9(packs_), b10(schedule_), b11(memory_cap_),
      b12(vchunks_), b13(context_), b14(recompute_), b15(cp_), b16(stage_layers_);
  model_->setCurrentText(QString::fromStdString(spec.model));
  gpu_->setCurrentText(QString::fromStdString(spec.gpu));
  pp_->setValue(spec.pp);
  dp_->setValue(spec.dp);
  tp_->setValue(spec.tp);
  strategy_->setCurrentText(QString::fromStdString(spec.strategy));
  slice_spin_->setValue(static_cast<int>(spec.slice_size));
  slice_slider_->setValue(sliderIndexOf(spec.slice_size));
  packs_->setValue(spec.packs);
  schedule_->setCurrentText(QString::fromLatin1(schedule_name(spec.schedule)));
  memory_cap_->setValue(spec.memory_cap_gb);
  vchunks_->setValue(spec.vchunks);
  vchunks_->setEnabled(spec.schedule == ScheduleKind::Interleaved && plan_file_.isEmpty());
  context_->setValue(static_cast<int>(std::min<Tokens>(spec.context, context_->maximum())));
  recompute_->setCurrentText(QString::fromStdString(recompute_name(spec.recompute)));
  cp_->setValue(spec.cp);
  stage_layers_->setText(QString::fromStdString(stage_split_name(spec.stage_split)));
  for (QWidget* w : std::initializer_list<QWidget*>{recompute_, stage_layers_}) {
    w->setStyleSheet(QString());
  }
  if (spec.slice_size > 0) auto_slice_->hide();
  showCosts();
}

void ConfigPanel::setLongestSequence(Tokens longest) {
  // Slicing beyond the longest sequence changes nothing: the slider ends there.
  int top = 1;
  while (sliceOfIndex(top) < longest && sliceOfIndex(top) < kMaxSlice) ++top;
  // Keep a user-chosen S reachable even when the batch got shorter.
  top = std::max(top, sliderIndexOf(spec_.slice_size));
  if (top == slice_slider_->maximum()) return;
  const QSignalBlocker block(slice_slider_);
  slice_slider_->setMaximum(top);
  slice_slider_->setValue(sliderIndexOf(spec_.slice_size));
}

void ConfigPanel::setResolvedSlice(Tokens slice, const QString& why) {
  if (!plan_file_.isEmpty()) {  // a plan's S is its own, not an automatic choice
    auto_slice_->clear();
    auto_slice_->hide();
    return;
  }
  if (spec_.slice_size > 0 || slice <= 0) {
    auto_slice_->setText(spec_.slice_size > 0 ? QString() : why);
    auto_slice_->setVisible(spec_.slice_size <= 0 && !why.isEmpty());
    auto_slice_->setToolTip(why);
    return;
  }
  auto_slice_->setText(tr("auto → S = %1").arg(formatTokens(double(slice))) +
                       (why.isEmpty() ? QString() : QStringLiteral(": ") + why));
  auto_slice_->setToolTip(why);
  auto_slice_->setVisible(true);
}

void ConfigPanel::setPlanFile(const QString& plan_file) {
  plan_file_ = plan_file;
  const bool plan = !plan_file.isEmpty();
  // A plan fixes its packs, p, d and schedule; model, GPU, t, the memory cap and the costs
  // re-simulate it.
  for (QWidget* w : std::initializer_list<QWidget*>{strategy_, slice_slider_, slice_spin_, packs_,
                                                    pp_, dp_, schedule_, vchunks_, context_})
    w->setEnabled(!plan);
  if (!plan) vchunks_->setEnabled(spec_.schedule == ScheduleKind::Interleaved);
  note_->setVisible(plan);
  note_->setText(plan ? tr("Plan %1: its packs, p, d and schedule are fixed (greyed). Model, GPU, "
                           "t, memory cap and costs re-simulate it. Run > Solve the Workload "
                           "to edit the rest.")
                            .arg(QFileInfo(plan_file).fileName())
                      : QString());
  auto_slice_->setVisible(!plan && !auto_slice_->text().isEmpty());
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
          ? tr("docs/design.md section 3 coefficients for the chosen model and GPU")
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
  s.context = context_->value();
  s.cp = cp_->value();
  readTypedFields(s);
  if (s == spec_) return;
  spec_ = s;
  emit configEdited(s);
}

bool ConfigPanel::readTypedFields(ConfigSpec& s) {
  bool ok = true;
  // Checked by the option table (core/app/config_options.h), so a bad value reads exactly as the
  // CLI's message for the same value ("--recompute: 'most' is not one of ...").
  const auto read = [&](QWidget* field, std::string_view flag, const QString& text,
                        const QString& help) {
    const ConfigOption* option = find_option(flag);
    ScenarioSpec scenario;
    scenario.config = s;
    const Status status =
        set_option(*option, scenario, OptionValue{text.trimmed().toStdString()}, cli_name(*option));
    if (status) s = scenario.config;
    field->setStyleSheet(status ? QString() : QStringLiteral("background: #f8d0d0;"));
    field->setToolTip(status ? help : QString::fromStdString(status.error().message));
    ok = ok && static_cast<bool>(status);
  };
  read(recompute_, "recompute", recompute_->currentText(),
       tr("Activation recomputation: none, selective, full, a layer count per stage, or auto"));
  read(stage_layers_, "stage-layers", stage_layers_->text(),
       tr("Layers per stage: auto, even, or a list such as 7,8,8,9"));
  return ok;
}

QWidget* ConfigPanel::fieldOf(std::string_view flag) const {
  const std::pair<std::string_view, QWidget*> fields[] = {{"model", model_},
                                                          {"gpu", gpu_},
                                                          {"pp", pp_},
                                                          {"dp", dp_},
                                                          {"tp", tp_},
                                                          {"strategy", strategy_},
                                                          {"slice", slice_spin_},
                                                          {"packs", packs_},
                                                          {"schedule", schedule_},
                                                          {"vchunks", vchunks_},
                                                          {"context", context_},
                                                          {"recompute", recompute_},
                                                          {"cp", cp_},
                                                          {"stage-layers", stage_layers_},
                                                          {"memory-cap", memory_cap_}};
  for (const auto& [name, widget] : fields)
    if (name == flag) return widget;
  return nullptr;
}

void ConfigPanel::showOptionError(const std::string& field, const QString& reason) {
  if (marked_ != nullptr) {
    marked_->setStyleSheet(QString());
    marked_->setToolTip(marked_tip_);
    marked_ = nullptr;
  }
  QWidget* widget = nullptr;
  for (const ConfigOption& o : scenario_options())
    if (!field.empty() && cli_name(o) == field) widget = fieldOf(o.flag);
  if (widget == nullptr) return;
  marked_ = widget;
  marked_tip_ = widget->toolTip();
  widget->setStyleSheet(QStringLiteral("background: #f8d0d0;"));
  widget->setToolTip(reason);
}

}  // namespace slimpack::ui

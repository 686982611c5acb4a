#include "panels/config_panel.h"

#include <QComboBox>
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
#include "cost/recompute.h"
#include "models/format.h"
#include "panels/model_file_choice.h"
#include "panels/option_widgets.h"

namespace slimpack::ui {
namespace {
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

// What the panel adds to the table's description of an option it shows: words around the value,
// and a spin box's upper end where the table's only guards files against typos (4096 stages,
// INT_MAX packs): the arrows and the box's width suit the sizes a cluster has.
OptionLook lookOf(std::string_view flag) {
  const auto tr = [](const char* text) { return ConfigPanel::tr(text); };
  // Field by field: GCC 12's -Wmissing-field-initializers refuses designated initializers that
  // leave members to their defaults.
  OptionLook look;
  if (flag == "pp") {
    look.max = 128;
  } else if (flag == "dp" || flag == "tp") {
    look.max = 64;
  } else if (flag == "packs") {
    look.max = 4096;
    look.special = tr("auto");
  } else if (flag == "vchunks") {
    look.max = 16;
    look.prefix = tr("v = ");
  } else if (flag == "cp") {
    look.max = 64;
    look.prefix = tr("c = ");
  } else if (flag == "context") {
    look.max = 16 * 1024 * 1024;
    look.step = 4096;
    look.special = tr("auto");
    look.suffix = tr(" tok");
  } else if (flag == "memory-cap") {
    look.max = 1024;
    look.decimals = 0;
    look.special = tr("GPU memory");
    look.suffix = tr(" GB");
  } else if (flag == "recompute") {  // the named modes; a layer count is typed
    for (auto mode :
         {RecomputeMode::Auto, RecomputeMode::None, RecomputeMode::Selective, RecomputeMode::Full})
      look.suggestions << QString::fromStdString(recompute_name({.mode = mode}));
  }
  return look;
}

// A field whose text is parsed (recompute, stage layers) rather than picked from a range.
bool typed(const ConfigOption& option) {
  return option.kind == OptionKind::Text;
}

// A field with a bad value, or the one a failed solve names; the reason is its tooltip.
const QString kMarked = QStringLiteral("background: #f8d0d0;");

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
      slice_slider_(new QSlider(Qt::Horizontal)),
      slice_spin_(new SliceSpinBox),
      costs_(new QLabel),
      note_(new QLabel),
      auto_slice_(new QLabel) {
  auto* form = new QFormLayout(this);
  // Laptop docks are narrow: fields wrap under their labels rather than being cut.
  form->setRowWrapPolicy(QFormLayout::WrapLongRows);
  addPlanNote(form);
  addOptionRows(form, {{tr("Model"), {"model"}},
                       {tr("GPU"), {"gpu"}},
                       {tr("p / d / t"), {"pp", "dp", "tp"}},
                       {tr("Strategy"), {"strategy"}}});
  model_file_ = new ModelFileChoice(qobject_cast<QComboBox*>(fieldOf("model")), this);
  connect(model_file_, &ModelFileChoice::fileRequested, this, &ConfigPanel::modelFileRequested);
  addSliceRows(form);
  addOptionRows(form, {{tr("Packs"), {"packs"}},
                       {tr("Schedule"), {"schedule", "vchunks"}},
                       {tr("Context"), {"context"}},
                       {tr("Recompute / CP"), {"recompute", "cp"}},
                       {tr("Stage layers"), {"stage-layers"}},
                       {tr("Memory cap"), {"memory-cap"}}});
  addCostRow(form);
  setSpec(spec_);
}

void ConfigPanel::addOptionRows(QFormLayout* form, const std::vector<OptionRow>& rows) {
  for (const OptionRow& row : rows) {
    std::vector<QWidget*> widgets;
    for (std::string_view flag : row.flags) {
      const ConfigOption* option = find_option(flag);
      widgets.push_back(makeOptionWidget(*option, lookOf(flag)));
      onOptionEdited(widgets.back(), this, [this] { edited(); });
      fields_.emplace_back(option, widgets.back());
    }
    if (widgets.size() == 1) {
      form->addRow(row.label, widgets.front());
      continue;
    }
    auto* shared = new QHBoxLayout;
    // A list (schedule, recompute) takes the row's free width; numbers keep theirs.
    for (QWidget* w : widgets) shared->addWidget(w, qobject_cast<QComboBox*>(w) ? 1 : 0);
    form->addRow(row.label, shared);
  }
}

void ConfigPanel::addPlanNote(QFormLayout* form) {
  note_->setObjectName("config.note");
  note_->setWordWrap(true);
  note_->hide();
  form->addRow(note_);
}

void ConfigPanel::addSliceRows(QFormLayout* form) {
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
  slice_spin_->setSuffix(tr(" tok"));
  // Typed S counts on Enter (or focus out), as every typed field of the panel: one solve and one
  // undo step per typed value; the slider and the arrows still edit live.
  slice_spin_->setKeyboardTracking(false);
  auto_slice_->setObjectName("config.autoSlice");
  auto_slice_->setWordWrap(true);
  auto* slice = new QHBoxLayout;
  slice->addWidget(slice_slider_, 1);
  slice->addWidget(slice_spin_);
  form->addRow(tr("Slice size"), slice);
  form->addRow(QString(), auto_slice_);
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
}

void ConfigPanel::addCostRow(QFormLayout* form) {
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
  form->addRow(tr("Costs"), costs);
}

void ConfigPanel::setSpec(const ConfigSpec& spec) {
  spec_ = spec;
  const QSignalBlocker b1(slice_slider_), b2(slice_spin_);
  ScenarioSpec scenario;
  scenario.config = spec;
  for (const auto& [option, widget] : fields_) {
    showOptionValue(widget, *option, scenario);
    if (typed(*option)) widget->setStyleSheet(QString());
  }
  model_file_->showFile(QString::fromStdString(spec.hf_config_file));
  slice_spin_->setValue(static_cast<int>(spec.slice_size));
  slice_slider_->setValue(sliderIndexOf(spec.slice_size));
  fieldOf("vchunks")->setEnabled(spec.schedule == ScheduleKind::Interleaved &&
                                 plan_file_.isEmpty());
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
  slice_slider_->setEnabled(!plan);
  slice_spin_->setEnabled(!plan);
  for (std::string_view flag : {"strategy", "packs", "pp", "dp", "schedule", "vchunks", "context"})
    fieldOf(flag)->setEnabled(!plan);
  if (!plan) fieldOf("vchunks")->setEnabled(spec_.schedule == ScheduleKind::Interleaved);
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
  if (model_file_->picking()) return;  // a config.json is asked for; nothing changed yet
  ConfigSpec s = spec_;
  s.slice_size = slice_spin_->value();
  readFields(s);
  // A preset chosen in the model list replaces the config.json; the file's own entry keeps it.
  s.hf_config_file = model_file_->file().toStdString();
  fieldOf("vchunks")->setEnabled(s.schedule == ScheduleKind::Interleaved);
  if (s == spec_) return;
  spec_ = s;
  emit configEdited(s);
}

void ConfigPanel::readFields(ConfigSpec& s) {
  for (const auto& [option, widget] : fields_) {
    ScenarioSpec scenario;
    scenario.config = s;
    // Checked by the option table, so a bad value reads exactly as the CLI's message for the
    // same value ("--recompute: 'most' is not one of ...").
    const Status status = readOptionValue(widget, *option, scenario);
    if (status) s = scenario.config;
    if (!typed(*option)) continue;  // a range or a list offers no bad value to mark
    widget->setStyleSheet(status ? QString() : kMarked);
    widget->setToolTip(status ? optionTip(*option)
                              : QString::fromStdString(status.error().message));
  }
}

QWidget* ConfigPanel::fieldOf(std::string_view flag) const {
  if (flag == "slice") return slice_spin_;
  for (const auto& [option, widget] : fields_)
    if (option->flag == flag) return widget;
  return nullptr;
}

QSpinBox* ConfigPanel::spinBox(std::string_view flag) const {
  return qobject_cast<QSpinBox*>(fieldOf(flag));
}

QComboBox* ConfigPanel::recomputeBox() const {
  return qobject_cast<QComboBox*>(fieldOf("recompute"));
}

QLineEdit* ConfigPanel::stageLayersEdit() const {
  return qobject_cast<QLineEdit*>(fieldOf("stage-layers"));
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
  widget->setStyleSheet(kMarked);
  widget->setToolTip(reason);
}

}  // namespace slimpack::ui

#include "panels/option_widgets.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSpinBox>

#include <algorithm>
#include <climits>
#include <cmath>

namespace slimpack::ui {
namespace {

// The spin box's range: the table's, narrowed to what an int holds and to the look's upper end.
void setIntRange(QSpinBox* box, const ConfigOption& option, const OptionLook& look) {
  const std::int64_t top = look.max > 0 ? std::min<std::int64_t>(look.max, option.max_int)
                                        : std::min<std::int64_t>(INT_MAX, option.max_int);
  box->setRange(static_cast<int>(std::clamp<std::int64_t>(option.min_int, INT_MIN, top)),
                static_cast<int>(top));
}

void setNumberRange(QDoubleSpinBox* box, const ConfigOption& option, const OptionLook& look) {
  box->setDecimals(look.decimals);
  // An exclusive lower end: the smallest value the box can show above it.
  const double above = option.number_exclusive ? std::pow(10.0, -look.decimals) : 0.0;
  // No upper end in the table: as far as an Integer's box goes (the box sizes itself to it).
  box->setRange(option.min_number + above, look.max > 0 ? look.max : INT_MAX);
}

template <class Box>
void dress(Box* box, const OptionLook& look) {
  box->setSpecialValueText(look.special);
  box->setPrefix(look.prefix);
  box->setSuffix(look.suffix);
}

QWidget* makeChoices(const QStringList& names, bool editable) {
  auto* box = new QComboBox;
  box->setEditable(editable);
  if (editable) box->setInsertPolicy(QComboBox::NoInsert);  // a typo is not offered again
  box->addItems(names);
  return box;
}

QStringList choiceNames(const ConfigOption& option) {
  QStringList names;
  for (const auto& n : option.choices()) names << QString::fromStdString(n);
  return names;
}

// The widget's text: a combo box's current text, a line edit's text.
QString textOf(const QWidget* widget) {
  if (const auto* box = qobject_cast<const QComboBox*>(widget)) return box->currentText();
  if (const auto* edit = qobject_cast<const QLineEdit*>(widget)) return edit->text();
  return {};
}

}  // namespace

QWidget* makeOptionWidget(const ConfigOption& option, const OptionLook& look) {
  QWidget* widget = nullptr;
  switch (option.kind) {
    case OptionKind::Integer: {
      auto* box = new QSpinBox;
      setIntRange(box, option, look);
      box->setSingleStep(look.step);
      dress(box, look);
      widget = box;
      break;
    }
    case OptionKind::Number: {
      auto* box = new QDoubleSpinBox;
      setNumberRange(box, option, look);
      dress(box, look);
      widget = box;
      break;
    }
    case OptionKind::Choice:
      widget = makeChoices(choiceNames(option), false);
      break;
    case OptionKind::Text:
      widget = look.suggestions.isEmpty() ? static_cast<QWidget*>(new QLineEdit)
                                          : makeChoices(look.suggestions, true);
      break;
    case OptionKind::Flag:
      widget = new QCheckBox;
      break;
  }
  widget->setToolTip(optionTip(option));
  return widget;
}

QString optionTip(const ConfigOption& option) {
  return QString::fromStdString(option_help(option));
}

void showOptionValue(QWidget* widget, const ConfigOption& option, const ScenarioSpec& scenario) {
  const QSignalBlocker block(widget);
  const OptionValue value = option.get(scenario);
  if (auto* box = qobject_cast<QSpinBox*>(widget)) {
    // A value past the box's end (a context window from a file) shows as the end.
    box->setValue(static_cast<int>(
        std::clamp<std::int64_t>(std::get<std::int64_t>(value), box->minimum(), box->maximum())));
  } else if (auto* number = qobject_cast<QDoubleSpinBox*>(widget)) {
    number->setValue(std::get<double>(value));
  } else if (auto* check = qobject_cast<QCheckBox*>(widget)) {
    check->setChecked(std::get<bool>(value));
  } else if (auto* combo = qobject_cast<QComboBox*>(widget)) {
    combo->setCurrentText(QString::fromStdString(std::get<std::string>(value)));
  } else if (auto* edit = qobject_cast<QLineEdit*>(widget)) {
    edit->setText(QString::fromStdString(std::get<std::string>(value)));
  }
}

Status readOptionValue(const QWidget* widget, const ConfigOption& option, ScenarioSpec& scenario) {
  OptionValue value;
  switch (option.kind) {
    case OptionKind::Integer:
      value = std::int64_t{qobject_cast<const QSpinBox*>(widget)->value()};
      break;
    case OptionKind::Number:
      value = qobject_cast<const QDoubleSpinBox*>(widget)->value();
      break;
    case OptionKind::Flag:
      value = qobject_cast<const QCheckBox*>(widget)->isChecked();
      break;
    case OptionKind::Choice:
      value = textOf(widget).toStdString();
      break;
    case OptionKind::Text:  // typed: spaces around the value are the typist's
      value = textOf(widget).trimmed().toStdString();
      break;
  }
  return set_option(option, scenario, value, cli_name(option));
}

void onOptionEdited(QWidget* widget, QObject* context, const std::function<void()>& edited) {
  // A typed number counts once, on Enter or when the focus leaves (the arrows still step at once):
  // typing 200000 is one edit, solved once and undone in one step, not 2, 20, 200, ... each.
  if (auto* box = qobject_cast<QSpinBox*>(widget)) {
    box->setKeyboardTracking(false);
    QObject::connect(box, &QSpinBox::valueChanged, context, edited);
  } else if (auto* number = qobject_cast<QDoubleSpinBox*>(widget)) {
    number->setKeyboardTracking(false);
    QObject::connect(number, &QDoubleSpinBox::valueChanged, context, edited);
  } else if (auto* check = qobject_cast<QCheckBox*>(widget)) {
    QObject::connect(check, &QCheckBox::toggled, context, edited);
  } else if (auto* combo = qobject_cast<QComboBox*>(widget)) {
    QObject::connect(combo, &QComboBox::activated, context, edited);
    if (combo->isEditable())
      QObject::connect(combo->lineEdit(), &QLineEdit::editingFinished, context, edited);
  } else if (auto* edit = qobject_cast<QLineEdit*>(widget)) {
    QObject::connect(edit, &QLineEdit::editingFinished, context, edited);
  }
}

}  // namespace slimpack::ui

#pragma once
// A form's widget for an option of the table (core/app/config_options.h): the widget follows the
// option's kind, range or choices, and its tooltip is the option's --help line, so a field offers
// what the CLI and the session file accept and says what the docs say. The value goes to and from
// the scenario through the option's get and set_option, as the CLI's does.
#include <QString>
#include <QStringList>
#include <functional>

#include "app/config_options.h"

QT_BEGIN_NAMESPACE
class QObject;
class QWidget;
QT_END_NAMESPACE

namespace slimpack::ui {

// What a form adds to the table's description of an option.
struct OptionLook {
  // Integer / Number: the widget's upper end where it is below the table's (a typo's size is of
  // no use in a spin box's arrows); 0 = the table's.
  int max = 0;
  int step = 1;      // Integer: one arrow step
  int decimals = 2;  // Number
  QString special;   // shown instead of the minimum ("auto")
  QString prefix;
  QString suffix;
  QStringList suggestions;  // Text: offered by an editable combo box instead of a line edit
};

// QSpinBox (Integer), QDoubleSpinBox (Number), QComboBox (Choice, filled from choices(); an
// editable one for a Text with suggestions), QLineEdit (Text) or QCheckBox (Flag).
QWidget* makeOptionWidget(const ConfigOption& option, const OptionLook& look = {});
// The option's --help line, the tooltip of its widget.
QString optionTip(const ConfigOption& option);
// Shows the option's value in `scenario` without emitting the widget's signals.
void showOptionValue(QWidget* widget, const ConfigOption& option, const ScenarioSpec& scenario);
// Checks the value of the widget makeOptionWidget made for `option` as the CLI checks it and
// stores it in `scenario`; the error names the option's flag ("--recompute: ...").
Status readOptionValue(const QWidget* widget, const ConfigOption& option, ScenarioSpec& scenario);
// Calls `edited` when the user changes the widget's value: a spin box or check box at once, a
// combo box on a choice, typed text when it is finished (Enter or leaving the field).
void onOptionEdited(QWidget* widget, QObject* context, const std::function<void()>& edited);

}  // namespace slimpack::ui

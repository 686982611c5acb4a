#pragma once
// The mapping-rules dialog: which events of a profiler trace are forward or backward work of a
// stage and a pack (core/trace/trace_units.h). A table of rules (regular expressions on the event
// name, category and lane; pass; the capture group that holds the pack number and its base), a
// built-in set to start from, open/save as a rules JSON, a live check of every expression with
// the offending rule named, and, given the trace's event names, how many names each rule matches.
// Returns the rule set; storing it (session) and applying it are the caller's.
#include <QDialog>
#include <QString>
#include <string>
#include <vector>

#include "trace/trace_units.h"

QT_BEGIN_NAMESPACE
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLayout;
class QLineEdit;
class QTableWidget;
QT_END_NAMESPACE

namespace slimpack::ui {

class TraceRulesDialog : public QDialog {
  Q_OBJECT

 public:
  enum Column { NameCol, CategoryCol, LaneCol, PassCol, PackGroupCol, PackBaseCol, MatchesCol };
  // Names checked for the Matches column (a trace can intern hundreds of thousands).
  static constexpr int kMaxPreviewNames = 20000;

  explicit TraceRulesDialog(QWidget* parent = nullptr);

  void setRuleSet(const UnitRuleSet& rules);
  // The table as it stands (valid or not: see validationMessage()).
  UnitRuleSet ruleSet() const;
  // The event names of the trace being mapped (ImportedTrace::names): fills the Matches column.
  void setEventNames(std::vector<std::string> names);
  // Replaces the table with a built-in set ("slimpack", "megatron", "dualpipe").
  void loadBuiltin(const QString& name);
  // Empty when the rules are valid; else one message naming the rule ("rule 2: ...").
  QString validationMessage() const { return message_; }
  // Rules JSON files (parse_unit_rules / unit_rules_to_json). Return an error message naming the
  // file, or an empty string; the table is unchanged when opening fails.
  QString openFile(const QString& path);
  QString saveFile(const QString& path) const;

  QTableWidget* table() const { return table_; }

  // Runs the dialog; true and `rules` replaced when the user accepts valid rules.
  static bool edit(QWidget* parent, UnitRuleSet& rules, std::vector<std::string> event_names = {});

 private:
  // Constructor steps: the table's columns, and the two button rows with their connections.
  void configureTable();
  QLayout* ruleSetBar();
  QLayout* rowButtons();
  void addRow(const UnitRule& rule);
  void moveRow(int delta);
  void revalidate();
  void updateMatches();
  void openClicked();
  void saveClicked();

  QLineEdit* name_;
  QComboBox* builtin_;
  QTableWidget* table_;
  QLabel* status_;
  QDialogButtonBox* buttons_;
  std::vector<std::string> names_;
  QString message_;
  bool filling_ = false;  // setRuleSet in progress: one revalidation at the end
};

}  // namespace slimpack::ui

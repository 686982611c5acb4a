#include "trace/trace_rules_dialog.h"

#include <QBrush>
#include <QColor>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>
#include <regex>

#include "common/json_util.h"
#include "common/output_file.h"

namespace slimpack::ui {
namespace {

// Names past this length are never units (trace_units.cpp): the preview skips them as well.
constexpr std::size_t kMaxMatchedName = 4096;
constexpr int kExamples = 3;

QString q(const std::string& s) {
  return QString::fromStdString(s);
}

std::string text_of(const QTableWidget* t, int row, int col) {
  const QTableWidgetItem* item = t->item(row, col);
  return item ? item->text().toStdString() : std::string();
}

// A rules error for the table: core names a rule by its field "rules[N]", counted from 0; the
// table's rows are numbered from 1. `row` gets the rule's row, or -1 when the error names none.
QString for_the_table(const Error& error, int& row) {
  row = -1;
  if (error.field.empty()) return q(error.message);
  static const QRegularExpression rule_index(QStringLiteral("^rules\\[(\\d+)\\]$"));
  const auto match = rule_index.match(q(error.field));
  if (!match.hasMatch()) return q(error.field_reason);
  row = match.captured(1).toInt();
  return QObject::tr("rule %1: %2").arg(row + 1).arg(q(error.field_reason));
}

}  // namespace

TraceRulesDialog::TraceRulesDialog(QWidget* parent)
    : QDialog(parent),
      name_(new QLineEdit),
      builtin_(new QComboBox),
      table_(new QTableWidget(0, 7)),
      status_(new QLabel),
      buttons_(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel)) {
  setWindowTitle(tr("Trace Mapping Rules"));
  auto* intro = new QLabel(
      tr("Each rule marks trace events as forward or backward work of a pack. Name and category "
         "are ECMAScript regular expressions matched against the whole text; lane is searched in "
         "the lane's label (\"process / thread\"); empty means any. The first matching rule "
         "decides. Pack group: the capture group of the name that holds the pack number (minus "
         "the base); 0 numbers packs in order of appearance on each lane."));
  intro->setWordWrap(true);
  configureTable();
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);

  auto* layout = new QVBoxLayout(this);
  layout->addWidget(intro);
  layout->addLayout(ruleSetBar());
  layout->addWidget(table_, 1);
  layout->addLayout(rowButtons());
  layout->addWidget(status_);
  layout->addWidget(buttons_);

  connect(table_, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
    if (item->column() != MatchesCol) revalidate();
  });
  connect(name_, &QLineEdit::textChanged, this, [this] { revalidate(); });
  connect(buttons_, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons_, &QDialogButtonBox::rejected, this, &QDialog::reject);

  loadBuiltin(QStringLiteral("slimpack"));
}

void TraceRulesDialog::configureTable() {
  table_->setHorizontalHeaderLabels({tr("Name pattern"), tr("Category"), tr("Lane"), tr("Pass"),
                                     tr("Pack group"), tr("Pack base"), tr("Matches")});
  table_->horizontalHeader()->setSectionResizeMode(NameCol, QHeaderView::Stretch);
  table_->horizontalHeader()->setSectionResizeMode(MatchesCol, QHeaderView::Stretch);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setMinimumSize(760, 200);
}

// The set's name, the built-in sets and the file buttons, connected.
QLayout* TraceRulesDialog::ruleSetBar() {
  for (const auto& n : builtin_unit_rule_set_names()) builtin_->addItem(q(n));
  auto* load = new QPushButton(tr("Use Built-in Set"));
  auto* open = new QPushButton(tr("Open…"));
  auto* save = new QPushButton(tr("Save…"));
  auto* top = new QHBoxLayout;
  top->addWidget(new QLabel(tr("Rule set:")));
  top->addWidget(name_, 1);
  top->addWidget(builtin_);
  top->addWidget(load);
  top->addWidget(open);
  top->addWidget(save);
  connect(load, &QPushButton::clicked, this, [this] { loadBuiltin(builtin_->currentText()); });
  connect(open, &QPushButton::clicked, this, &TraceRulesDialog::openClicked);
  connect(save, &QPushButton::clicked, this, &TraceRulesDialog::saveClicked);
  return top;
}

// Add, remove and reorder rules, connected.
QLayout* TraceRulesDialog::rowButtons() {
  auto* add = new QPushButton(tr("Add Rule"));
  auto* remove = new QPushButton(tr("Remove"));
  auto* up = new QPushButton(tr("Move Up"));
  auto* down = new QPushButton(tr("Move Down"));
  auto* row_buttons = new QHBoxLayout;
  for (QPushButton* b : {add, remove, up, down}) row_buttons->addWidget(b);
  row_buttons->addStretch(1);
  connect(add, &QPushButton::clicked, this, [this] {
    UnitRule r;
    r.name_pattern = "forward-compute";
    addRow(r);
    table_->selectRow(table_->rowCount() - 1);
    revalidate();
  });
  connect(remove, &QPushButton::clicked, this, [this] {
    const int row = table_->currentRow();
    if (row < 0) return;
    table_->removeRow(row);
    revalidate();
  });
  connect(up, &QPushButton::clicked, this, [this] { moveRow(-1); });
  connect(down, &QPushButton::clicked, this, [this] { moveRow(+1); });
  return row_buttons;
}

void TraceRulesDialog::addRow(const UnitRule& rule) {
  const bool was_filling = filling_;
  filling_ = true;  // the items below each emit itemChanged
  const int row = table_->rowCount();
  table_->insertRow(row);
  table_->setItem(row, NameCol, new QTableWidgetItem(q(rule.name_pattern)));
  table_->setItem(row, CategoryCol, new QTableWidgetItem(q(rule.category_pattern)));
  table_->setItem(row, LaneCol, new QTableWidgetItem(q(rule.lane_pattern)));
  auto* matches = new QTableWidgetItem;
  matches->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
  table_->setItem(row, MatchesCol, matches);

  auto* pass = new QComboBox;
  pass->addItems({tr("forward"), tr("backward")});
  pass->setCurrentIndex(rule.pass == Pass::Forward ? 0 : 1);
  connect(pass, &QComboBox::currentIndexChanged, this, [this] { revalidate(); });
  table_->setCellWidget(row, PassCol, pass);
  auto* group = new QSpinBox;
  group->setRange(0, 9);
  group->setValue(rule.pack_group);
  connect(group, &QSpinBox::valueChanged, this, [this] { revalidate(); });
  table_->setCellWidget(row, PackGroupCol, group);
  auto* base = new QSpinBox;
  base->setRange(0, 1);
  base->setValue(rule.pack_base);
  connect(base, &QSpinBox::valueChanged, this, [this] { revalidate(); });
  table_->setCellWidget(row, PackBaseCol, base);
  filling_ = was_filling;
}

void TraceRulesDialog::moveRow(int delta) {
  const int row = table_->currentRow();
  const int to = row + delta;
  if (row < 0 || to < 0 || to >= table_->rowCount()) return;
  UnitRuleSet set = ruleSet();
  std::swap(set.rules[static_cast<std::size_t>(row)], set.rules[static_cast<std::size_t>(to)]);
  setRuleSet(set);
  table_->selectRow(to);
}

void TraceRulesDialog::setRuleSet(const UnitRuleSet& rules) {
  filling_ = true;
  name_->setText(q(rules.name));
  table_->setRowCount(0);
  for (const UnitRule& r : rules.rules) addRow(r);
  filling_ = false;
  revalidate();
}

UnitRuleSet TraceRulesDialog::ruleSet() const {
  UnitRuleSet set;
  set.name = name_->text().trimmed().toStdString();
  if (set.name.empty()) set.name = "rules";
  for (int row = 0; row < table_->rowCount(); ++row) {
    UnitRule r;
    r.name_pattern = text_of(table_, row, NameCol);
    r.category_pattern = text_of(table_, row, CategoryCol);
    r.lane_pattern = text_of(table_, row, LaneCol);
    if (auto* pass = qobject_cast<QComboBox*>(table_->cellWidget(row, PassCol)))
      r.pass = pass->currentIndex() == 0 ? Pass::Forward : Pass::Backward;
    if (auto* group = qobject_cast<QSpinBox*>(table_->cellWidget(row, PackGroupCol)))
      r.pack_group = group->value();
    if (auto* base = qobject_cast<QSpinBox*>(table_->cellWidget(row, PackBaseCol)))
      r.pack_base = base->value();
    set.rules.push_back(std::move(r));
  }
  return set;
}

void TraceRulesDialog::setEventNames(std::vector<std::string> names) {
  if (names.size() > static_cast<std::size_t>(kMaxPreviewNames))
    names.resize(static_cast<std::size_t>(kMaxPreviewNames));
  names_ = std::move(names);
  updateMatches();
}

void TraceRulesDialog::loadBuiltin(const QString& name) {
  auto set = builtin_unit_rules(name.toStdString());
  if (!set) return;  // the combo offers only built-in names
  builtin_->setCurrentText(name);
  setRuleSet(*set);
}

void TraceRulesDialog::revalidate() {
  if (filling_) return;
  const UnitRuleSet set = ruleSet();
  const Status st = validate_unit_rules(set);
  int bad_row = -1;
  message_ = st.ok() ? QString() : for_the_table(st.error(), bad_row);
  {
    // The rule in the message is tinted; the tint is not an edit.
    const QSignalBlocker block(table_);
    for (int row = 0; row < table_->rowCount(); ++row)
      for (int col : {NameCol, CategoryCol, LaneCol})
        if (QTableWidgetItem* item = table_->item(row, col))
          item->setBackground(row == bad_row ? QBrush(QColor(255, 205, 210)) : QBrush());
  }
  buttons_->button(QDialogButtonBox::Ok)->setEnabled(message_.isEmpty());
  if (message_.isEmpty()) {
    status_->setStyleSheet({});
    status_->setText(table_->rowCount() == 1 ? tr("1 rule, valid.")
                                             : tr("%1 rules, all valid.").arg(table_->rowCount()));
  } else {
    status_->setStyleSheet(QStringLiteral("color: #b00020;"));
    status_->setText(message_);
  }
  updateMatches();
}

void TraceRulesDialog::updateMatches() {
  const QSignalBlocker block(table_);  // the Matches items are not rule edits
  for (int row = 0; row < table_->rowCount(); ++row) {
    QTableWidgetItem* item = table_->item(row, MatchesCol);
    if (!item) continue;
    if (names_.empty()) {
      item->setText(tr("(no trace)"));
      continue;
    }
    std::regex re;
    try {
      re = std::regex(text_of(table_, row, NameCol), std::regex::ECMAScript);
    } catch (const std::regex_error&) {
      item->setText(QStringLiteral("–"));
      continue;
    }
    int count = 0;
    QStringList examples;
    for (const std::string& n : names_) {
      if (n.empty() || n.size() > kMaxMatchedName || !std::regex_match(n, re)) continue;
      if (++count <= kExamples) examples << q(n);
    }
    const QString shown = examples.join(QStringLiteral(", ")) +
                          (count > kExamples ? QStringLiteral(", …") : QString());
    item->setText(count == 0   ? tr("no event name")
                  : count == 1 ? tr("1 name: %1").arg(shown)
                               : tr("%1 names: %2").arg(count).arg(shown));
  }
}

QString TraceRulesDialog::openFile(const QString& path) {
  auto set = read_unit_rules(path.toStdString());
  if (!set) return q(set.error().message);
  builtin_->setCurrentIndex(-1);
  setRuleSet(*set);
  return {};
}

QString TraceRulesDialog::saveFile(const QString& path) const {
  if (!message_.isEmpty()) return tr("%1: not saved: %2").arg(path, message_);
  if (Status s = write_output_file(path.toStdString(), unit_rules_to_json(ruleSet())); !s)
    return q(s.error().message);
  return {};
}

void TraceRulesDialog::openClicked() {
  const QString path = QFileDialog::getOpenFileName(this, tr("Open Mapping Rules"), {},
                                                    tr("Rules JSON (*.json);;All files (*)"));
  if (path.isEmpty()) return;
  if (const QString err = openFile(path); !err.isEmpty())
    QMessageBox::warning(this, tr("Cannot Open Rules"), err);
}

void TraceRulesDialog::saveClicked() {
  const QString path =
      QFileDialog::getSaveFileName(this, tr("Save Mapping Rules"),
                                   QStringLiteral("trace-rules.json"), tr("Rules JSON (*.json)"));
  if (path.isEmpty()) return;
  if (const QString err = saveFile(path); !err.isEmpty())
    QMessageBox::warning(this, tr("Cannot Save Rules"), err);
}

bool TraceRulesDialog::edit(QWidget* parent, UnitRuleSet& rules,
                            std::vector<std::string> event_names) {
  TraceRulesDialog dialog(parent);
  dialog.setRuleSet(rules);
  dialog.setEventNames(std::move(event_names));
  if (dialog.exec() != QDialog::Accepted || !dialog.validationMessage().isEmpty()) return false;
  rules = dialog.ruleSet();
  return true;
}

}  // namespace slimpack::ui

// The mapping-rules dialog: built-in sets fill the table, edits are validated as they are typed
// (an invalid expression or capture group disables OK and names the rule, counted from 1), the
// Matches column counts the trace's event names, rows move and go, and rules files round-trip.
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFile>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include "trace/trace_rules_dialog.h"

using namespace slimpack;
using namespace slimpack::ui;

namespace {

using D = TraceRulesDialog;

QString cell(const D& d, int row, int col) {
  const QTableWidgetItem* item = d.table()->item(row, col);
  return item ? item->text() : QString();
}

QPushButton* okButton(D& d) {
  return d.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
}

QPushButton* button(D& d, const QString& text) {
  for (QPushButton* b : d.findChildren<QPushButton*>())
    if (b->text() == text) return b;
  return nullptr;
}

}  // namespace

class TestTraceRulesDialog : public QObject {
  Q_OBJECT

 private slots:
  void startsWithOurExportRules() {
    D d;
    QCOMPARE(d.table()->rowCount(), 2);
    QCOMPARE(cell(d, 0, D::NameCol), QStringLiteral("F([0-9]+)"));
    // Any category but Kineto's GPU copy of an annotation (a PyTorch record_function "F3" is a
    // unit, its gpu_user_annotation twin is not).
    QCOMPARE(cell(d, 0, D::CategoryCol), QStringLiteral("(?!gpu_user_annotation$).*"));
    QCOMPARE(cell(d, 1, D::NameCol), QStringLiteral("B([0-9]+)"));
    const UnitRuleSet set = d.ruleSet();
    QCOMPARE(set.name, std::string("slimpack"));
    QCOMPARE(set.rules[1].pass, Pass::Backward);
    QCOMPARE(set.rules[0].pack_group, 1);
    QCOMPARE(set.rules[0].pack_base, 1);
    QVERIFY(d.validationMessage().isEmpty());
    QVERIFY(okButton(d)->isEnabled());
  }

  void builtinSetsReplaceTheTable() {
    D d;
    d.loadBuiltin(QStringLiteral("dualpipe"));
    QCOMPARE(d.table()->rowCount(), 2);
    QCOMPARE(cell(d, 0, D::NameCol), QStringLiteral(".*\\(F\\)"));
    QCOMPARE(d.ruleSet().rules[1].pass, Pass::Backward);
    QCOMPARE(d.ruleSet().rules[1].pack_group, 0);
    d.loadBuiltin(QStringLiteral("megatron"));
    QCOMPARE(cell(d, 1, D::NameCol), QStringLiteral("backward-compute"));
    QCOMPARE(d.ruleSet().name, std::string("megatron"));
  }

  void invalidExpressionNamesTheRuleAndDisablesOk() {
    D d;
    d.table()->item(1, D::NameCol)->setText(QStringLiteral("B([0-9]+"));
    QVERIFY2(d.validationMessage().startsWith(QStringLiteral("rule 2: invalid regular expression")),
             qPrintable(d.validationMessage()));
    QVERIFY(!okButton(d)->isEnabled());
    QVERIFY(d.table()->item(1, D::NameCol)->background().style() != Qt::NoBrush);  // tinted
    QCOMPARE(d.table()->item(0, D::NameCol)->background().style(), Qt::NoBrush);
    d.table()->item(1, D::NameCol)->setText(QStringLiteral("B([0-9]+)"));
    QCOMPARE(d.table()->item(1, D::NameCol)->background().style(), Qt::NoBrush);
    QVERIFY(d.validationMessage().isEmpty());
    QVERIFY(okButton(d)->isEnabled());

    // A pack group the name pattern does not have.
    auto* group = qobject_cast<QSpinBox*>(d.table()->cellWidget(0, D::PackGroupCol));
    QVERIFY(group);
    group->setValue(2);
    QVERIFY2(d.validationMessage().contains(
                 QStringLiteral("rule 1: pack_group 2 but the name pattern has 1 capture groups")),
             qPrintable(d.validationMessage()));
    QVERIFY(!okButton(d)->isEnabled());
    group->setValue(1);
    QVERIFY(okButton(d)->isEnabled());

    // A bad category or lane expression is caught as well.
    d.table()->item(0, D::LaneCol)->setText(QStringLiteral("stage [0-9"));
    QVERIFY2(d.validationMessage().startsWith(QStringLiteral("rule 1: invalid regular expression")),
             qPrintable(d.validationMessage()));
  }

  void editsAreReturnedAsRules() {
    D d;
    d.findChild<QLineEdit*>()->setText(QStringLiteral("my job"));
    d.table()->item(0, D::NameCol)->setText(QStringLiteral("fwd_mb([0-9]+)"));
    d.table()->item(0, D::CategoryCol)->setText(QString());
    d.table()->item(0, D::LaneCol)->setText(QStringLiteral("rank 0"));
    qobject_cast<QSpinBox*>(d.table()->cellWidget(0, D::PackBaseCol))->setValue(0);
    qobject_cast<QComboBox*>(d.table()->cellWidget(1, D::PassCol))->setCurrentIndex(0);
    const UnitRuleSet set = d.ruleSet();
    QCOMPARE(set.name, std::string("my job"));
    QCOMPARE(set.rules[0].name_pattern, std::string("fwd_mb([0-9]+)"));
    QCOMPARE(set.rules[0].category_pattern, std::string());
    QCOMPARE(set.rules[0].lane_pattern, std::string("rank 0"));
    QCOMPARE(set.rules[0].pack_base, 0);
    QCOMPARE(set.rules[1].pass, Pass::Forward);
  }

  void rowsAreAddedMovedAndRemoved() {
    D d;
    button(d, QStringLiteral("Add Rule"))->click();
    QCOMPARE(d.table()->rowCount(), 3);
    QCOMPARE(cell(d, 2, D::NameCol), QStringLiteral("forward-compute"));
    QCOMPARE(d.table()->currentRow(), 2);
    button(d, QStringLiteral("Move Up"))->click();
    QCOMPARE(cell(d, 1, D::NameCol), QStringLiteral("forward-compute"));
    QCOMPARE(cell(d, 2, D::NameCol), QStringLiteral("B([0-9]+)"));
    QCOMPARE(d.ruleSet().rules[2].pass, Pass::Backward);  // the pass moved with its row
    QCOMPARE(d.table()->currentRow(), 1);
    button(d, QStringLiteral("Remove"))->click();
    QCOMPARE(d.table()->rowCount(), 2);
    QCOMPARE(cell(d, 1, D::NameCol), QStringLiteral("B([0-9]+)"));
    d.table()->selectRow(0);
    button(d, QStringLiteral("Remove"))->click();
    d.table()->selectRow(0);
    button(d, QStringLiteral("Remove"))->click();
    QCOMPARE(d.table()->rowCount(), 0);
    QCOMPARE(d.validationMessage(), QStringLiteral("no rules (at least one is needed)"));
    QVERIFY(!okButton(d)->isEnabled());
  }

  void matchesCountTheTraceNames() {
    D d;
    QCOMPARE(cell(d, 0, D::MatchesCol), QStringLiteral("(no trace)"));
    d.setEventNames({"", "F1", "F2", "F3", "F12", "B1", "forward", "ProfilerStep#1"});
    QCOMPARE(cell(d, 0, D::MatchesCol), QStringLiteral("4 names: F1, F2, F3, …"));
    QCOMPARE(cell(d, 1, D::MatchesCol), QStringLiteral("1 name: B1"));
    d.table()->item(1, D::NameCol)->setText(QStringLiteral("nothing"));
    QCOMPARE(cell(d, 1, D::MatchesCol), QStringLiteral("no event name"));
    d.table()->item(1, D::NameCol)->setText(QStringLiteral("(("));
    QCOMPARE(cell(d, 1, D::MatchesCol), QStringLiteral("–"));
  }

  void rulesFilesRoundTripAndBadFilesKeepTheTable() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    D d;
    d.loadBuiltin(QStringLiteral("megatron"));
    const QString path = dir.filePath(QStringLiteral("rules.json"));
    QCOMPARE(d.saveFile(path), QString());

    D other;
    QCOMPARE(other.openFile(path), QString());
    QCOMPARE(other.table()->rowCount(), 2);
    QCOMPARE(cell(other, 0, D::NameCol), QStringLiteral("forward-compute"));
    QCOMPARE(other.ruleSet().name, std::string("megatron"));

    const QString bad = dir.filePath(QStringLiteral("bad.json"));
    QFile f(bad);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{\"rules\": [{\"name\": \"F(\", \"pass\": \"forward\"}]}");
    f.close();
    const QString err = other.openFile(bad);
    QVERIFY2(err.startsWith(bad + QStringLiteral(": ")), qPrintable(err));
    QVERIFY2(err.contains(QStringLiteral("invalid regular expression")), qPrintable(err));
    QCOMPARE(cell(other, 0, D::NameCol), QStringLiteral("forward-compute"));  // unchanged

    // Invalid rules are not saved.
    other.table()->item(0, D::NameCol)->setText(QStringLiteral("F("));
    const QString not_saved = other.saveFile(dir.filePath(QStringLiteral("never.json")));
    QVERIFY2(not_saved.contains(QStringLiteral("not saved")), qPrintable(not_saved));
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("never.json"))));
  }

  void screenshot() {
    // For docs and a look at the layout: the dialog with a trace's names and one bad rule.
    D d;
    d.setEventNames({"F1", "F2", "B1", "B2", "forward-compute"});
    d.table()->item(1, D::LaneCol)->setText(QStringLiteral("stage [0-9"));
    d.resize(900, 420);
    d.show();
    QVERIFY(QTest::qWaitForWindowExposed(&d));
    const QString out = qEnvironmentVariable("SLIMPACK_SCREENSHOT_DIR");
    if (!out.isEmpty()) QVERIFY(d.grab().save(out + QStringLiteral("/trace-rules-dialog.png")));
  }
};

QTEST_MAIN(TestTraceRulesDialog)
#include "test_trace_rules_dialog.moc"

// The configuration panel's rows are built from the option table (core/app/config_options.h):
// each field has its option's range or choices and its --help line as tooltip, the rows stay in
// the order the panel has always shown, and a key press on a table-built field reaches spec()
// through the option with one configEdited.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTest>

#include "app/config_options.h"
#include "panels/config_panel.h"
#include "type_into.h"

using namespace slimpack;
using namespace slimpack::ui;

namespace {

const ConfigOption& option(const char* flag) {
  const ConfigOption* o = find_option(flag);
  if (o == nullptr) qFatal("no option --%s in the table", flag);
  return *o;
}

QString help(const char* flag) {
  return QString::fromStdString(option_help(option(flag)));
}

QStringList choices(const char* flag) {
  QStringList names;
  for (const auto& n : option(flag).choices()) names << QString::fromStdString(n);
  return names;
}

QStringList items(const QComboBox* box) {
  QStringList names;
  for (int i = 0; i < box->count(); ++i) names << box->itemText(i);
  return names;
}

// The option's value in the panel's configuration, as the table reads it.
OptionValue valueIn(const ConfigPanel& panel, const char* flag) {
  ScenarioSpec scenario;
  scenario.config = panel.spec();
  return option(flag).get(scenario);
}

}  // namespace

class TestConfigRows : public QObject {
  Q_OBJECT

 private slots:
  void integerFieldsHaveTheTablesRangeAndHelp() {
    ConfigPanel panel;
    for (const char* flag : {"pp", "dp", "tp", "packs", "vchunks", "context", "cp"}) {
      auto* box = qobject_cast<QSpinBox*>(panel.fieldOf(flag));
      QVERIFY2(box != nullptr, flag);
      QCOMPARE(option(flag).kind, OptionKind::Integer);
      // The lower end is the table's; the upper end may be narrower (a spin box's arrows need no
      // typo's size) but never past it.
      QCOMPARE(std::int64_t{box->minimum()}, option(flag).min_int);
      QVERIFY2(box->maximum() <= option(flag).max_int, flag);
      QVERIFY2(box->maximum() > box->minimum(), flag);
      QCOMPARE(box->toolTip(), help(flag));
    }
    // What the panel always offered: p up to 128, t and c up to 64, v up to 16.
    QCOMPARE(panel.ppBox()->maximum(), 128);
    QCOMPARE(panel.tpBox()->maximum(), 64);
    QCOMPARE(panel.cpBox()->maximum(), 64);
    QCOMPARE(panel.vchunksBox()->maximum(), 16);
    QCOMPARE(panel.contextBox()->specialValueText(), QStringLiteral("auto"));
  }

  void choiceFieldsListTheTablesChoices() {
    ConfigPanel panel;
    for (const char* flag : {"model", "gpu", "strategy", "schedule"}) {
      auto* box = qobject_cast<QComboBox*>(panel.fieldOf(flag));
      QVERIFY2(box != nullptr, flag);
      QVERIFY2(!box->isEditable(), flag);
      // The model list ends with its way to a config.json (tests/ui/test_model_file.cpp).
      const QStringList extra =
          QString(flag) == "model" ? QStringList({QString(), QStringLiteral("From a config.json…")})
                                   : QStringList();
      QCOMPARE(items(box), choices(flag) + extra);
      QCOMPARE(box->toolTip(), help(flag));
    }
  }

  void numberAndTextFieldsFollowTheirKind() {
    ConfigPanel panel;
    auto* cap = qobject_cast<QDoubleSpinBox*>(panel.fieldOf("memory-cap"));
    QVERIFY(cap != nullptr);
    QCOMPARE(cap->minimum(), option("memory-cap").min_number);
    QCOMPARE(cap->toolTip(), help("memory-cap"));
    QCOMPARE(panel.fieldOf("stage-layers"), static_cast<QWidget*>(panel.stageLayersEdit()));
    QCOMPARE(panel.stageLayersEdit()->toolTip(), help("stage-layers"));
    // Recompute is typed text with its named modes offered.
    QVERIFY(panel.recomputeBox()->isEditable());
    QCOMPARE(items(panel.recomputeBox()), QStringList({"auto", "none", "selective", "full"}));
    QCOMPARE(panel.recomputeBox()->toolTip(), help("recompute"));
    QCOMPARE(panel.fieldOf("exact"), nullptr);  // an option the panel does not show
  }

  void rowsKeepTheirOrderAndLabels() {
    ConfigPanel panel;
    auto* form = qobject_cast<QFormLayout*>(panel.layout());
    QVERIFY(form != nullptr);
    QStringList labels;
    for (int row = 0; row < form->rowCount(); ++row) {
      QLayoutItem* item = form->itemAt(row, QFormLayout::LabelRole);
      auto* label = item ? qobject_cast<QLabel*>(item->widget()) : nullptr;
      labels << (label ? label->text() : QString());
    }
    QCOMPARE(labels, QStringList({"", "Model", "GPU", "p / d / t", "Strategy", "Slice size", "",
                                  "Packs", "Schedule", "Context", "Recompute / CP", "Stage layers",
                                  "Memory cap", "Costs"}));
    // Shared rows hold their options side by side, in the table's spelling.
    QLayoutItem* pdt = form->itemAt(3, QFormLayout::FieldRole);
    QVERIFY(pdt->layout() != nullptr);
    QCOMPARE(pdt->layout()->itemAt(0)->widget(), static_cast<QWidget*>(panel.ppBox()));
    QCOMPARE(pdt->layout()->itemAt(1)->widget(), panel.fieldOf("dp"));
    QCOMPARE(pdt->layout()->itemAt(2)->widget(), static_cast<QWidget*>(panel.tpBox()));
  }

  void setSpecShowsValuesThroughTheTable() {
    ConfigPanel panel;
    ConfigSpec spec;
    spec.dp = 3;
    spec.gpu = choices("gpu").back().toStdString();
    spec.schedule = ScheduleKind::Interleaved;
    spec.memory_cap_gb = 70;
    spec.context = Tokens{1} << 40;  // past the box's end: shown as its end
    QSignalSpy edited(&panel, &ConfigPanel::configEdited);
    panel.setSpec(spec);
    QCOMPARE(edited.count(), 0);
    QCOMPARE(qobject_cast<QSpinBox*>(panel.fieldOf("dp"))->value(), 3);
    QCOMPARE(qobject_cast<QComboBox*>(panel.fieldOf("gpu"))->currentText(), choices("gpu").back());
    QCOMPARE(qobject_cast<QComboBox*>(panel.fieldOf("schedule"))->currentText(),
             QStringLiteral("interleaved"));
    QCOMPARE(qobject_cast<QDoubleSpinBox*>(panel.fieldOf("memory-cap"))->value(), 70.0);
    QCOMPARE(panel.contextBox()->value(), panel.contextBox()->maximum());
    QVERIFY(panel.vchunksBox()->isEnabled());
  }

  // Key presses as a user makes them: each table-built field's edit reaches spec() through its
  // option and emits configEdited once.
  void keyEditsReachTheSpecOnce() {
    ConfigPanel panel;
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QSignalSpy edited(&panel, &ConfigPanel::configEdited);

    QWidget* dp = panel.fieldOf("dp");
    dp->setFocus();
    QTest::keyClick(dp, Qt::Key_Up);
    QCOMPARE(edited.count(), 1);
    QCOMPARE(panel.spec().dp, 2);
    QCOMPARE(std::get<std::int64_t>(valueIn(panel, "dp")), 2);
    QCOMPARE(edited.takeFirst().at(0).value<ConfigSpec>(), panel.spec());

    QWidget* cap = panel.fieldOf("memory-cap");
    cap->setFocus();
    QTest::keyClick(cap, Qt::Key_Up);
    QCOMPARE(edited.count(), 1);
    QCOMPARE(panel.spec().memory_cap_gb, 1.0);
    edited.clear();

    auto* schedule = qobject_cast<QComboBox*>(panel.fieldOf("schedule"));
    schedule->setFocus();
    QTest::keyClick(schedule, Qt::Key_End);  // the last choice: interleaved
    QCOMPARE(edited.count(), 1);
    QCOMPARE(panel.spec().schedule, ScheduleKind::Interleaved);
    QCOMPARE(std::get<std::string>(valueIn(panel, "schedule")),
             option("schedule").choices().back());
    QVERIFY(panel.vchunksBox()->isEnabled());
    edited.clear();

    testing::typeInto(panel.stageLayersEdit(), QStringLiteral("even"));
    QCOMPARE(edited.count(), 1);
    QCOMPARE(std::get<std::string>(valueIn(panel, "stage-layers")), std::string("even"));
    QVERIFY(panel.stageLayersEdit()->styleSheet().isEmpty());
  }

  // A failed solve that names a table-built option marks that option's field, and only it.
  void aFailedSolveMarksTheNamedField() {
    ConfigPanel panel;
    panel.showOptionError("--dp", QStringLiteral("too many replicas"));
    QCOMPARE(panel.markedField(), panel.fieldOf("dp"));
    QCOMPARE(panel.fieldOf("dp")->toolTip(), QStringLiteral("too many replicas"));
    panel.showOptionError("--memory-cap", QStringLiteral("must not be negative"));
    QCOMPARE(panel.markedField(), panel.fieldOf("memory-cap"));
    QCOMPARE(panel.fieldOf("dp")->toolTip(), help("dp"));
    QVERIFY(panel.fieldOf("dp")->styleSheet().isEmpty());
    panel.showOptionError({}, {});
    QCOMPARE(panel.markedField(), nullptr);
  }
};

QTEST_MAIN(TestConfigRows)
#include "test_config_rows.moc"

// The table-model base (ui/models/table_model.h) on its own: a small model of fruit declares its
// columns in one table, and the test reads back every role the table describes, the resets and
// the sort.
#include <QAbstractItemModelTester>
#include <QBrush>
#include <QPersistentModelIndex>
#include <QSignalSpy>
#include <QTest>

#include "models/table_model.h"

using namespace slimpack::ui;

namespace {

struct Fruit {
  QString name;
  double kg = 0.0;
  QString note;  // a row-wide tooltip
  bool bruised = false;
};

// Name (text, left), weight (a number with the model's unit, right, sorted by the raw kilograms)
// and a flag column with its own tooltip and background.
class FruitModel : public TableModel<Fruit> {
  Q_OBJECT
 public:
  enum Column { Name, Weight, Flag, ColumnCount };

  FruitModel() {
    setRowTooltip([](const Fruit& f) { return f.note.isEmpty() ? QVariant() : QVariant(f.note); });
    setRowForeground(
        [](const Fruit& f) { return f.bruised ? QVariant(warningBrush()) : QVariant(); });
    setColumns({
        {.header = QStringLiteral("Fruit"),
         .display = [](const Fruit& f) { return f.name; },
         .sortValue = [](const Fruit& f) { return f.name; }},
        {.header = QStringLiteral("Weight"),
         .display = [this](const Fruit& f) { return QStringLiteral("%1 %2").arg(f.kg).arg(unit_); },
         .sortValue = [](const Fruit& f) { return f.kg; },
         .alignment = kNumberAlignment,
         .headerTooltip = QStringLiteral("Weight as picked")},
        {.header = QStringLiteral("Flag"),
         .display =
             [](const Fruit& f) { return f.bruised ? QStringLiteral("bruised") : QString(); },
         .tooltip = [](const Fruit& f) { return QStringLiteral("flag of %1").arg(f.name); },
         .background = [](const Fruit&) { return QBrush(Qt::yellow); }},
    });
  }

  // `unit` is model-wide state the weight cells read: it changes inside the reset.
  void setFruit(std::vector<Fruit> fruit, const QString& unit) {
    resetRows(std::move(fruit), [this, &unit] { unit_ = unit; });
  }
  void sortByWeight(Qt::SortOrder order) {
    sortRows([order](const Fruit& a, const Fruit& b) {
      return order == Qt::AscendingOrder ? a.kg < b.kg : a.kg > b.kg;
    });
  }

 private:
  QString unit_ = QStringLiteral("kg");
};

std::vector<Fruit> basket() {
  return {{QStringLiteral("apple"), 0.5, QStringLiteral("from the orchard"), false},
          {QStringLiteral("pear"), 0.25, QString(), true},
          {QStringLiteral("plum"), 0.5, QString(), false}};
}

QString text(const QAbstractItemModel& m, int row, int column, int role = Qt::DisplayRole) {
  return m.data(m.index(row, column), role).toString();
}

}  // namespace

class TestTableModel : public QObject {
  Q_OBJECT

 private slots:
  void headersComeFromTheColumnTable() {
    FruitModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(m.columnCount(), int(FruitModel::ColumnCount));
    QCOMPARE(m.headerData(FruitModel::Name, Qt::Horizontal).toString(), QStringLiteral("Fruit"));
    QCOMPARE(m.headerData(FruitModel::Weight, Qt::Horizontal).toString(), QStringLiteral("Weight"));
    QCOMPARE(m.headerData(FruitModel::Flag, Qt::Horizontal).toString(), QStringLiteral("Flag"));
    QCOMPARE(m.headerData(FruitModel::Weight, Qt::Horizontal, Qt::ToolTipRole).toString(),
             QStringLiteral("Weight as picked"));
    // No header tooltip, no vertical header, nothing past the last column.
    QVERIFY(!m.headerData(FruitModel::Name, Qt::Horizontal, Qt::ToolTipRole).isValid());
    QVERIFY(!m.headerData(0, Qt::Vertical).isValid());
    QVERIFY(!m.headerData(FruitModel::ColumnCount, Qt::Horizontal).isValid());
  }

  void cellsServeEveryRoleOfTheirColumn() {
    FruitModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    m.setFruit(basket(), QStringLiteral("kg"));
    QCOMPARE(m.rowCount(), 3);
    QCOMPARE(m.rows().size(), std::size_t{3});
    QCOMPARE(m.row(1).name, QStringLiteral("pear"));

    QCOMPARE(text(m, 0, FruitModel::Name), QStringLiteral("apple"));
    QCOMPARE(text(m, 1, FruitModel::Weight), QStringLiteral("0.25 kg"));
    QCOMPARE(text(m, 1, FruitModel::Flag), QStringLiteral("bruised"));
    QCOMPARE(m.data(m.index(0, FruitModel::Flag)).typeId(), QMetaType::QString);
    QCOMPARE(text(m, 0, FruitModel::Flag), QString());

    // Sort values: the raw number, not its text; a column without one serves nothing.
    QCOMPARE(m.data(m.index(1, FruitModel::Weight), Qt::UserRole).typeId(), QMetaType::Double);
    QCOMPARE(m.data(m.index(1, FruitModel::Weight), Qt::UserRole).toDouble(), 0.25);
    QCOMPARE(text(m, 2, FruitModel::Name, Qt::UserRole), QStringLiteral("plum"));
    QVERIFY(!m.data(m.index(1, FruitModel::Flag), Qt::UserRole).isValid());

    // Numbers right-aligned; text keeps the view's default.
    QCOMPARE(m.data(m.index(0, FruitModel::Weight), Qt::TextAlignmentRole).toInt(),
             int(Qt::AlignRight | Qt::AlignVCenter));
    QVERIFY(!m.data(m.index(0, FruitModel::Name), Qt::TextAlignmentRole).isValid());

    // The row's tooltip on every cell, unless the column has its own.
    QCOMPARE(text(m, 0, FruitModel::Name, Qt::ToolTipRole), QStringLiteral("from the orchard"));
    QCOMPARE(text(m, 0, FruitModel::Weight, Qt::ToolTipRole), QStringLiteral("from the orchard"));
    QCOMPARE(text(m, 0, FruitModel::Flag, Qt::ToolTipRole), QStringLiteral("flag of apple"));
    QVERIFY(!m.data(m.index(1, FruitModel::Name), Qt::ToolTipRole).isValid());

    // The row's foreground (the warning red) on each cell of a bruised fruit only.
    const QVariant red = m.data(m.index(1, FruitModel::Weight), Qt::ForegroundRole);
    QCOMPARE(red.value<QBrush>().color(), QColor(0xd6, 0x45, 0x45));
    QCOMPARE(m.data(m.index(1, FruitModel::Name), Qt::ForegroundRole).value<QBrush>().color(),
             QColor(0xd6, 0x45, 0x45));
    QVERIFY(!m.data(m.index(0, FruitModel::Weight), Qt::ForegroundRole).isValid());
    QCOMPARE(m.data(m.index(2, FruitModel::Flag), Qt::BackgroundRole).value<QBrush>().color(),
             QColor(Qt::yellow));
    QVERIFY(!m.data(m.index(2, FruitModel::Name), Qt::BackgroundRole).isValid());

    // Roles the table does not describe, and indexes outside the table, serve nothing.
    QVERIFY(!m.data(m.index(0, FruitModel::Name), Qt::DecorationRole).isValid());
    QVERIFY(!m.data(QModelIndex()).isValid());
    QVERIFY(!m.data(m.index(3, FruitModel::Name)).isValid());
  }

  void newRowsAreOneResetWithTheirState() {
    FruitModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    m.setFruit(basket(), QStringLiteral("kg"));
    QSignalSpy about(&m, &QAbstractItemModel::modelAboutToBeReset);
    QSignalSpy reset(&m, &QAbstractItemModel::modelReset);
    QString before_reset;
    connect(&m, &QAbstractItemModel::modelAboutToBeReset, this,
            [&] { before_reset = text(m, 0, FruitModel::Weight); });

    m.setFruit({{QStringLiteral("melon"), 2.0, QString(), false}}, QStringLiteral("lb"));
    QCOMPARE(about.count(), 1);
    QCOMPARE(reset.count(), 1);
    // The old rows and unit up to the reset, the new ones after it.
    QCOMPARE(before_reset, QStringLiteral("0.5 kg"));
    QCOMPARE(m.rowCount(), 1);
    QCOMPARE(text(m, 0, FruitModel::Name), QStringLiteral("melon"));
    QCOMPARE(text(m, 0, FruitModel::Weight), QStringLiteral("2 lb"));

    m.setFruit({}, QStringLiteral("kg"));
    QCOMPARE(about.count(), 2);
    QCOMPARE(reset.count(), 2);
    QCOMPARE(m.rowCount(), 0);
  }

  void sortKeepsTiesInOrderAndPersistentIndexesFollow() {
    FruitModel m;
    QAbstractItemModelTester tester(&m, QAbstractItemModelTester::FailureReportingMode::QtTest);
    m.setFruit(basket(), QStringLiteral("kg"));
    const QPersistentModelIndex pear(m.index(1, FruitModel::Weight));
    QSignalSpy layout(&m, &QAbstractItemModel::layoutChanged);

    m.sortByWeight(Qt::DescendingOrder);
    QCOMPARE(layout.count(), 1);
    // apple and plum weigh the same: they stay in their order.
    QCOMPARE(text(m, 0, FruitModel::Name), QStringLiteral("apple"));
    QCOMPARE(text(m, 1, FruitModel::Name), QStringLiteral("plum"));
    QCOMPARE(text(m, 2, FruitModel::Name), QStringLiteral("pear"));
    QCOMPARE(pear.row(), 2);
    QCOMPARE(pear.column(), int(FruitModel::Weight));
    QCOMPARE(pear.data().toString(), QStringLiteral("0.25 kg"));

    m.sortByWeight(Qt::AscendingOrder);
    QCOMPARE(text(m, 0, FruitModel::Name), QStringLiteral("pear"));
    QCOMPARE(pear.row(), 0);
  }
};

QTEST_MAIN(TestTableModel)
#include "test_table_model.moc"

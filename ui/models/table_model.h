#pragma once
// One base for the explorer's read-only tables, in the spirit of KDAB hotspot's HashModel: the
// model holds a vector of rows and a table of column descriptors, and serves every role from that
// table. A model declares each column once (header, what a cell shows, sorts by, aligns to, says
// in a tooltip) and keeps only what is its own: how rows are built, the model-wide state cells
// read (a time unit, a timeline) and a sort order that is not the raw value's.
#include <QAbstractTableModel>
#include <QBrush>
#include <QColor>
#include <QString>
#include <QVariant>
#include <algorithm>
#include <cstddef>
#include <functional>
#include <numeric>
#include <utility>
#include <vector>

namespace slimpack::ui {

// Numbers read right-aligned so that their digits line up down a column.
inline constexpr Qt::Alignment kNumberAlignment = Qt::AlignRight | Qt::AlignVCenter;

// The red of a failed row or a value over its cap, the same in every table.
inline QBrush warningBrush() {
  return QBrush(QColor(0xd6, 0x45, 0x45));
}

template <typename Row>
class TableModel : public QAbstractTableModel {
 public:
  // What a cell of `row` serves under one role; an empty function serves nothing.
  using Cell = std::function<QVariant(const Row&)>;

  // One column. The table lists them in the order of the model's Column enum.
  struct ColumnSpec {
    QString header;
    Cell display;                  // Qt::DisplayRole
    Cell sortValue = {};           // Qt::UserRole: the raw value (a number, not its text)
    Qt::Alignment alignment = {};  // Qt::TextAlignmentRole; none leaves the view's default
    QString headerTooltip = {};
    Cell tooltip = {};     // wins over the row's tooltip
    Cell foreground = {};  // wins over the row's foreground
    Cell background = {};
  };

  const std::vector<Row>& rows() const { return rows_; }
  const Row& row(int r) const { return rows_[static_cast<std::size_t>(r)]; }

  int rowCount(const QModelIndex& parent = {}) const override {
    return parent.isValid() ? 0 : static_cast<int>(rows_.size());
  }
  int columnCount(const QModelIndex& parent = {}) const override {
    return parent.isValid() ? 0 : static_cast<int>(columns_.size());
  }

  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override {
    if (!index.isValid() || index.row() >= rowCount() || index.column() >= columnCount()) return {};
    const ColumnSpec& column = columns_[static_cast<std::size_t>(index.column())];
    const Row& r = row(index.row());
    switch (role) {
      case Qt::DisplayRole:
        return serve(column.display, r);
      case Qt::UserRole:
        return serve(column.sortValue, r);
      case Qt::TextAlignmentRole:
        // As an int, the type Qt's own models and the delegates read.
        return column.alignment.toInt() != 0 ? QVariant(static_cast<int>(column.alignment.toInt()))
                                             : QVariant();
      case Qt::ToolTipRole:
        return serve(column.tooltip ? column.tooltip : row_tooltip_, r);
      case Qt::ForegroundRole:
        return serve(column.foreground ? column.foreground : row_foreground_, r);
      case Qt::BackgroundRole:
        return serve(column.background, r);
      default:
        return {};
    }
  }

  QVariant headerData(int section, Qt::Orientation orientation,
                      int role = Qt::DisplayRole) const override {
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount()) return {};
    const ColumnSpec& column = columns_[static_cast<std::size_t>(section)];
    if (role == Qt::DisplayRole) return column.header;
    if (role == Qt::ToolTipRole && !column.headerTooltip.isEmpty()) return column.headerTooltip;
    return {};
  }

 protected:
  explicit TableModel(QObject* parent = nullptr) : QAbstractTableModel(parent) {}

  // Once, from the model's constructor (the cells may capture the model for its state).
  void setColumns(std::vector<ColumnSpec> columns) { columns_ = std::move(columns); }
  // What every cell of a row says in a tooltip or is coloured with (a failed row's reason, a
  // warning), unless its column has its own.
  void setRowTooltip(Cell tooltip) { row_tooltip_ = std::move(tooltip); }
  void setRowForeground(Cell foreground) { row_foreground_ = std::move(foreground); }

  // New rows in one model reset; `alongside` changes, inside the same reset and after the rows,
  // the model-wide state the cells read.
  void resetRows(std::vector<Row> rows, const std::function<void()>& alongside = {}) {
    beginResetModel();
    rows_ = std::move(rows);
    if (alongside) alongside();
    endResetModel();
  }

  // Orders the rows by `less`, keeping equal rows in their order, as a sort: persistent indexes
  // (a view's selection and current row) follow their rows.
  template <typename Less>
  void sortRows(Less less) {
    emit layoutAboutToBeChanged({}, QAbstractItemModel::VerticalSortHint);
    std::vector<std::size_t> order(rows_.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return less(rows_[a], rows_[b]); });
    std::vector<int> moved_to(rows_.size());
    std::vector<Row> sorted;
    sorted.reserve(rows_.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
      moved_to[order[i]] = static_cast<int>(i);
      sorted.push_back(std::move(rows_[order[i]]));
    }
    rows_ = std::move(sorted);
    const QModelIndexList before = persistentIndexList();
    QModelIndexList after;
    after.reserve(before.size());
    for (const QModelIndex& i : before)
      after << index(moved_to[static_cast<std::size_t>(i.row())], i.column());
    changePersistentIndexList(before, after);
    emit layoutChanged({}, QAbstractItemModel::VerticalSortHint);
  }

 private:
  static QVariant serve(const Cell& cell, const Row& r) { return cell ? cell(r) : QVariant(); }

  std::vector<ColumnSpec> columns_;
  std::vector<Row> rows_;
  Cell row_tooltip_;
  Cell row_foreground_;
};

}  // namespace slimpack::ui

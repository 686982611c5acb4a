#pragma once
// Asking which column of a multi-column length file holds the lengths: a production trace such as
// "TIMESTAMP,ContextTokens,GeneratedTokens" has several numeric columns and none named "length",
// so the reader cannot pick one by itself. The CLI takes --column; the explorer asks.
#include <QString>
#include <QStringList>

class QWidget;

namespace slimpack::ui {

// A modal choice among `columns` (object name "lengthColumnDialog"); returns the column, or an
// empty string when the user cancels.
QString askLengthColumn(QWidget* parent, const QString& file, const QStringList& columns);

}  // namespace slimpack::ui

#pragma once
// Asking which column of a multi-column length file holds the lengths: a production trace such as
// "TIMESTAMP,ContextTokens,GeneratedTokens" has several numeric columns and none named "length",
// so the reader cannot pick one by itself. The CLI takes --column; the explorer asks.
#include <QString>
#include <QStringList>

#include <functional>

class QWidget;

namespace slimpack::ui {

// Opens a window-modal choice among `columns` (object name "lengthColumnDialog") without a nested
// event loop, so jobs keep running: `chosen(column)` runs when the user picks one, `cancelled()`
// when the dialog is closed without a choice.
void askLengthColumn(QWidget* parent, const QString& file, const QStringList& columns,
                     std::function<void(const QString&)> chosen, std::function<void()> cancelled);

}  // namespace slimpack::ui

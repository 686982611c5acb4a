#include "window/column_chooser.h"

#include <QFileInfo>
#include <QInputDialog>

namespace slimpack::ui {

QString askLengthColumn(QWidget* parent, const QString& file, const QStringList& columns) {
  QInputDialog dialog(parent);
  dialog.setObjectName(QStringLiteral("lengthColumnDialog"));
  dialog.setWindowTitle(QObject::tr("Which column holds the lengths?"));
  dialog.setLabelText(QObject::tr("%1 has %2 columns, and none is one the reader takes by itself "
                                  "(length, num_tokens, seq_len).\nPick the one that holds each "
                                  "sample's length in tokens; the explorer remembers it for this "
                                  "file (slimpack takes it as --column).")
                          .arg(QFileInfo(file).fileName())
                          .arg(columns.size()));
  dialog.setComboBoxItems(columns);
  dialog.setComboBoxEditable(false);
  // A column whose name says tokens is the likely one ("ContextTokens", "num_tokens").
  for (const QString& c : columns)
    if (c.contains(QStringLiteral("token"), Qt::CaseInsensitive)) {
      dialog.setTextValue(c);
      break;
    }
  if (dialog.exec() != QDialog::Accepted) return {};
  return dialog.textValue();
}

}  // namespace slimpack::ui

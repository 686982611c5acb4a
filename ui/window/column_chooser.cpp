#include "window/column_chooser.h"

#include <QFileInfo>
#include <QInputDialog>

namespace slimpack::ui {

void askLengthColumn(QWidget* parent, const QString& file, const QStringList& columns,
                     std::function<void(const QString&)> chosen, std::function<void()> cancelled) {
  auto* dialog = new QInputDialog(parent);
  dialog->setAttribute(Qt::WA_DeleteOnClose);
  dialog->setWindowModality(Qt::WindowModal);
  dialog->setObjectName(QStringLiteral("lengthColumnDialog"));
  dialog->setWindowTitle(QObject::tr("Which column holds the lengths?"));
  dialog->setLabelText(QObject::tr("%1 has %2 columns, and none is one the reader takes by itself "
                                   "(length, num_tokens, seq_len).\nPick the one that holds each "
                                   "sample's length in tokens; the explorer remembers it for this "
                                   "file (slimpack takes it as --column).")
                           .arg(QFileInfo(file).fileName())
                           .arg(columns.size()));
  dialog->setComboBoxItems(columns);
  dialog->setComboBoxEditable(false);
  // A column whose name says tokens is the likely one ("ContextTokens", "num_tokens").
  for (const QString& c : columns)
    if (c.contains(QStringLiteral("token"), Qt::CaseInsensitive)) {
      dialog->setTextValue(c);
      break;
    }
  QObject::connect(dialog, &QInputDialog::textValueSelected, dialog,
                   [chosen = std::move(chosen)](const QString& column) { chosen(column); });
  QObject::connect(dialog, &QDialog::rejected, dialog,
                   [cancelled = std::move(cancelled)] { cancelled(); });
  dialog->open();
}

}  // namespace slimpack::ui

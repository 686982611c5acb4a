#include "window/help_dialogs.h"

#include <QAction>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFile>
#include <QHeaderView>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QTableWidget>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextImageFormat>
#include <QVBoxLayout>

namespace slimpack::ui {
namespace {

constexpr int kImageWidth = 760;  // screenshots are 1600 px wide: shown scaled to the page

struct KeyRow {
  QString keys;
  QString what;
};

void collect(QMenu* menu, const QString& path, std::vector<KeyRow>& out) {
  for (QAction* a : menu->actions()) {
    const QString name = QString(a->text()).remove('&').remove(QStringLiteral("…"));
    if (a->menu()) {
      collect(a->menu(), path + name + QStringLiteral(" > "), out);
      continue;
    }
    if (a->isSeparator() || a->shortcut().isEmpty()) continue;
    out.push_back({a->shortcut().toString(QKeySequence::NativeText), path + name});
  }
}

std::vector<KeyRow> shortcutRows(QMainWindow* window) {
  std::vector<KeyRow> rows;
  for (QAction* a : window->menuBar()->actions())
    if (a->menu()) collect(a->menu(), QString(a->text()).remove('&') + QStringLiteral(" > "), rows);
  // Keys the Gantt itself handles (not menu actions).
  const std::vector<KeyRow> gantt = {
      {QObject::tr("Wheel"), QObject::tr("Gantt: zoom around the cursor")},
      {QObject::tr("Shift+Wheel, drag"), QObject::tr("Gantt: pan")},
      {QObject::tr("+ / -"), QObject::tr("Gantt: zoom in / out")},
      {QObject::tr("Left / Right"), QObject::tr("Gantt: pan")},
      {QObject::tr("0"), QObject::tr("Gantt: fit to window")},
      {QObject::tr("Click, Shift+Click"),
       QObject::tr("Gantt: pin a sequence, cycle through the pack's sequences")},
      {QObject::tr("Esc"),
       QObject::tr("Cancel the running job; with nothing running, unpin the Gantt's highlight")},
      {QObject::tr("Right, Left, Home, End"), QObject::tr("Presentation mode: step saved views")},
  };
  rows.insert(rows.end(), gantt.begin(), gantt.end());
  return rows;
}

// Scales the guide's screenshots to the page width (the Markdown cannot say how wide).
void fitImages(QTextDocument* doc) {
  for (QTextBlock b = doc->begin(); b.isValid(); b = b.next()) {
    for (auto it = b.begin(); !it.atEnd(); ++it) {
      const QTextFragment f = it.fragment();
      if (!f.isValid() || !f.charFormat().isImageFormat()) continue;
      QTextImageFormat img = f.charFormat().toImageFormat();
      img.setWidth(kImageWidth);
      QTextCursor c(doc);
      c.setPosition(f.position());
      c.setPosition(f.position() + f.length(), QTextCursor::KeepAnchor);
      c.setCharFormat(img);
    }
  }
}

QDialog* reuse(QMainWindow* window, const char* name) {
  auto* d = window->findChild<QDialog*>(QString::fromLatin1(name));
  if (d) {
    d->show();
    d->raise();
    d->activateWindow();
  }
  return d;
}

}  // namespace

QString shortcutListText(QMainWindow* window) {
  QStringList lines;
  for (const KeyRow& r : shortcutRows(window)) lines << r.keys + '\t' + r.what;
  return lines.join('\n');
}

QDialog* showUserGuide(QMainWindow* window) {
  if (QDialog* d = reuse(window, "help.guide")) return d;
  auto* dialog = new QDialog(window);
  dialog->setObjectName("help.guide");
  dialog->setWindowTitle(QObject::tr("User Guide"));
  auto* browser = new QTextBrowser;
  browser->setObjectName("help.guide.text");
  browser->setOpenExternalLinks(true);
  if (QFile::exists(QString::fromLatin1(kUserGuideResource))) {
    browser->setSource(QUrl(QStringLiteral("qrc") + kUserGuideResource),
                       QTextDocument::MarkdownResource);
    fitImages(browser->document());
  } else {
    browser->setPlainText(
        QObject::tr("The user guide is not bundled with this build. It is docs/user-guide.md in "
                    "the source tree."));
  }
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
  QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
  auto* layout = new QVBoxLayout(dialog);
  layout->addWidget(browser);
  layout->addWidget(buttons);
  dialog->resize(kImageWidth + 80, 700);
  dialog->show();
  return dialog;
}

QDialog* showKeyboardShortcuts(QMainWindow* window) {
  if (QDialog* d = reuse(window, "help.shortcuts")) return d;
  auto* dialog = new QDialog(window);
  dialog->setObjectName("help.shortcuts");
  dialog->setWindowTitle(QObject::tr("Keyboard Shortcuts"));
  const std::vector<KeyRow> rows = shortcutRows(window);
  auto* table = new QTableWidget(static_cast<int>(rows.size()), 2);
  table->setObjectName("help.shortcuts.table");
  table->setHorizontalHeaderLabels({QObject::tr("Keys"), QObject::tr("Action")});
  table->verticalHeader()->hide();
  table->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table->horizontalHeader()->setStretchLastSection(true);
  for (int i = 0; i < static_cast<int>(rows.size()); ++i) {
    table->setItem(i, 0, new QTableWidgetItem(rows[static_cast<std::size_t>(i)].keys));
    table->setItem(i, 1, new QTableWidgetItem(rows[static_cast<std::size_t>(i)].what));
  }
  table->resizeColumnToContents(0);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
  QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);
  auto* layout = new QVBoxLayout(dialog);
  layout->addWidget(table);
  layout->addWidget(buttons);
  dialog->resize(560, 600);
  dialog->show();
  return dialog;
}

}  // namespace slimpack::ui

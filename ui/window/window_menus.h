#pragma once
// Menus, toolbar and shortcuts of the main window (standard keys: Ctrl+O, Ctrl+S, Ctrl+Shift+S,
// Ctrl+E, Ctrl+Shift+C, Ctrl+Q, Ctrl+Z,
// Ctrl+Shift+Z, F11, Esc, F1 = User Guide) and the file dialogs they open. Every action calls
// a public command of MainWindow, its session I/O and saved views, the controller or the exporter.
#include <QObject>

#include "panels/config_panel.h"
#include "window/exporter.h"

QT_BEGIN_NAMESPACE
class QAction;
class QMenu;
QT_END_NAMESPACE

namespace slimpack::ui {

class MainWindow;

class WindowMenus : public QObject {
  Q_OBJECT
 public:
  explicit WindowMenus(MainWindow& window);

  void setBusy(bool busy);
  QAction* cancelAction() const { return cancel_; }

 public slots:
  void openFileDialog();
  void openSessionDialog();
  void saveSession();
  void saveSessionAs();
  void exportImageDialog();
  void exportTraceDialog();
  void exportCsvDialog();
  // Asks for a fitted cost profile (`slimpack fit-costs`) or a cost overrides file and hands it to
  // the controller, which checks it before using it.
  void costFileDialog(slimpack::ui::ConfigPanel::CostFile which);
  // Asks for a Hugging Face config.json and hands it to the controller, which reads it before the
  // configuration names it as the model.
  void modelFileDialog();

 private:
  void buildFileMenu();
  void buildEditMenu();
  void buildViewMenu();
  void buildRunMenu();
  // Enables `action` only while the exporter has a current result of `kind` to export.
  void guardExport(QAction* action, Exporter::Kind kind);
  void rebuildRecent();
  void rebuildSavedViews();
  QString askSavePath(const QString& title, const QString& suggested, const QString& filter);

  MainWindow& window_;
  QMenu* recent_ = nullptr;
  QMenu* saved_ = nullptr;
  QAction* cancel_ = nullptr;
};

}  // namespace slimpack::ui

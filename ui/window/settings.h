#pragma once
// The one settings object of the explorer: a QSettings store read and written on the GUI thread
// only, with a change signal per setting so that panels react instead of polling. No global
// instance: main() creates it and hands it to the window.
#include <QByteArray>
#include <QObject>
#include <QSettings>
#include <QStringList>

#include <memory>

namespace slimpack::ui {

class Settings : public QObject {
  Q_OBJECT
 public:
  static constexpr int kMaxRecentFiles = 8;

  explicit Settings(std::unique_ptr<QSettings> store, QObject* parent = nullptr);
  // The user's settings (organization/application names of the QApplication).
  static std::unique_ptr<Settings> fromUserSettings();
  // An INI file, e.g. throw-away settings for screenshots and tests.
  static std::unique_ptr<Settings> fromFile(const QString& iniPath);

  QString theme() const;  // "light" or "dark"
  void setTheme(const QString& theme);

  QStringList recentFiles() const;
  void addRecentFile(const QString& path);  // most recent first, no duplicates, at most kMax
  // The files of a run (the ranks' traces opened together) as one entry that reopens them all:
  // their absolute paths joined by newlines; one file is an ordinary entry.
  void addRecentRun(const QStringList& paths);
  // The files of an entry of recentFiles() (one for an ordinary entry).
  static QStringList recentEntryFiles(const QString& entry);
  void clearRecentFiles();

  // The column (CSV) or field (JSONL) chosen for a multi-column length file, by absolute path;
  // empty when none was chosen.
  QString lengthColumn(const QString& file) const;
  void setLengthColumn(const QString& file, const QString& column);

  QString lastDirectory() const;
  void setLastDirectory(const QString& dir);

  // Where save dialogs (exports, sessions) open: the last folder something was saved to, else
  // Pictures, else home — never a folder that cannot be written to (the bundled samples, which
  // open dialogs start in, are read-only when installed).
  QString saveDirectory() const;
  void setSaveDirectory(const QString& dir);

  double exportScale() const;  // PNG export scale factor (2 = slides)
  void setExportScale(double scale);

  QByteArray windowGeometry() const;
  QByteArray windowState() const;
  void setWindowGeometry(const QByteArray& geometry);
  void setWindowState(const QByteArray& state);

  void sync() { store_->sync(); }

 signals:
  void themeChanged(const QString& theme);
  void recentFilesChanged(const QStringList& files);
  void exportScaleChanged(double scale);

 private:
  std::unique_ptr<QSettings> store_;
};

}  // namespace slimpack::ui

#include "window/settings.h"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

#include "window/data_paths.h"

namespace slimpack::ui {
namespace {
constexpr auto kTheme = "view/theme";
constexpr auto kRecent = "files/recent";
constexpr auto kLastDir = "files/lastDirectory";
constexpr auto kLengthColumns = "files/lengthColumns";
constexpr auto kSaveDir = "files/saveDirectory";
constexpr auto kExportScale = "export/scale";
constexpr auto kGeometry = "window/geometry";
constexpr auto kState = "window/state";
}  // namespace

Settings::Settings(std::unique_ptr<QSettings> store, QObject* parent)
    : QObject(parent), store_(std::move(store)) {}

std::unique_ptr<Settings> Settings::fromUserSettings() {
  return std::make_unique<Settings>(std::make_unique<QSettings>());
}

std::unique_ptr<Settings> Settings::fromFile(const QString& iniPath) {
  return std::make_unique<Settings>(std::make_unique<QSettings>(iniPath, QSettings::IniFormat));
}

QString Settings::theme() const {
  const QString t = store_->value(kTheme, "light").toString();
  return t == "dark" ? t : QStringLiteral("light");
}

void Settings::setTheme(const QString& theme) {
  const QString t = theme == "dark" ? theme : QStringLiteral("light");
  if (t == this->theme()) return;
  store_->setValue(kTheme, t);
  emit themeChanged(t);
}

QStringList Settings::recentFiles() const {
  return store_->value(kRecent).toStringList();
}

void Settings::addRecentFile(const QString& path) {
  const QString abs = QFileInfo(path).absoluteFilePath();
  QStringList files = recentFiles();
  files.removeAll(abs);
  files.prepend(abs);
  while (files.size() > kMaxRecentFiles) files.removeLast();
  store_->setValue(kRecent, files);
  setLastDirectory(QFileInfo(abs).absolutePath());
  emit recentFilesChanged(files);
}

void Settings::addRecentRun(const QStringList& paths) {
  if (paths.size() == 1) return addRecentFile(paths.front());
  if (paths.isEmpty()) return;
  QStringList abs;
  for (const QString& p : paths) abs << QFileInfo(p).absoluteFilePath();
  const QString entry = abs.join(QLatin1Char('\n'));
  QStringList files = recentFiles();
  files.removeAll(entry);
  files.prepend(entry);
  while (files.size() > kMaxRecentFiles) files.removeLast();
  store_->setValue(kRecent, files);
  setLastDirectory(QFileInfo(abs.front()).absolutePath());
  emit recentFilesChanged(files);
}

QStringList Settings::recentEntryFiles(const QString& entry) {
  return entry.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

void Settings::clearRecentFiles() {
  store_->remove(kRecent);
  emit recentFilesChanged({});
}

QString Settings::lengthColumn(const QString& file) const {
  const QVariantMap columns = store_->value(kLengthColumns).toMap();
  return columns.value(QFileInfo(file).absoluteFilePath()).toString();
}

void Settings::setLengthColumn(const QString& file, const QString& column) {
  QVariantMap columns = store_->value(kLengthColumns).toMap();
  const QString abs = QFileInfo(file).absoluteFilePath();
  if (column.isEmpty())
    columns.remove(abs);
  else
    columns.insert(abs, column);
  store_->setValue(kLengthColumns, columns);
}

QString Settings::lastDirectory() const {
  // A first run opens its file dialogs on the bundled samples, so a new user has something to open.
  const QString samples = samplesDirectory();
  return store_->value(kLastDir, samples.isEmpty() ? QDir::homePath() : samples).toString();
}

void Settings::setLastDirectory(const QString& dir) {
  store_->setValue(kLastDir, dir);
}

QString Settings::saveDirectory() const {
  const auto writable = [](const QString& dir) {
    const QFileInfo fi(dir);
    return !dir.isEmpty() && fi.isDir() && fi.isWritable();
  };
  const QString last = store_->value(kSaveDir).toString();
  if (writable(last)) return last;
  const QString pictures = QStandardPaths::writableLocation(QStandardPaths::PicturesLocation);
  if (writable(pictures)) return pictures;
  return QDir::homePath();
}

void Settings::setSaveDirectory(const QString& dir) {
  store_->setValue(kSaveDir, dir);
}

double Settings::exportScale() const {
  const double s = store_->value(kExportScale, 2.0).toDouble();
  return s >= 0.25 && s <= 8.0 ? s : 2.0;
}

void Settings::setExportScale(double scale) {
  if (scale == exportScale()) return;
  store_->setValue(kExportScale, scale);
  emit exportScaleChanged(scale);
}

QByteArray Settings::windowGeometry() const {
  return store_->value(kGeometry).toByteArray();
}
QByteArray Settings::windowState() const {
  return store_->value(kState).toByteArray();
}
void Settings::setWindowGeometry(const QByteArray& g) {
  store_->setValue(kGeometry, g);
}
void Settings::setWindowState(const QByteArray& s) {
  store_->setValue(kState, s);
}

}  // namespace slimpack::ui

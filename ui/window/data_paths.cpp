#include "window/data_paths.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

// The install locations relative to the executable's folder, and the source tree, come from CMake
// (cmake/Install.cmake computes them with GNUInstallDirs); defaults keep a plain build working.
#ifndef SLIMPACK_REL_DATA_DIR
#define SLIMPACK_REL_DATA_DIR "../share/slimpack-explorer"
#endif
#ifndef SLIMPACK_REL_DOC_DIR
#define SLIMPACK_REL_DOC_DIR "../share/doc/slimpack-explorer"
#endif

namespace slimpack::ui {
namespace {

QString firstExisting(const QStringList& candidates) {
  for (const QString& dir : candidates) {
    if (!dir.isEmpty() && QFileInfo(dir).isDir()) return QDir::cleanPath(QDir(dir).absolutePath());
  }
  return {};
}

QString besideExecutable(const char* relative) {
  // applicationDirPath() needs an application object; without one only the other places count.
  if (QCoreApplication::instance() == nullptr) return {};
  return QCoreApplication::applicationDirPath() + "/" + QString::fromUtf8(relative);
}

QString fromEnvironment(const char* sub) {
  const QString root = qEnvironmentVariable("SLIMPACK_DATA_DIR");
  return root.isEmpty() ? QString() : root + "/" + QString::fromUtf8(sub);
}

QString inSourceTree(const char* sub) {
#ifdef SLIMPACK_SOURCE_TREE
  return QStringLiteral(SLIMPACK_SOURCE_TREE "/") + QString::fromUtf8(sub);
#else
  (void)sub;
  return {};
#endif
}

}  // namespace

QString samplesDirectory() {
  return firstExisting({fromEnvironment("samples"),
                        besideExecutable(SLIMPACK_REL_DATA_DIR "/samples"),
                        inSourceTree("samples")});
}

QString docsDirectory() {
  return firstExisting(
      {fromEnvironment("docs"), besideExecutable(SLIMPACK_REL_DOC_DIR), inSourceTree("docs")});
}

}  // namespace slimpack::ui

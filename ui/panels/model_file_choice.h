#pragma once
// The model list's way to a Hugging Face config.json: the last entry, "From a config.json…", asks
// for a file (fileRequested) and puts the list back on the model in use; a configuration whose
// model is a config.json shows it as an entry of its own ("llama-tiny (config.json)", the path as
// tooltip). The list itself is the option table's model field (panels/option_widgets.h); this
// adds the file to it and says which file, if any, the list has chosen.
#include <QObject>
#include <QString>

QT_BEGIN_NAMESPACE
class QComboBox;
QT_END_NAMESPACE

namespace slimpack::ui {

class ModelFileChoice : public QObject {
  Q_OBJECT
 public:
  // Adds the "From a config.json…" entry to `models` (the presets' list).
  explicit ModelFileChoice(QComboBox* models, QObject* parent = nullptr);

  // Shows the configuration's config.json as the chosen entry; empty = a preset (already chosen
  // by its name), and the file's entry goes.
  void showFile(const QString& path);
  // The config.json the list has chosen; empty when a preset is chosen.
  QString file() const;
  // True while the "From a config.json…" entry is the current one (before the list is put back).
  bool picking() const;
  // The index of the "From a config.json…" entry.
  int pickIndex() const;

 signals:
  void fileRequested();

 private:
  void activated(int index);
  int fileIndex() const;  // the config.json's entry, or -1

  QComboBox* models_;
  int previous_ = 0;  // the entry chosen before "From a config.json…"
};

}  // namespace slimpack::ui

#include "panels/model_file_choice.h"

#include <QComboBox>
#include <QSignalBlocker>

#include "cost/hf_config.h"

namespace slimpack::ui {
namespace {
// What an entry is, beside a preset (whose data is empty).
constexpr int kRole = Qt::UserRole + 1;
const QString kPick = QStringLiteral("pick");
const QString kFile = QStringLiteral("file");
}  // namespace

ModelFileChoice::ModelFileChoice(QComboBox* models, QObject* parent)
    : QObject(parent), models_(models) {
  models_->insertSeparator(models_->count());
  models_->addItem(tr("From a config.json…"));
  models_->setItemData(models_->count() - 1, kPick, kRole);
  models_->setItemData(models_->count() - 1,
                       tr("A Hugging Face config.json of the Llama, Mistral or Qwen2 family as the "
                          "model (the CLI's --hf-config)"),
                       Qt::ToolTipRole);
  previous_ = models_->currentIndex();
  connect(models_, &QComboBox::activated, this, &ModelFileChoice::activated);
}

int ModelFileChoice::pickIndex() const {
  return models_->findData(kPick, kRole);
}

int ModelFileChoice::fileIndex() const {
  return models_->findData(kFile, kRole);
}

bool ModelFileChoice::picking() const {
  return models_->currentIndex() == pickIndex();
}

QString ModelFileChoice::file() const {
  const int at = models_->currentIndex();
  return at >= 0 && at == fileIndex() ? models_->itemData(at, Qt::UserRole).toString() : QString();
}

void ModelFileChoice::showFile(const QString& path) {
  const QSignalBlocker block(models_);
  int at = fileIndex();
  if (path.isEmpty()) {
    if (at >= 0) models_->removeItem(at);
    previous_ = models_->currentIndex();
    return;
  }
  if (at < 0) {
    at = models_->findData(kPick, kRole) - 1;  // before the separator
    models_->insertItem(at, QString());
    models_->setItemData(at, kFile, kRole);
  }
  const QString name = QString::fromStdString(hf_config_model_name(path.toStdString()));
  models_->setItemText(at, tr("%1 (config.json)").arg(name));
  models_->setItemData(at, path, Qt::UserRole);
  models_->setItemData(at, path, Qt::ToolTipRole);
  models_->setCurrentIndex(at);
  previous_ = at;
}

void ModelFileChoice::activated(int index) {
  if (index != pickIndex()) {
    previous_ = index;
    return;
  }
  // The list stays on the model in use until a file is read: a cancelled dialog or a bad file
  // changes nothing.
  {
    const QSignalBlocker block(models_);
    models_->setCurrentIndex(previous_);
  }
  emit fileRequested();
}

}  // namespace slimpack::ui

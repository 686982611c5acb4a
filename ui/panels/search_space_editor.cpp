#include "panels/search_space_editor.h"

#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

#include "app/config_options.h"
#include "app/search_space_text.h"

namespace slimpack::ui {
namespace {

constexpr std::pair<std::string_view, const char*> kLabels[] = {{"pp", "p"},
                                                                {"tp", "t"},
                                                                {"cp", "c"},
                                                                {"dp", "d"},
                                                                {"slice", "S"},
                                                                {"recompute", "recompute"},
                                                                {"schedule", "schedule"},
                                                                {"strategy", "strategies"}};

// Errors name the tab's fields: "Search space, p: ..." and "Search space, GPUs per node: ...".
// By the option's flag, which kSearchListOptions uses ("slice"; its session key is "slice_size").
std::string field_name(const ConfigOption& o) {
  return "Search space, " + SearchSpaceEditor::label(o.flag).toStdString();
}
std::string own_name(std::string_view field) {
  if (field == "min gpus") return "Search space, at least N GPUs";
  if (field == "gpus per node") return "Search space, GPUs per node";
  return "Search, " + std::string(field);
}

}  // namespace

QString SearchSpaceEditor::label(std::string_view option) {
  for (const auto& [key, text] : kLabels)
    if (key == option) return QString::fromUtf8(text);
  return QString::fromUtf8(option.data(), static_cast<qsizetype>(option.size()));
}

SearchSpaceEditor::SearchSpaceEditor(QWidget* parent)
    : QWidget(parent), min_gpus_(new QSpinBox), gpus_per_node_(new QSpinBox) {
  auto* grid = new QGridLayout(this);
  grid->setContentsMargins(0, 0, 0, 0);
  int column = 0;
  for (std::string_view key : kSearchListOptions) {
    auto* edit = new QLineEdit;
    edit->setObjectName(QStringLiteral("space_") + QString::fromUtf8(key.data(), key.size()));
    // The placeholder shows the automatic list where it is a few values, "auto" where it is a
    // rule (the tooltip says which).
    const QString automatic = QString::fromStdString(space_list_default(key));
    const bool rule = key == "pp" || key == "tp" || key == "dp" || key == "slice";
    edit->setPlaceholderText(rule ? tr("auto") : automatic);
    edit->setToolTip(tr("Values of %1 to try, comma-separated (as slimpack search --%2); "
                        "blank: %3")
                         .arg(label(key), QString::fromUtf8(key.data(), key.size()), automatic));
    edit->setClearButtonEnabled(true);
    connect(edit, &QLineEdit::returnPressed, this, &SearchSpaceEditor::submitted);
    auto* name = new QLabel(label(key));
    name->setBuddy(edit);
    grid->addWidget(name, column < 4 ? 0 : 1, (column % 4) * 2);
    grid->addWidget(edit, column < 4 ? 0 : 1, (column % 4) * 2 + 1);
    fields_.push_back(edit);
    ++column;
  }
  min_gpus_->setRange(1, 1 << 16);
  min_gpus_->setToolTip(tr("Only configurations with at least this many GPUs"));
  gpus_per_node_->setRange(0, 1024);
  gpus_per_node_->setSpecialValueText(tr("GPU preset's"));
  gpus_per_node_->setToolTip(tr("GPUs of a node: t stays within one"));
  grid->addWidget(new QLabel(tr("at least N GPUs")), 0, 8);
  grid->addWidget(min_gpus_, 0, 9);
  grid->addWidget(new QLabel(tr("GPUs per node")), 1, 8);
  grid->addWidget(gpus_per_node_, 1, 9);
  // The second pair of columns holds t and the longest list (recompute modes).
  for (int c = 1; c < 8; c += 2) grid->setColumnStretch(c, c == 3 ? 2 : 1);
}

SearchSpace SearchSpaceEditor::read(int gpus, std::optional<Error>* first_error) const {
  SearchSpace s;
  s.gpus = gpus;
  s.min_gpus = min_gpus_->value();
  s.gpus_per_node = gpus_per_node_->value();
  for (std::size_t i = 0; i < fields_.size(); ++i) {
    const std::string_view key = kSearchListOptions[i];
    // A field that does not read leaves its list automatic (set_space_list changes nothing then).
    Status st =
        set_space_list(s, key, fields_[i]->text().toStdString(), field_name(*find_option(key)));
    if (!st && first_error && !*first_error) *first_error = st.error();
  }
  return s;
}

Expected<SearchSpace> SearchSpaceEditor::space(int gpus) const {
  std::optional<Error> error;
  SearchSpace s = read(gpus, &error);
  if (error) return *error;
  return s;
}

SearchSpace SearchSpaceEditor::readableSpace(int gpus) const {
  return read(gpus, nullptr);
}

void SearchSpaceEditor::setSpace(const SearchSpace& space) {
  for (std::size_t i = 0; i < fields_.size(); ++i)
    fields_[i]->setText(QString::fromStdString(space_list_text(space, kSearchListOptions[i])));
  min_gpus_->setValue(space.min_gpus);
  gpus_per_node_->setValue(space.gpus_per_node);
}

QLineEdit* SearchSpaceEditor::field(std::string_view option) const {
  for (std::size_t i = 0; i < fields_.size(); ++i)
    if (kSearchListOptions[i] == option) return fields_[i];
  return nullptr;
}

Error searchSpaceError(const Error& error) {
  return name_search_error(error, field_name, own_name);
}

}  // namespace slimpack::ui

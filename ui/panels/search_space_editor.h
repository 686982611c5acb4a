#pragma once
// The Search tab's space beyond the GPU budget: at least N GPUs, GPUs per node, and one field per
// searched list (p, t, c, d, S, recompute, schedule, strategy) taking what `slimpack search
// --pp 2,4,8` takes; a blank field is the automatic list, shown as its placeholder. The fields are
// read by core/app's set_space_list, so a bad value gets the CLI's reason, named by its field.
#include <QWidget>
#include <optional>
#include <string_view>
#include <vector>

#include "app/search_space.h"
#include "common/status.h"

QT_BEGIN_NAMESPACE
class QLineEdit;
class QSpinBox;
QT_END_NAMESPACE

namespace slimpack::ui {

class SearchSpaceEditor : public QWidget {
  Q_OBJECT
 public:
  explicit SearchSpaceEditor(QWidget* parent = nullptr);

  // The space within `gpus` GPUs; a bad field gives "Search space, p: <reason>".
  Expected<SearchSpace> space(int gpus) const;
  // The space with each field that reads; a field that does not is automatic (what a session saves
  // while a field is being edited).
  SearchSpace readableSpace(int gpus) const;
  // Shows a space's lists (blank where automatic) and its GPU bounds.
  void setSpace(const SearchSpace& space);
  // The field of a searched option ("pp", ..., "strategy"); nullptr for another key.
  QLineEdit* field(std::string_view option) const;

  // "p", "t", ... as the tab labels the fields; the option's key for another option.
  static QString label(std::string_view option);

 signals:
  // Return pressed in a field: run the search.
  void submitted();

 private:
  // The space from the fields; the first field that does not read goes to `first_error` (when
  // given) and its list stays automatic.
  SearchSpace read(int gpus, std::optional<Error>* first_error) const;

  std::vector<QLineEdit*> fields_;  // in kSearchListOptions order
  QSpinBox* min_gpus_;
  QSpinBox* gpus_per_node_;
};

// An error of resolve_space or enumerate_space named by the tab's fields, as space() names its own.
Error searchSpaceError(const Error& error);

}  // namespace slimpack::ui

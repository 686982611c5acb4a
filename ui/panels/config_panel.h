#pragma once
// Configuration panel: model, GPU, p/d/t, strategy, slice size (slider + spin box, live), packs,
// schedule (with virtual chunks for interleaved), the long-context settings (context window,
// activation recompute, context parallelism, stage layer split), memory cap and the cost source
// (built-in coefficients, a fitted cost profile, a cost overrides file). Edits a ConfigSpec; the
// controller debounces and re-solves. Cost files are chosen through costFileRequested, and a
// Hugging Face config.json as the model through the model list's last entry (ModelFileChoice,
// modelFileRequested): the window asks for the file and the controller checks it before the
// configuration changes.
// The ordinary rows are built from the option table (core/app/config_options.h) by
// panels/option_widgets.h: widget, range or choices and tooltip follow the option, and the value
// is read and written through the option. Slice size, costs and the plan note are hand-made.
#include <QWidget>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "jobs/explorer_inputs.h"

QT_BEGIN_NAMESPACE
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QSlider;
class QSpinBox;
QT_END_NAMESPACE

namespace slimpack {
struct ConfigOption;
}

namespace slimpack::ui {

class ModelFileChoice;

class ConfigPanel : public QWidget {
  Q_OBJECT
 public:
  // The slider moves in powers of two from kMinSlice up to the longest sequence of the batch (its
  // left end is the automatic S); the spin box takes any value up to kMaxSlice.
  static constexpr int kMinSlice = 512;
  static constexpr int kMaxSlice = 256 * 1024;
  // Slider position of S (0 = auto; 1 = kMinSlice, 2 = 2 * kMinSlice, ...; the nearest power of
  // two at or below S) and back.
  static int sliderIndexOf(Tokens slice);
  static Tokens sliceOfIndex(int index);

  explicit ConfigPanel(QWidget* parent = nullptr);

  void setSpec(const ConfigSpec& spec);  // without emitting configEdited
  ConfigSpec spec() const { return spec_; }
  QSlider* sliceSlider() const { return slice_slider_; }
  QSpinBox* sliceSpin() const { return slice_spin_; }
  QSpinBox* ppBox() const { return spinBox("pp"); }
  QSpinBox* tpBox() const { return spinBox("tp"); }
  QLabel* noteLabel() const { return note_; }
  QLabel* autoSliceLabel() const { return auto_slice_; }
  // The slider reaches up to this S (the batch's longest sequence, rounded up to a power of two).
  void setLongestSequence(Tokens longest);
  // What the strategy chose when S is auto, and why (shown under the slider).
  void setResolvedSlice(Tokens slice, const QString& why);
  // An opened plan fixes p, d, the schedule and the packs; those controls are disabled and a
  // note says which controls still re-simulate the plan. Empty = solving the workload.
  void setPlanFile(const QString& plan_file);
  QSpinBox* vchunksBox() const { return spinBox("vchunks"); }
  QSpinBox* contextBox() const { return spinBox("context"); }
  QComboBox* recomputeBox() const;
  QSpinBox* cpBox() const { return spinBox("cp"); }
  QLineEdit* stageLayersEdit() const;
  QString costText() const;  // what the cost row shows
  // A failed solve about one option (Error::field in the CLI's spelling, "--stage-layers") marks
  // that option's field red with the reason as its tooltip, so the user sees where to look; the
  // previous mark goes. An empty or unknown field only clears the mark.
  void showOptionError(const std::string& field, const QString& reason);
  // The field showOptionError marked, or null.
  QWidget* markedField() const { return marked_; }
  // The field of an option of the table (core/app/config_options.h), by its CLI flag ("pp"; "slice"
  // is the slice size's spin box); null for an option the panel does not show.
  QWidget* fieldOf(std::string_view flag) const;

  enum class CostFile { Profile, Overrides };

 signals:
  void configEdited(const slimpack::ui::ConfigSpec& spec);
  void costFileRequested(slimpack::ui::ConfigPanel::CostFile which);
  // The model list's "From a config.json…": the window asks for the file and the controller reads
  // it before the configuration names it (the list stays on the model in use meanwhile).
  void modelFileRequested();

 private:
  // A row of the form from the option table: its label and its options' flags, side by side.
  struct OptionRow {
    QString label;
    std::vector<std::string_view> flags;
  };
  void addOptionRows(QFormLayout* form, const std::vector<OptionRow>& rows);
  void addPlanNote(QFormLayout* form);
  void addSliceRows(QFormLayout* form);
  void addCostRow(QFormLayout* form);
  void edited();
  void showCosts();
  // Every table-built field is read through its option. A typed field (recompute, stage layers)
  // is parsed as the CLI parses it; one that does not parse is marked red with the reason and
  // keeps its value in `s`.
  void readFields(ConfigSpec& s);
  QSpinBox* spinBox(std::string_view flag) const;

  ConfigSpec spec_;
  std::vector<std::pair<const ConfigOption*, QWidget*>> fields_;  // the table-built fields
  QSlider* slice_slider_;
  QSpinBox* slice_spin_;
  QLabel* costs_;
  QLabel* note_;
  QLabel* auto_slice_;
  QString plan_file_;
  ModelFileChoice* model_file_;  // the model list's config.json entries
  QWidget* marked_ = nullptr;    // the field showOptionError marked
  QString marked_tip_;           // its tooltip before
};

}  // namespace slimpack::ui

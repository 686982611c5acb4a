#pragma once
// Configuration panel: model, GPU, p/d/t, strategy, slice size (slider + spin box, live), packs,
// schedule (with virtual chunks for interleaved), memory cap and the cost source (built-in
// coefficients, a fitted cost profile, a cost overrides file). Edits a ConfigSpec; the controller
// debounces and re-solves. Cost files are chosen through costFileRequested: the window asks for
// the file and the controller checks it before the configuration changes.
#include <QWidget>

#include "jobs/explorer_inputs.h"

QT_BEGIN_NAMESPACE
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSlider;
class QSpinBox;
QT_END_NAMESPACE

namespace slimpack::ui {

class ConfigPanel : public QWidget {
  Q_OBJECT
 public:
  // The slider moves in steps of this many tokens (0 = automatic S).
  static constexpr int kSliceStep = 256;
  static constexpr int kMaxSlice = 256 * 1024;

  explicit ConfigPanel(QWidget* parent = nullptr);

  void setSpec(const ConfigSpec& spec);  // without emitting configEdited
  ConfigSpec spec() const { return spec_; }
  QSlider* sliceSlider() const { return slice_slider_; }
  QSpinBox* vchunksBox() const { return vchunks_; }
  QString costText() const;  // what the cost row shows

  enum class CostFile { Profile, Overrides };

 signals:
  void configEdited(const slimpack::ui::ConfigSpec& spec);
  void costFileRequested(slimpack::ui::ConfigPanel::CostFile which);

 private:
  void edited();
  void showCosts();

  ConfigSpec spec_;
  QComboBox* model_;
  QComboBox* gpu_;
  QSpinBox* pp_;
  QSpinBox* dp_;
  QSpinBox* tp_;
  QComboBox* strategy_;
  QSlider* slice_slider_;
  QSpinBox* slice_spin_;
  QSpinBox* packs_;
  QComboBox* schedule_;
  QSpinBox* vchunks_;
  QDoubleSpinBox* memory_cap_;
  QLabel* costs_;
};

}  // namespace slimpack::ui

#pragma once
// Configuration panel: model, GPU, p/d/t, strategy, slice size (slider + spin box, live), packs,
// schedule and memory cap. Edits a ConfigSpec; the controller debounces and re-solves.
#include <QWidget>

#include "jobs/explorer_inputs.h"

QT_BEGIN_NAMESPACE
class QComboBox;
class QDoubleSpinBox;
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

 signals:
  void configEdited(const slimpack::ui::ConfigSpec& spec);

 private:
  void edited();

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
  QDoubleSpinBox* memory_cap_;
};

}  // namespace slimpack::ui

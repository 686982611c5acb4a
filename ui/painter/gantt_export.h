#pragma once
// Export of the Gantt (one plan) or a comparison (two or more plans on a shared time axis) to PNG,
// SVG and PDF with title, legend and key metrics. Used by the CLI (--png/--svg) and the GUI.
//
// A QGuiApplication must exist (the CLI calls ensure_gui_app() from painter/gui_app.h first, which
// picks the offscreen platform on headless machines); without one these return an Internal error.
// The picture is drawn into memory, then written by the output-file rule (common/output_file.h): a
// regular file is replaced atomically (a failed export leaves no partial file), a pipe or device is
// written in place, "-" is stdout.
#include <QImage>
#include <QSize>
#include <QString>
#include <QStringList>
#include <optional>
#include <string>
#include <vector>

#include "common/status.h"
#include "painter/gantt_palette.h"
#include "plan/plan.h"
#include "render/gantt_model.h"
#include "render/time_scale.h"
#include "sim/sim_result.h"

namespace slimpack {

// The file format: from the file name's extension, or named (for `--png -`, `--svg /dev/fd/63`, a
// FIFO: names without an extension).
enum class GanttImageFormat { FromExtension, Png, Svg, Pdf };

struct GanttExportOptions {
  int width = 1600;  // logical pixels (SVG/PDF: 96 per inch)
  int height = 0;    // 0 = as tall as the lanes need, and at least width / max_aspect
  // With height 0, lanes grow until the picture is no wider than this (16:9, a slide's shape);
  // a plan with many stages is taller. 0 = lanes keep lane_height.
  double max_aspect = 16.0 / 9.0;
  double scale = 1.0;  // PNG device pixel ratio, e.g. 2 for slides; SVG/PDF are vector
  GanttTheme theme = GanttTheme::Light;
  // Empty = "<strategy> · <schedule> · p=<stages> d=<replicas>"; the GUI and the CLI pass
  // gantt_title() of render/gantt_title.h (workload, p, t, d, S, strategy, iteration time).
  QString title;
  bool legend = true;
  bool metrics = true;
  bool memory_strip = false;
  bool bubble_tint = true;
  SeqIndex highlight =
      -1;  // sequence whose slices are highlighted, -1 = none (and no legend entry)
  std::optional<TimeRange> range;  // default: the whole iteration (of the longest plan)
  int lane_height = 26;
  double font_point_size = 9.0;
  double memory_cap_bytes = 0;
  GanttImageFormat format = GanttImageFormat::FromExtension;
};

// One plan of a comparison. Pointers must stay valid during the call.
struct GanttCompareEntry {
  std::string label;  // e.g. "fixed", "slimpack"
  const Plan* plan = nullptr;
  const SimResult* result = nullptr;
};

// A comparison item over an already built model (what the GUI holds).
struct GanttCompareModel {
  QString label;
  const GanttModel* model = nullptr;
};

Status export_gantt_png(const Plan& plan, const SimResult& result, const std::string& path,
                        const GanttExportOptions& options = {});
Status export_gantt_svg(const Plan& plan, const SimResult& result, const std::string& path,
                        const GanttExportOptions& options = {});
Status export_gantt_pdf(const Plan& plan, const SimResult& result, const std::string& path,
                        const GanttExportOptions& options = {});
// Picks the format from options.format, else the extension (.png, .svg, .pdf); other extensions
// are BadInput.
Status export_gantt(const Plan& plan, const SimResult& result, const std::string& path,
                    const GanttExportOptions& options = {});

// Comparison: one section per entry (label and its metrics, lanes, axis) on one time axis.
Status export_gantt_compare(const std::vector<GanttCompareEntry>& entries, const std::string& path,
                            const GanttExportOptions& options = {});

// Model-based forms for the GUI (no rebuild of the models); format from the extension.
Status export_gantt_models(const std::vector<GanttCompareModel>& items, const std::string& path,
                           const GanttExportOptions& options = {});
// The picture as an image (clipboard, previews). One item = a single Gantt, more = a comparison.
QImage render_gantt_image(const std::vector<GanttCompareModel>& items,
                          const GanttExportOptions& options = {});
// The size in logical pixels the picture of `items` gets, and its legend's entries (for tests and
// the export dialog).
QSize gantt_image_size(const std::vector<GanttCompareModel>& items,
                       const GanttExportOptions& options = {});
QStringList gantt_image_legend(const std::vector<GanttCompareModel>& items,
                               const GanttExportOptions& options = {});

}  // namespace slimpack

#include "image_export.h"

#ifdef SLIMPACK_HAVE_PAINTER
#include "painter/gantt_export.h"
#include "painter/gui_app.h"
#endif

namespace slimpack::cli {

std::vector<OptionSpec> image_options() {
  return {{"png", "FILE", "draw the Gantt as PNG ('-' = stdout)"},
          {"svg", "FILE", "draw the Gantt as SVG ('-' = stdout)"},
          {"pdf", "FILE", "draw the Gantt as PDF ('-' = stdout)"},
          {"image-width", "PX", "picture width in pixels (default 1600)"},
          {"image-scale", "F", "PNG pixel ratio, e.g. 2 for slides (default 1)"},
          {"theme", "NAME", "light (default), dark or high-contrast"},
          {"memory-strip", "", "draw memory over time under each stage"}};
}

Status export_images(const Args& args, const std::string& title,
                     const std::vector<GanttEntry>& entries) {
  const bool wanted = args.has("png") || args.has("svg") || args.has("pdf");
  if (!wanted) return Status::success();
#ifndef SLIMPACK_HAVE_PAINTER
  (void)title;
  (void)entries;
  return Error::bad_input(
      "--png/--svg/--pdf need a build with Qt 6 (QtGui); this slimpack has none");
#else
  GanttExportOptions opt;
  auto width = args.get_int("image-width", 1600);
  if (!width) return width.error();
  if (*width < 200 || *width > 20000)
    return Error::bad_input("--image-width: must be between 200 and 20000 pixels");
  opt.width = static_cast<int>(*width);
  auto scale = args.get_double("image-scale", 1.0);
  if (!scale) return scale.error();
  if (*scale <= 0 || *scale > 8) return Error::bad_input("--image-scale: must be in (0, 8]");
  opt.scale = *scale;
  const std::string theme = args.get_or("theme", "light");
  if (theme == "light")
    opt.theme = GanttTheme::Light;
  else if (theme == "dark")
    opt.theme = GanttTheme::Dark;
  else if (theme == "high-contrast")
    opt.theme = GanttTheme::HighContrast;
  else
    return Error::bad_input("--theme: unknown theme '" + theme + "' (light, dark, high-contrast)");
  opt.memory_strip = args.has("memory-strip");
  opt.title = QString::fromStdString(title);

  auto app = ensure_gui_app();
  const std::pair<const char*, GanttImageFormat> formats[] = {{"png", GanttImageFormat::Png},
                                                              {"svg", GanttImageFormat::Svg},
                                                              {"pdf", GanttImageFormat::Pdf}};
  for (const auto& [key, format] : formats) {
    auto path = args.get(key);
    if (!path) continue;
    // The option names the format, so a pipe, a device or "-" needs no extension.
    opt.format = format;
    Status st;
    if (entries.size() == 1) {
      st = export_gantt(*entries[0].plan, *entries[0].result, *path, opt);
    } else {
      std::vector<GanttCompareEntry> items;
      for (const auto& e : entries) items.push_back({e.label, e.plan, e.result});
      st = export_gantt_compare(items, *path, opt);
    }
    if (!st) return st;
  }
  return Status::success();
#endif
}

}  // namespace slimpack::cli

#include "image_export.h"

#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

#ifdef SLIMPACK_HAVE_PAINTER
#include "painter/gantt_export.h"
#include "painter/gui_app.h"
#endif

namespace slimpack::cli {
namespace {

[[maybe_unused]] bool asks_for_picture(int argc, char** argv) {
  for (int i = 2; i < argc; ++i) {
    const std::string_view a = argv[i];
    for (std::string_view opt : {"--png", "--svg", "--pdf"})
      if (a == opt ||
          (a.size() > opt.size() && a.substr(0, opt.size()) == opt && a[opt.size()] == '='))
        return true;
  }
  return false;
}

[[maybe_unused]] std::string executable_dir() {
  char buf[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return {};
  const std::string exe(buf, static_cast<std::size_t>(n));
  const auto slash = exe.rfind('/');
  return slash == std::string::npos ? std::string() : exe.substr(0, slash);
}

}  // namespace

int run_pictures_program_if_asked(int argc, char** argv) {
#if defined(SLIMPACK_HAVE_PAINTER) || !defined(SLIMPACK_PICTURES_PROGRAM_REL)
  (void)argc;
  (void)argv;
  return 0;  // this program draws pictures itself, or there is no program that can
#else
  if (!asks_for_picture(argc, argv)) return 0;
  std::vector<std::string> tried;
  if (const char* env = std::getenv("SLIMPACK_PICTURES_PROGRAM"); env != nullptr && *env != '\0') {
    tried.emplace_back(env);
  } else if (const std::string dir = executable_dir(); !dir.empty()) {
    tried.push_back(dir + "/slimpack-pictures");                 // a build tree
    tried.push_back(dir + "/" + SLIMPACK_PICTURES_PROGRAM_REL);  // installed
  }
  std::string why;
  for (const std::string& path : tried) {
    if (::access(path.c_str(), X_OK) != 0) {
      why += (why.empty() ? "" : "; ") + path + ": " + std::strerror(errno);
      continue;
    }
    ::execv(path.c_str(), argv);  // returns only on failure
    why += (why.empty() ? "" : "; ") + path + ": " + std::strerror(errno);
  }
  std::fprintf(stderr, "slimpack: --png/--svg/--pdf: cannot run the pictures program (%s)\n",
               why.empty() ? "no place to look for it" : why.c_str());
  return 2;
#endif
}

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

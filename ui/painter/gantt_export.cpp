#include "painter/gantt_export.h"

#include <QBuffer>
#include <QByteArray>
#include <QFileInfo>
#include <QFontMetrics>
#include <QPainter>
#include <QPdfWriter>
#include <QSvgGenerator>
#include <algorithm>
#include <cmath>
#include <memory>

#include "common/output_file.h"
#include "painter/gantt_chrome.h"
#include "painter/gantt_painter.h"
#include "painter/gui_app.h"
#include "render/time_axis.h"

namespace slimpack {
namespace {

constexpr int kMargin = 8;

QString default_title(const GanttModel& m) {
  const QString strategy = m.strategy().empty() ? QStringLiteral("Pipeline schedule")
                                                : QString::fromStdString(m.strategy());
  return QStringLiteral("%1 · %2 · p=%3 · d=%4")
      .arg(strategy, QString::fromLatin1(schedule_name(m.schedule())))
      .arg(m.stages())
      .arg(m.replicas());
}

// Everything needed to paint the picture, computed once for sizing and painting.
struct Scene {
  std::vector<GanttCompareModel> items;
  GanttExportOptions opt;
  QFont font;
  TimeRange range;
  int label_w = 0;
  int lane_h = 0;  // lane height with a free height (0 = share opt.height)
  bool single = true;
  int header_h = 0;
  std::vector<int> section_h;  // compare: height of each section including its label line
  QSize size;
};

GanttPaintOptions section_options(const Scene& s) {
  GanttPaintOptions o;
  o.theme = s.opt.theme;
  o.font = s.font;
  o.bubble_tint = s.opt.bubble_tint;
  o.memory_strip = s.opt.memory_strip;
  o.memory_cap_bytes = s.opt.memory_cap_bytes;
  o.lane_height = s.opt.height > 0 ? 0 : s.lane_h;
  o.max_lane_height = s.opt.height > 0 ? 400 : o.max_lane_height;
  o.label_width = s.label_w;
  if (s.single) {
    o.title = s.opt.title.isEmpty() ? default_title(*s.items.front().model) : s.opt.title;
    o.legend = s.opt.legend;
    o.metrics = s.opt.metrics;
  }
  o.legend_sequence = s.opt.highlight >= 0;
  return o;
}

// Height a layout actually uses when lanes have a fixed height.
int used_height(const GanttLayout& l) {
  int bottom = l.plot.bottom();
  if (!l.axis.isEmpty()) bottom = std::max(bottom, l.axis.bottom());
  if (!l.metrics.isEmpty()) bottom = std::max(bottom, l.metrics.bottom());
  return bottom - l.area.top() + 1 + 4;
}

// Sets s.size (and the sections' heights) for the lane height s.lane_h.
void size_scene(Scene& s, int w) {
  const GanttExportOptions& opt = s.opt;
  const int tall = 1 << 20;
  if (s.single) {
    const GanttPainter gp(*s.items.front().model, section_options(s));
    const int h = opt.height > 0 ? opt.height : used_height(gp.layout(QRect(0, 0, w, tall)));
    s.size = QSize(w, h);
    return;
  }
  const int label_line = QFontMetrics(s.font).height() + 10;
  int total = s.header_h;
  s.section_h.clear();
  for (const auto& it : s.items) {
    const GanttPainter gp(*it.model, section_options(s));
    const int h = label_line + used_height(gp.layout(QRect(0, 0, w, tall)));
    s.section_h.push_back(h);
    total += h;
  }
  if (opt.height > 0) {  // share a fixed height equally
    const int each = std::max(40, (opt.height - s.header_h) / static_cast<int>(s.items.size()));
    std::fill(s.section_h.begin(), s.section_h.end(), each);
    total = opt.height;
  }
  s.size = QSize(w, total + kMargin);
}

Scene make_scene(const std::vector<GanttCompareModel>& items, const GanttExportOptions& opt) {
  Scene s;
  s.items = items;
  s.opt = opt;
  s.single = items.size() == 1;
  s.font = QFont(QStringLiteral("DejaVu Sans"));
  s.font.setPointSizeF(opt.font_point_size);
  const QFontMetrics fm(s.font);
  double end = 0.0;
  for (const auto& it : items) {
    end = std::max(end, it.model->time_extent().t1);
    s.label_w = std::max(s.label_w, natural_label_width(*it.model, fm));
  }
  s.range = opt.range ? *opt.range : TimeRange{0.0, end};
  // The memory strip shares the row with the bars: give rows more room so both stay readable.
  s.lane_h = opt.memory_strip ? opt.lane_height * 3 / 2 : opt.lane_height;
  const int w = std::max(200, opt.width);
  if (!s.single) s.header_h = (fm.height() + 4) * 2 + 8;
  int lanes = 0;
  for (const auto& it : items) lanes += it.model->lane_count();
  size_scene(s, w);
  if (opt.height <= 0 && opt.max_aspect > 0 && lanes > 0) {
    // Presentation shape: lanes share the height a slide-shaped picture leaves; a plan whose
    // lanes already need more keeps its natural height.
    const int target = static_cast<int>(std::ceil(w / opt.max_aspect));
    if (s.size.height() < target) {
      s.lane_h += (target - s.size.height()) / lanes;
      size_scene(s, w);
    }
  }
  return s;
}

QString section_summary(const GanttModel& m, const GanttModel& first) {
  const SimResult& r = m.metrics();
  QString text = QStringLiteral("iteration %1 · bubble %2")
                     .arg(QString::fromStdString(format_time(r.iteration_time, m.time_unit())),
                          QString::fromStdString(format_percent(r.bubble_ratio)));
  if (&m != &first && r.iteration_time > 0)
    text += QStringLiteral(" · speed-up %1 vs first")
                .arg(QString::fromStdString(
                    format_ratio(first.metrics().iteration_time / r.iteration_time)));
  if (r.peak_memory_bytes > 0)
    text += QStringLiteral(" · peak memory %1")
                .arg(QString::fromStdString(format_bytes(r.peak_memory_bytes)));
  return text;
}

// What the picture's legend lists: the union over its sections.
LegendContent scene_legend(const Scene& s) {
  LegendContent all;
  all.forward = all.backward = all.bubble = all.folded = all.sequence = false;
  for (std::size_t i = 0; i < s.items.size(); ++i) {
    const GanttPainter gp(*s.items[i].model, section_options(s));
    const int h = s.single ? s.size.height() : s.section_h[i];
    const GanttLayout l = gp.layout(QRect(0, 0, s.size.width(), h));
    const LegendContent c = gp.legend_content(l, gp.geometry(l, s.range));
    all.forward = all.forward || c.forward;
    all.backward = all.backward || c.backward;
    all.bubble = all.bubble || c.bubble;
    all.folded = all.folded || c.folded;
    all.sequence = all.sequence || c.sequence;
    all.sync = all.sync || c.sync;
    all.memory = all.memory || c.memory;
    // Sections of a comparison with different tops: no one scale to name.
    if (i == 0)
      all.memory_scale = c.memory_scale;
    else if (all.memory_scale != c.memory_scale)
      all.memory_scale.clear();
  }
  return all;
}

void paint_scene(QPainter& p, const Scene& s) {
  p.setRenderHint(QPainter::Antialiasing, false);
  p.setFont(s.font);
  const GanttPalette palette = GanttPalette::make(s.opt.theme);
  const QRect all(QPoint(0, 0), s.size);
  p.fillRect(all, palette.background);
  if (s.single) {
    const GanttPainter gp(*s.items.front().model, section_options(s));
    gp.paint(p, all, s.range, s.opt.highlight);
    return;
  }
  const GanttModel& first = *s.items.front().model;
  QString title = s.opt.title;
  if (title.isEmpty()) {
    QStringList labels;
    for (const auto& it : s.items) labels << it.label;
    title = QStringLiteral("Comparison: %1").arg(labels.join(QStringLiteral(" vs ")));
  }
  paint_header(p, QRect(0, 0, s.size.width(), s.header_h), title, s.opt.legend, scene_legend(s),
               palette);
  const QFontMetrics fm(s.font);
  int y = s.header_h;
  for (std::size_t i = 0; i < s.items.size(); ++i) {
    const GanttModel& m = *s.items[i].model;
    const int label_line = fm.height() + 10;
    QFont bold = s.font;
    bold.setBold(true);
    p.setFont(bold);
    p.setPen(palette.text);
    const QRect line(kMargin, y + 4, s.size.width() - 2 * kMargin, label_line - 6);
    const int lw = QFontMetrics(bold).horizontalAdvance(s.items[i].label) + 12;
    p.drawText(line, Qt::AlignLeft | Qt::AlignVCenter, s.items[i].label);
    p.setFont(s.font);
    p.setPen(palette.text_dim);
    p.drawText(line.adjusted(lw, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
               section_summary(m, first));
    const GanttPainter gp(m, section_options(s));
    gp.paint(p, QRect(0, y + label_line, s.size.width(), s.section_h[i] - label_line), s.range,
             s.opt.highlight);
    y += s.section_h[i];
  }
}

Status no_app_error(const std::string& path) {
  return Error::internal(path + ": image export needs a QGuiApplication (call ensure_gui_app())");
}

QString extension_of(const std::string& path) {
  return QFileInfo(QString::fromStdString(path)).suffix().toLower();
}

GanttImageFormat format_of_name(const std::string& path) {
  const QString ext = extension_of(path);
  if (ext == QLatin1String("png")) return GanttImageFormat::Png;
  if (ext == QLatin1String("svg")) return GanttImageFormat::Svg;
  if (ext == QLatin1String("pdf")) return GanttImageFormat::Pdf;
  return GanttImageFormat::FromExtension;
}

const char* format_label(GanttImageFormat f) {
  switch (f) {
    case GanttImageFormat::Png:
      return "PNG";
    case GanttImageFormat::Svg:
      return "SVG";
    case GanttImageFormat::Pdf:
      return "PDF";
    case GanttImageFormat::FromExtension:
      break;
  }
  return "?";
}

// The format to write: the one asked for, else the one the name's extension gives. A name whose
// image extension says otherwise is refused rather than holding the wrong kind of file.
Expected<GanttImageFormat> format_to_write(const std::string& path, GanttImageFormat wanted) {
  const GanttImageFormat by_name = format_of_name(path);
  if (wanted == GanttImageFormat::FromExtension) {
    if (by_name == GanttImageFormat::FromExtension)
      return Error::bad_input(path + ": unknown image format '" + extension_of(path).toStdString() +
                              "' (use .png, .svg or .pdf)");
    return by_name;
  }
  if (by_name != GanttImageFormat::FromExtension && by_name != wanted)
    return Error::bad_input(path + ": a " + format_label(wanted) + " picture cannot go to a ." +
                            extension_of(path).toStdString() + " file name");
  return wanted;
}

// The picture as pixels: `opt.scale` device pixels per point of s.size.
QImage scene_image(const Scene& s) {
  const double scale = s.opt.scale > 0 ? s.opt.scale : 1.0;
  QImage image(s.size * scale, QImage::Format_RGB32);
  image.setDevicePixelRatio(scale);
  QPainter p(&image);
  paint_scene(p, s);
  return image;
}

// Draws the picture into `bytes` in the given format.
Status encode_scene(const Scene& s, GanttImageFormat format, const std::string& path,
                    QByteArray& bytes) {
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  const QString title = s.opt.title.isEmpty() ? QStringLiteral("SlimPack Gantt") : s.opt.title;
  if (format == GanttImageFormat::Png) {
    if (!scene_image(s).save(&buffer, "PNG"))
      return Error::internal(path + ": PNG encoding failed");
  } else if (format == GanttImageFormat::Svg) {
    QSvgGenerator svg;
    svg.setOutputDevice(&buffer);
    svg.setSize(s.size);
    svg.setViewBox(QRect(QPoint(0, 0), s.size));
    svg.setResolution(96);
    svg.setTitle(title);
    QPainter p;
    if (!p.begin(&svg)) return Error::internal(path + ": cannot start the SVG painter");
    paint_scene(p, s);
    p.end();
  } else {
    QPdfWriter pdf(&buffer);
    pdf.setResolution(96);
    pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
    pdf.setPageSize(QPageSize(QSizeF(s.size.width() * 72.0 / 96.0, s.size.height() * 72.0 / 96.0),
                              QPageSize::Point));
    pdf.setTitle(title);
    QPainter p;
    if (!p.begin(&pdf)) return Error::internal(path + ": cannot start the PDF painter");
    paint_scene(p, s);
    p.end();
  }
  return Status::success();
}

Status write_scene(const Scene& s, const std::string& path) {
  if (!have_gui_app()) return no_app_error(path);
  const auto format = format_to_write(path, s.opt.format);
  if (!format) return format.error();
  QByteArray bytes;
  if (Status st = encode_scene(s, *format, path, bytes); !st) return st;
  return write_output_file(
      path, std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
}

Status export_single(const Plan& plan, const SimResult& result, const std::string& path,
                     const GanttExportOptions& options) {
  const GanttModel model = GanttModel::build(plan, result);
  return export_gantt_models({{QString(), &model}}, path, options);
}

GanttExportOptions with_format(GanttExportOptions options, GanttImageFormat format) {
  options.format = format;
  return options;
}

}  // namespace

Status export_gantt_png(const Plan& plan, const SimResult& result, const std::string& path,
                        const GanttExportOptions& options) {
  return export_single(plan, result, path, with_format(options, GanttImageFormat::Png));
}

Status export_gantt_svg(const Plan& plan, const SimResult& result, const std::string& path,
                        const GanttExportOptions& options) {
  return export_single(plan, result, path, with_format(options, GanttImageFormat::Svg));
}

Status export_gantt_pdf(const Plan& plan, const SimResult& result, const std::string& path,
                        const GanttExportOptions& options) {
  return export_single(plan, result, path, with_format(options, GanttImageFormat::Pdf));
}

Status export_gantt(const Plan& plan, const SimResult& result, const std::string& path,
                    const GanttExportOptions& options) {
  return export_single(plan, result, path, options);
}

Status export_gantt_compare(const std::vector<GanttCompareEntry>& entries, const std::string& path,
                            const GanttExportOptions& options) {
  if (entries.empty()) return Error::bad_input(path + ": nothing to compare");
  std::vector<std::unique_ptr<GanttModel>> models;
  std::vector<GanttCompareModel> items;
  for (const auto& e : entries) {
    if (!e.plan || !e.result)
      return Error::bad_input(path + ": comparison entry '" + e.label + "' has no plan or result");
    models.push_back(std::make_unique<GanttModel>(GanttModel::build(*e.plan, *e.result)));
    items.push_back({QString::fromStdString(e.label), models.back().get()});
  }
  return export_gantt_models(items, path, options);
}

Status export_gantt_models(const std::vector<GanttCompareModel>& items, const std::string& path,
                           const GanttExportOptions& options) {
  if (items.empty()) return Error::bad_input(path + ": nothing to export");
  for (const auto& it : items)
    if (!it.model) return Error::bad_input(path + ": an export item has no model");
  if (!have_gui_app()) return no_app_error(path);
  return write_scene(make_scene(items, options), path);
}

QImage render_gantt_image(const std::vector<GanttCompareModel>& items,
                          const GanttExportOptions& options) {
  if (items.empty() || !have_gui_app()) return {};
  for (const auto& it : items)
    if (!it.model) return {};
  return scene_image(make_scene(items, options));
}

QSize gantt_image_size(const std::vector<GanttCompareModel>& items,
                       const GanttExportOptions& options) {
  if (items.empty() || !have_gui_app()) return {};
  for (const auto& it : items)
    if (!it.model) return {};
  return make_scene(items, options).size;
}

QStringList gantt_image_legend(const std::vector<GanttCompareModel>& items,
                               const GanttExportOptions& options) {
  if (items.empty() || !have_gui_app() || !options.legend) return {};
  for (const auto& it : items)
    if (!it.model) return {};
  return legend_labels(scene_legend(make_scene(items, options)));
}

}  // namespace slimpack

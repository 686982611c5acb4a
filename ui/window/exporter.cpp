#include "window/exporter.h"

#include <QClipboard>
#include <QGuiApplication>

#include "app/ops_csv.h"
#include "common/output_file.h"
#include "cost/cost_model.h"
#include "render/gantt_title.h"
#include "trace/chrome_trace.h"

namespace slimpack::ui {
namespace {

struct ImageSource {
  SnapshotPtr snapshot;
  std::vector<CompareEntry> comparison;
  // The models to draw; pointers into the shared_ptrs above, which the job keeps alive.
  std::vector<GanttCompareModel> items() const {
    std::vector<GanttCompareModel> out;
    if (!comparison.empty()) {
      for (const auto& e : comparison)
        if (e.gantt) out.push_back({QString::fromStdString(e.strategy), e.gantt.get()});
    } else if (snapshot && snapshot->gantt) {
      out.push_back({QString(), snapshot->gantt.get()});
    }
    return out;
  }
};

// The picture's title: workload, p, t, d, S, strategy and iteration time of the snapshot.
QString snapshotTitle(const ExplorerSnapshot& s) {
  if (!s.plan) return {};
  const int tp = s.cost ? s.cost->parallel().tp : s.config.tp;
  return QString::fromStdString(
      gantt_title(gantt_title_facts(*s.plan, s.sim, s.workload_label, tp)));
}

}  // namespace

GanttExportOptions Exporter::optionsFor(bool comparison) const {
  GanttExportOptions options = image_options_;
  options.memory_cap_bytes = snapshot_->memory_cap_bytes;
  if (!comparison && options.title.isEmpty()) options.title = snapshotTitle(*snapshot_);
  return options;
}

Exporter::Exporter(QObject* parent) : QObject(parent), jobs_(this) {}

void Exporter::setSources(SnapshotPtr snapshot, std::vector<CompareEntry> comparison) {
  snapshot_ = std::move(snapshot);
  comparison_ = std::move(comparison);
  emit exportableChanged();
}

void Exporter::setFresh(bool snapshot, bool comparison) {
  if (snapshot == snapshot_fresh_ && comparison == comparison_fresh_) return;
  snapshot_fresh_ = snapshot;
  comparison_fresh_ = comparison;
  emit exportableChanged();
}

void Exporter::setComparisonActive(bool on) {
  if (on == comparison_active_) return;
  comparison_active_ = on;
  emit exportableChanged();
}

bool Exporter::canExport(Kind kind) const {
  if (!snapshot_) return false;
  if (kind == Kind::Image && comparisonActive()) return comparison_fresh_;
  return snapshot_fresh_;
}

void Exporter::exportTo(Kind kind, const QString& path) {
  if (!snapshot_) {
    emit failed(tr("Nothing to export yet"));
    return;
  }
  if (!canExport(kind)) {
    emit failed(
        tr("The result on screen is greyed: it was computed for other settings. Wait for "
           "the current settings' result (or undo the change) to export it."));
    return;
  }
  ImageSource src{snapshot_, kind == Kind::Image && comparisonActive()
                                 ? comparison_
                                 : std::vector<CompareEntry>{}};
  const std::string file = path.toStdString();
  const GanttExportOptions options = optionsFor(!src.comparison.empty());
  jobs_.start(
      tr("Exporting"),
      [src, file, kind, options](const CancelToken& cancel, ProgressSink& progress) -> Status {
        progress.report("exporting " + file, 0.0);
        if (cancel.cancelled()) return Error::cancelled();
        const ExplorerSnapshot& s = *src.snapshot;
        switch (kind) {
          case Kind::Image:
            return export_gantt_models(src.items(), file, options);
          case Kind::ChromeTrace:
            return write_chrome_trace(file, *s.plan, s.sim);
          case Kind::OpsCsv:
            return write_output_file(file, ops_csv(*s.plan, s.sim));
        }
        return Error::internal("unknown export kind");
      },
      [this, path](Status st) {
        if (st)
          emit exported(path);
        else
          emit failed(QString::fromStdString(st.error().message));
      });
}

void Exporter::copyImageToClipboard() {
  if (!canExport(Kind::Image)) return;  // nothing, or a greyed result (the action is disabled)
  ImageSource src{snapshot_, comparisonActive() ? comparison_ : std::vector<CompareEntry>{}};
  const GanttExportOptions options = optionsFor(!src.comparison.empty());
  jobs_.start(
      tr("Rendering"),
      [src, options](const CancelToken&, ProgressSink&) -> Expected<QImage> {
        return render_gantt_image(src.items(), options);
      },
      [this](Expected<QImage> image) {
        if (!image) {
          emit failed(QString::fromStdString(image.error().message));
          return;
        }
        if (image->isNull()) {
          emit failed(tr("Could not render the image"));
          return;
        }
        QGuiApplication::clipboard()->setImage(*image);
        emit exported(tr("clipboard"));
      });
}

}  // namespace slimpack::ui

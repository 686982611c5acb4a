#pragma once
// Compare strategies: two or more plans of the same workload, one Gantt per strategy stacked on a
// shared, synchronized time axis (zoom/pan one, all follow; the label column has one width so the
// time->x mapping is identical), and the delta table (iteration time, speed-up, bubble, memory).
#include <QWidget>
#include <string>
#include <vector>

#include "app/compare.h"
#include "painter/gantt_palette.h"

QT_BEGIN_NAMESPACE
class QCheckBox;
class QLabel;
class QPushButton;
class QSplitter;
class QTableView;
QT_END_NAMESPACE

namespace slimpack {
class GanttView;
}

namespace slimpack::ui {

class CompareModel;
class StateFrame;
struct CompareRow;

class CompareView : public QWidget {
  Q_OBJECT
 public:
  explicit CompareView(QWidget* parent = nullptr);
  ~CompareView() override;

  QStringList selectedStrategies() const;
  void setEntries(const std::vector<CompareEntry>& entries);
  const std::vector<CompareEntry>& entries() const { return entries_; }
  CompareModel* model() const { return model_; }
  const std::vector<GanttView*>& views() const { return views_; }
  void setRunning(bool running);
  // The comparison's frame: greyed with a banner when it was computed for other settings.
  StateFrame* resultFrame() const { return frame_; }
  QLabel* messageLabel() const { return message_; }
  void setMessage(const QString& text);
  void setTheme(GanttTheme theme);
  // The shared time range and highlighted sequence of every Gantt (restoring a saved view).
  void setViewRange(double t0, double t1);
  void setHighlightedSequence(int seq);

 signals:
  void compareRequested(const QStringList& strategies);

 private:
  void rebuildViews(const std::vector<CompareEntry>& entries);
  static QString titleText(const CompareRow& row, const QString& unit);
  static constexpr const char* kTitleName = "compare.title";  // the label above each Gantt
  void syncRange(GanttView* source, double t0, double t1);
  void syncHighlight(GanttView* source, int seq);

  std::vector<QCheckBox*> boxes_;
  QPushButton* run_;
  QLabel* message_;
  QSplitter* stack_;
  StateFrame* frame_ = nullptr;
  QTableView* table_;
  CompareModel* model_;
  std::vector<CompareEntry> entries_;
  std::vector<GanttView*> views_;
  std::vector<std::string> view_strategies_;  // the strategies views_ show, in order
  GanttTheme theme_ = GanttTheme::Light;
  bool syncing_ = false;
};

}  // namespace slimpack::ui

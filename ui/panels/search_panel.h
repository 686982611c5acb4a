#pragma once
// The Search tab: `slimpack search` in the explorer (docs/search.md). The workload and the
// configuration's model, GPU, caps and costs are the explorer's current ones; the tab sets the GPU
// budget, K and the space's lists (SearchSpaceEditor), runs core/app's run_search on the shared
// worker pool (its own JobTracker: progress, cancel, stale results dropped) and shows the front as
// a scatter plot, the ranked table and the infeasible configurations with their reasons. A click on
// a point or a double click on a row loads that configuration into the explorer; the table and
// result export as CSV and JSON.
#include <QWidget>
#include <memory>

#include "app/scenario.h"
#include "app/search.h"
#include "app/session_file.h"

QT_BEGIN_NAMESPACE
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;
QT_END_NAMESPACE

namespace slimpack::ui {

class JobTracker;
class SearchChart;
class SearchModel;
class SearchSpaceEditor;
class StateFrame;

class SearchPanel : public QWidget {
  Q_OBJECT
 public:
  explicit SearchPanel(QWidget* parent = nullptr);
  ~SearchPanel() override;

  // The workload and base configuration the next search uses.
  void setBasis(const WorkloadSpec& workload, const ConfigSpec& config);
  // The request Run would start; a bad space field gives its reason, named by the field.
  Expected<SearchRequest> request() const;
  SearchSpaceEditor* spaceEditor() const { return space_; }
  void setGpus(int gpus);
  void setBatches(int batches);
  void setDark(bool dark);
  // The tab's settings for a session, and restoring them (the result is not saved).
  SearchSessionPart sessionPart() const;
  void restoreSessionPart(const SearchSessionPart& part);
  // Why a space field cannot be saved ("Search space, p: expected an integer, got 'x'"; the
  // session saves it as automatic); empty when every field reads.
  QString unsavedField() const;

  JobTracker& jobs() { return *jobs_; }
  SearchChart* chart() const { return chart_; }
  SearchModel* model() const { return model_; }
  QTableView* table() const { return table_; }
  std::shared_ptr<const SearchResult> result() const { return result_; }
  QString message() const;
  // What the explorer shows of the configuration chosen last, against what the search measured:
  // the search's figures are means over its K batches, the Gantt is one batch (batch 0).
  QString choiceNote() const { return choice_note_; }
  // The plot and table under the staleness rule (panels/freshness.h): greyed, and Export
  // disabled, while the result on screen was computed for another request than Search would run
  // now (another workload or configuration, GPU budget, K or space), during a new search and
  // after it was cancelled.
  StateFrame* resultFrame() const { return frame_; }
  QPushButton* exportButton() const { return export_; }

  // Writes the result by the file's extension: the table as CSV, the result as JSON, the plot as
  // PNG. Errors name the file.
  Status exportTo(const QString& path) const;

 public slots:
  void run();
  void cancel();

 signals:
  void configurationChosen(const slimpack::ConfigSpec& config);
  // Run refused: a space field or the budget is not valid (the window shows a dialog).
  void badInput(const QString& title, const QString& message);
  void finished();

 private:
  // Constructor steps: ranges and initial states, the layout, the connections.
  void configureControls();
  void layOut();
  void connectSignals();
  void setRunning(bool running);
  void setResult(std::shared_ptr<const SearchResult> result, const SearchRequest& request);
  void choose(int row);
  void exportDialog();
  void updateFreshness();

  JobTracker* jobs_;
  SearchChart* chart_;
  SearchModel* model_;
  QTableView* table_;
  QSpinBox* gpus_;
  QSpinBox* batches_;
  SearchSpaceEditor* space_;
  QComboBox* x_axis_;
  QPushButton* run_;
  QPushButton* cancel_;
  QPushButton* export_;
  QProgressBar* progress_;
  QLabel* message_;
  StateFrame* frame_ = nullptr;
  WorkloadSpec workload_;
  ConfigSpec config_;
  SearchRequest last_request_;
  QString choice_note_;
  std::shared_ptr<const SearchResult> result_;
  bool pending_ = false;  // a search was started and has not delivered
  // The newest search was cancelled or failed: the result on screen answers an older one.
  bool undelivered_ = false;
};

}  // namespace slimpack::ui

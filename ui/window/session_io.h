#pragma once
// Session I/O of the window: opening a file (a session, a length file, a plan, a trace or a run's
// folder), saving the session, the session the window shows now and applying a saved one, the
// session's path, and the view a session restores once its first result arrives. It was a part of
// MainWindow; on its own it reads the window through its public parts and changes nothing else.
#include <QObject>
#include <QString>
#include <optional>

#include "app/session_file.h"

namespace slimpack::ui {

class MainWindow;
class SavedViews;

class SessionIO : public QObject {
  Q_OBJECT
 public:
  SessionIO(MainWindow& window, SavedViews& saved_views);

  // A session (.slimpack), length file or plan. Errors go to showError; the session is kept.
  // A length file opens with `column`, else the column remembered for it (a multi-column file
  // without either asks).
  void openFile(const QString& path, const QString& column = {});
  // Adds ".slimpack" when the name has no suffix; returns false (after showError) on failure.
  bool saveSession(const QString& path);
  SessionFile currentSession() const;
  void applySession(const SessionFile& session);
  QString sessionPath() const { return path_; }

  // The view of a session being opened (time range, pinned sequence), applied with its first
  // result: the Gantt then keeps that range instead of fitting the new plan.
  bool hasPendingView() const { return pending_view_.has_value(); }
  // Applies the pending view to the Gantt once and forgets it; does nothing without one.
  void applyPendingView();

 signals:
  // The session was opened from or saved to another path (the window's title names it).
  void pathChanged();

 private:
  void setPath(const QString& path);

  MainWindow& window_;
  SavedViews& saved_views_;
  QString path_;
  std::optional<ViewState> pending_view_;
};

}  // namespace slimpack::ui

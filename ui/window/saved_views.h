#pragma once
// The saved views, as one object with its actions: the list a session keeps, and what the View >
// Saved Views menu and presentation mode's stepping do with it (save the view on screen, apply
// one, rename one, clear them). It was spread over MainWindow, which also held a copy for
// presentation mode; now both read this one list and a change is announced once (changed).
#include <QObject>
#include <cstddef>
#include <vector>

#include "app/session_file.h"

namespace slimpack::ui {

class MainWindow;

class SavedViews : public QObject {
  Q_OBJECT
 public:
  // Reads and shows views in `window` (its Gantt, its Compare tab, its status bar).
  explicit SavedViews(MainWindow& window);

  const std::vector<SavedView>& views() const { return views_; }
  // The current tab (Gantt or Compare), its visible time range and highlighted sequence, added
  // last as "view N".
  void saveCurrent();
  // Brings the view's tab to the front with its time range and highlighted sequence (none when the
  // view has none).
  void apply(const SavedView& view) const;
  void clear();
  // Ignored for an index out of range or an empty name; the name is trimmed.
  void rename(std::size_t index, const QString& name);
  // The whole list (a session's), replacing the current one.
  void setViews(std::vector<SavedView> views);

 signals:
  void changed();

 private:
  MainWindow& window_;
  std::vector<SavedView> views_;
};

}  // namespace slimpack::ui

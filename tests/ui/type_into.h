#pragma once
// Typing into a field as a user does: focus, select all, type, Enter (QTest key events).
#include <QLineEdit>
#include <QSpinBox>
#include <QString>
#include <QTest>

namespace slimpack::ui::testing {

inline void typeInto(QWidget* field, const QString& text) {
  field->setFocus();
  QTest::keyClick(field, Qt::Key_A, Qt::ControlModifier);
  QTest::keyClicks(field, text);
  QTest::keyClick(field, Qt::Key_Return);
}

inline void typeInto(QSpinBox* box, int value) {
  typeInto(static_cast<QWidget*>(box), QString::number(value));
}

}  // namespace slimpack::ui::testing

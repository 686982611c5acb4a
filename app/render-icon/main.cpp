// slimpack-render-icon SVG SIZE OUT.png: renders the application's SVG icon as a square PNG at
// build time, so the hicolor theme gets its fixed sizes from the one scalable source (no binary
// committed).
#include <QBuffer>
#include <QByteArray>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QSvgRenderer>

#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "common/output_file.h"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: slimpack-render-icon ICON.svg SIZE OUT.png\n");
    return 2;
  }
  // A build machine has no display: render without a windowing system.
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QGuiApplication app(argc, argv);
  const int size = std::atoi(argv[2]);
  QSvgRenderer svg(QString::fromLocal8Bit(argv[1]));
  if (!svg.isValid() || size < 8 || size > 1024) {
    std::fprintf(stderr, "slimpack-render-icon: %s: not a valid SVG, or size %s not in 8..1024\n",
                 argv[1], argv[2]);
    return 2;
  }
  QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
  image.fill(Qt::transparent);
  QPainter painter(&image);
  painter.setRenderHint(QPainter::Antialiasing);
  svg.render(&painter);
  painter.end();
  // Encoded in memory, then written by the output-file rule (common/output_file.h).
  QByteArray png;
  QBuffer buffer(&png);
  buffer.open(QIODevice::WriteOnly);
  if (!image.save(&buffer, "PNG")) {
    std::fprintf(stderr, "slimpack-render-icon: %s: PNG encoding failed\n", argv[3]);
    return 1;
  }
  if (slimpack::Status st = slimpack::write_output_file(
          argv[3], std::string_view(png.constData(), static_cast<std::size_t>(png.size())));
      !st) {
    std::fprintf(stderr, "slimpack-render-icon: %s\n", st.error().message.c_str());
    return 1;
  }
  return 0;
}

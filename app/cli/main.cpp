// slimpack: the headless command-line front end over the core (DESIGN section 9).
#include <cstdio>
#include <string>

int main(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) == "--help") {
    std::puts("usage: slimpack <command> [options]");
    return argc < 2 ? 2 : 0;
  }
  std::fprintf(stderr, "slimpack: unknown command '%s'\n", argv[1]);
  return 2;
}

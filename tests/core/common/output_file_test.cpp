// The output-file rule (common/output_file.h) for each kind of target: new paths and regular files
// (atomic, old content kept on failure), symbolic links, character devices, FIFOs, sockets,
// /dev/fd/N, "-" and directories.
#include "common/output_file.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace slimpack {
namespace {

namespace fs = std::filesystem;

class OutputFile : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "slimpack-output-XXXXXX").string();
    ASSERT_NE(::mkdtemp(tmpl.data()), nullptr) << std::strerror(errno);
    dir_ = tmpl;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  static std::string slurp(const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }
  static void put(const std::string& p, const std::string& text) {
    std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
  }
  // Names in the directory: a temporary file left behind would show here.
  std::vector<std::string> entries() const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(dir_)) names.push_back(e.path().filename());
    std::sort(names.begin(), names.end());
    return names;
  }
  static mode_t type_of(const std::string& p) {
    struct stat st {};
    EXPECT_EQ(::lstat(p.c_str(), &st), 0) << p;
    return st.st_mode & S_IFMT;
  }
  // Reads everything from a descriptor until end of file.
  static std::string drain(int fd) {
    std::string text;
    char buf[4096];
    for (;;) {
      const ssize_t n = ::read(fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      text.append(buf, static_cast<std::size_t>(n));
    }
    return text;
  }

  fs::path dir_;
};

TEST_F(OutputFile, NewPathIsCreatedWithNoTemporaryFileLeft) {
  const std::string out = path("out.json");
  EXPECT_EQ(*classify_output(out), OutputTarget::NewFile);
  ASSERT_TRUE(write_output_file(out, "{\"a\": 1}\n").ok());
  EXPECT_EQ(slurp(out), "{\"a\": 1}\n");
  EXPECT_EQ(type_of(out), S_IFREG);
  EXPECT_EQ(entries(), std::vector<std::string>{"out.json"});
}

TEST_F(OutputFile, RegularFileIsReplacedAndKeepsItsPermissions) {
  const std::string out = path("plan.json");
  put(out, "old content that is longer than the new one");
  ASSERT_EQ(::chmod(out.c_str(), 0640), 0);
  EXPECT_EQ(*classify_output(out), OutputTarget::RegularFile);
  ASSERT_TRUE(write_output_file(out, "new").ok());
  EXPECT_EQ(slurp(out), "new");
  struct stat st {};
  ASSERT_EQ(::stat(out.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  EXPECT_EQ(entries(), std::vector<std::string>{"plan.json"});
}

TEST_F(OutputFile, AWriterThatFailsMidwayLeavesTheOldContent) {
  const std::string out = path("trace.json");
  put(out, "the old trace");
  const Status st = write_output_file(out, [](OutputSink& sink) -> Status {
    if (Status s = sink.write("half of the new tr"); !s) return s;
    return Error::bad_input("trace.json: the exporter gave up halfway");
  });
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().message, "trace.json: the exporter gave up halfway");
  EXPECT_EQ(slurp(out), "the old trace");
  EXPECT_EQ(entries(), std::vector<std::string>{"trace.json"});  // no temporary file left
}

TEST_F(OutputFile, AFailedNewFileLeavesNothing) {
  const std::string out = path("new.csv");
  const Status st = write_output_file(out, [](OutputSink& sink) -> Status {
    (void)sink.write("a,b\n1,");
    return Error::cancelled();
  });
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().kind, ErrorKind::Cancelled);
  EXPECT_TRUE(entries().empty());
}

TEST_F(OutputFile, SymlinkToARegularFileKeepsPointingThereAndTheTargetGetsTheContent) {
  fs::create_directory(dir_ / "real");
  const std::string target = path("real/profile.json");
  put(target, "old");
  const std::string link = path("profile.json");
  fs::create_symlink("real/profile.json", link);  // relative, as `ln -s` usually makes them
  const std::string link2 = path("latest.json");
  fs::create_symlink(link, link2);  // a chain of two links
  EXPECT_EQ(*classify_output(link2), OutputTarget::RegularFile);
  ASSERT_TRUE(write_output_file(link2, "new profile").ok());
  EXPECT_EQ(type_of(link), S_IFLNK);
  EXPECT_EQ(type_of(link2), S_IFLNK);
  EXPECT_EQ(fs::read_symlink(link), "real/profile.json");
  EXPECT_EQ(slurp(target), "new profile");
  EXPECT_EQ(fs::directory_iterator(dir_ / "real")->path().filename(), "profile.json");
}

TEST_F(OutputFile, DanglingSymlinkCreatesItsTarget) {
  const std::string link = path("out.json");
  fs::create_symlink("made.json", link);
  ASSERT_TRUE(write_output_file(link, "x").ok());
  EXPECT_EQ(type_of(link), S_IFLNK);
  EXPECT_EQ(slurp(path("made.json")), "x");
}

TEST_F(OutputFile, SymlinkLoopIsAnErrorNamingThePath) {
  const std::string a = path("a");
  fs::create_symlink("b", a);
  fs::create_symlink("a", path("b"));
  const Status st = write_output_file(a, "x");
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.error().message.find(a + ": "), std::string::npos) << st.error().message;
}

// A character device made with mknod under the temporary directory (never the machine's own
// /dev/null): written in place, still a character device afterwards.
TEST_F(OutputFile, CharacterDeviceIsWrittenInPlaceAndNotReplaced) {
  if (::geteuid() != 0) GTEST_SKIP() << "mknod of a character device needs root";
  const std::string dev = path("null");
  if (::mknod(dev.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0)
    GTEST_SKIP() << "mknod refused here: " << std::strerror(errno);
  EXPECT_EQ(*classify_output(dev), OutputTarget::InPlace);
  ASSERT_TRUE(write_output_file(dev, std::string(100000, 'x')).ok());
  EXPECT_EQ(type_of(dev), S_IFCHR);
  struct stat st {};
  ASSERT_EQ(::stat(dev.c_str(), &st), 0);
  EXPECT_EQ(st.st_rdev, makedev(1, 3));
  EXPECT_EQ(entries(), std::vector<std::string>{"null"});
}

TEST_F(OutputFile, AFullDeviceReportsTheReasonAndStaysADevice) {
  if (::geteuid() != 0) GTEST_SKIP() << "mknod of a character device needs root";
  const std::string dev = path("full");
  if (::mknod(dev.c_str(), S_IFCHR | 0666, makedev(1, 7)) != 0)
    GTEST_SKIP() << "mknod refused here: " << std::strerror(errno);
  const Status st = write_output_file(dev, "anything");
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().message, dev + ": write failed (" + std::strerror(ENOSPC) + ")");
  EXPECT_EQ(type_of(dev), S_IFCHR);
}

TEST_F(OutputFile, FifoIsWrittenInPlaceToItsReader) {
  const std::string fifo = path("pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(*classify_output(fifo), OutputTarget::InPlace);
  std::string received;
  std::thread reader([&] {
    const int fd = ::open(fifo.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return;
    received = drain(fd);
    ::close(fd);
  });
  const std::string text(300000, 'j');  // more than a pipe buffer: the writer waits on the reader
  const Status st = write_output_file(fifo, text);
  if (!st.ok()) {  // the FIFO was never opened: wake the reader so that join returns
    const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
    if (fd >= 0) ::close(fd);
  }
  reader.join();
  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_EQ(received, text);
  EXPECT_EQ(type_of(fifo), S_IFIFO);
  EXPECT_EQ(entries(), std::vector<std::string>{"pipe"});
}

TEST_F(OutputFile, UnixSocketIsConnectedToAndWrittenInPlace) {
  const std::string sock = path("sock");
  const int listener = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  ASSERT_GE(listener, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  ASSERT_LT(sock.size(), sizeof(addr.sun_path));
  std::memcpy(addr.sun_path, sock.c_str(), sock.size() + 1);
  ASSERT_EQ(::bind(listener, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)), 0);
  ASSERT_EQ(::listen(listener, 1), 0);
  std::string received;
  std::thread server([&] {
    const int fd = ::accept(listener, nullptr, nullptr);
    if (fd < 0) return;
    received = drain(fd);
    ::close(fd);
  });
  const Status st = write_output_file(sock, "over a socket\n");
  if (!st.ok()) ::shutdown(listener, SHUT_RDWR);  // wakes accept() when nobody connected
  server.join();
  ::close(listener);
  ASSERT_TRUE(st.ok()) << st.error().message;
  EXPECT_EQ(received, "over a socket\n");
  EXPECT_EQ(type_of(sock), S_IFSOCK);
}

// `--json >(jq .)`: bash passes /dev/fd/63, a pipe this process holds open.
TEST_F(OutputFile, DevFdOfAPipeIsWrittenToThatDescriptor) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const std::string name = "/dev/fd/" + std::to_string(fds[1]);
  EXPECT_EQ(*classify_output(name), OutputTarget::Descriptor);
  ASSERT_TRUE(write_output_file(name, "via /dev/fd\n").ok());
  const std::string other = "/proc/self/fd/" + std::to_string(fds[1]);
  ASSERT_TRUE(write_output_file(other, "via /proc/self/fd\n").ok());
  ::close(fds[1]);  // the rule never closes a descriptor it did not open: we do
  EXPECT_EQ(drain(fds[0]), "via /dev/fd\nvia /proc/self/fd\n");
  ::close(fds[0]);
}

TEST_F(OutputFile, ASymlinkToADescriptorIsWrittenToIt) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const std::string link = path("to-pipe");
  fs::create_symlink("/dev/fd/" + std::to_string(fds[1]), link);
  ASSERT_TRUE(write_output_file(link, "linked").ok());
  ::close(fds[1]);
  EXPECT_EQ(drain(fds[0]), "linked");
  ::close(fds[0]);
  EXPECT_EQ(type_of(link), S_IFLNK);
}

TEST_F(OutputFile, DescriptorThatIsNotOpenIsAnError) {
  const Status st = write_output_file("/dev/fd/987", "x");
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().message, "/dev/fd/987: descriptor 987 is not open");
}

TEST_F(OutputFile, DashIsStandardOutput) {
  EXPECT_EQ(*classify_output("-"), OutputTarget::Stdout);
  ::testing::internal::CaptureStdout();
  const Status st = write_output_file("-", "to stdout\n");
  const std::string got = ::testing::internal::GetCapturedStdout();
  ASSERT_TRUE(st.ok());
  EXPECT_EQ(got, "to stdout\n");
  EXPECT_TRUE(entries().empty());
}

TEST_F(OutputFile, DirectoryAndMissingFolderAreErrorsNamingThePath) {
  const Status d = write_output_file(dir_.string(), "x");
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().message, dir_.string() + ": cannot write file (it is a directory)");
  EXPECT_EQ(d.error().kind, ErrorKind::BadInput);
  const std::string missing = path("no-such-folder/out.json");
  const Status m = write_output_file(missing, "x");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().message, missing + ": cannot write file (" + std::strerror(ENOENT) + ")");
}

}  // namespace
}  // namespace slimpack

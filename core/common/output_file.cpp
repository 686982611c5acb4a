#include "common/output_file.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <optional>

namespace slimpack {
namespace {

constexpr int kMaxLinkHops = 40;  // as the kernel's ELOOP limit

// strerror_r, since exports run on worker threads (strerror may share one buffer).
std::string reason(int err) {
  char buf[256] = {};
#if defined(__GLIBC__) && defined(_GNU_SOURCE)
  return strerror_r(err, buf, sizeof buf);  // GNU: returns the message, maybe not in buf
#else
  return strerror_r(err, buf, sizeof buf) == 0 ? std::string(buf) : "error " + std::to_string(err);
#endif
}

Error io_error(const std::string& path, const std::string& what, int err) {
  return Error::bad_input(path + ": " + what + " (" + reason(err) + ")");
}

// A descriptor of this process named as a file: /dev/stdout, /dev/stderr, /dev/fd/N,
// /proc/self/fd/N or /proc/<our pid>/fd/N. Writing to the descriptor itself (instead of opening the
// name again) keeps its offset and append mode and works for sockets, which cannot be opened.
std::optional<int> descriptor_of(const std::string& p) {
  if (p == "/dev/stdout") return 1;
  if (p == "/dev/stderr") return 2;
  const std::string pid_prefix = "/proc/" + std::to_string(::getpid()) + "/fd/";
  for (const std::string& prefix : {std::string("/dev/fd/"), std::string("/proc/self/fd/"),
                                    std::string("/proc/thread-self/fd/"), pid_prefix}) {
    if (p.size() <= prefix.size() || p.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string digits = p.substr(prefix.size());
    if (digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos)
      return std::nullopt;
    return std::stoi(digits);
  }
  return std::nullopt;
}

std::string parent_of(const std::string& p) {
  const auto slash = p.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return p.substr(0, slash);
}

std::string name_of(const std::string& p) {
  const auto slash = p.find_last_of('/');
  return slash == std::string::npos ? p : p.substr(slash + 1);
}

// The path after following symbolic links in its last component, with what it names.
struct Resolved {
  OutputTarget kind = OutputTarget::NewFile;
  std::string path;  // the file to write (the link's final target)
  int fd = -1;       // Stdout / Descriptor
  struct stat st {};
};

Expected<Resolved> resolve(const std::string& path) {
  Resolved r;
  if (path == "-") {
    r.kind = OutputTarget::Stdout;
    r.fd = 1;
    return r;
  }
  if (path.empty()) return Error::bad_input("empty output file name");
  std::string p = path;
  for (int hop = 0; hop <= kMaxLinkHops; ++hop) {
    if (auto fd = descriptor_of(p)) {
      if (::fcntl(*fd, F_GETFD) < 0)
        return Error::bad_input(path + ": descriptor " + std::to_string(*fd) + " is not open");
      r.kind = OutputTarget::Descriptor;
      r.fd = *fd;
      return r;
    }
    r.path = p;
    if (::lstat(p.c_str(), &r.st) != 0) {
      if (errno == ENOENT) {
        r.kind = OutputTarget::NewFile;
        return r;
      }
      return io_error(path, "cannot write file", errno);
    }
    if (S_ISLNK(r.st.st_mode)) {
      std::string target(4096, '\0');
      const ssize_t n = ::readlink(p.c_str(), target.data(), target.size());
      if (n < 0) return io_error(path, "cannot read symbolic link " + p, errno);
      target.resize(static_cast<std::size_t>(n));
      p = (!target.empty() && target.front() == '/') ? target : parent_of(p) + "/" + target;
      continue;
    }
    if (S_ISREG(r.st.st_mode))
      r.kind = OutputTarget::RegularFile;
    else if (S_ISDIR(r.st.st_mode))
      r.kind = OutputTarget::Directory;
    else
      r.kind = OutputTarget::InPlace;
    return r;
  }
  return io_error(path, "cannot write file", ELOOP);
}

Status write_all(int fd, std::string_view bytes, const std::string& shown) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return io_error(shown, "write failed", errno);
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return Status::success();
}

class FdSink final : public OutputSink {
 public:
  FdSink(int fd, std::string shown) : fd_(fd), shown_(std::move(shown)) {}
  Status write(std::string_view bytes) override { return write_all(fd_, bytes, shown_); }

 private:
  int fd_;
  std::string shown_;
};

// Closes a descriptor this module opened, at most once.
class OwnedFd {
 public:
  explicit OwnedFd(int fd) : fd_(fd) {}
  OwnedFd(const OwnedFd&) = delete;
  OwnedFd& operator=(const OwnedFd&) = delete;
  ~OwnedFd() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }
  // Closes now and reports the error close() found (NFS reports write errors there).
  int close() {
    const int rc = ::close(fd_);
    fd_ = -1;
    return rc;
  }

 private:
  int fd_;
};

// Writes to a descriptor this process already holds: nothing is opened, truncated or closed.
Status write_descriptor(int fd, const std::string& shown, const OutputWriter& writer) {
  if (fd == 1) std::fflush(stdout);  // keep order with anything printed before
  if (fd == 2) std::fflush(stderr);
  FdSink sink(fd, shown);
  return writer(sink);
}

int connect_unix_socket(const std::string& p) {
  sockaddr_un addr{};
  if (p.size() >= sizeof(addr.sun_path)) {
    errno = ENAMETOOLONG;
    return -1;
  }
  addr.sun_family = AF_UNIX;
  std::memcpy(addr.sun_path, p.c_str(), p.size() + 1);
  for (int type : {SOCK_STREAM, SOCK_SEQPACKET, SOCK_DGRAM}) {
    const int fd = ::socket(AF_UNIX, type | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)) == 0) return fd;
    const int err = errno;
    ::close(fd);
    errno = err;
    if (err != EPROTOTYPE) return -1;
  }
  return -1;
}

// A device, FIFO or socket: opened (a FIFO waits for its reader) and written where it is.
Status write_in_place(const Resolved& r, const std::string& shown, const OutputWriter& writer) {
  const int raw = S_ISSOCK(r.st.st_mode) ? connect_unix_socket(r.path)
                                         : ::open(r.path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
  if (raw < 0) return io_error(shown, "cannot write file", errno);
  OwnedFd fd(raw);
  FdSink sink(fd.get(), shown);
  if (Status s = writer(sink); !s) return s;
  if (fd.close() != 0) return io_error(shown, "write failed", errno);
  return Status::success();
}

std::string temp_suffix() {
  static std::atomic<unsigned> counter{0};
  const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
  const unsigned long long mix = static_cast<unsigned long long>(now) * 2654435761ULL ^
                                 (static_cast<unsigned long long>(::getpid()) << 20) ^
                                 counter.fetch_add(1);
  char buf[20];
  std::snprintf(buf, sizeof buf, "%012llx", mix & 0xffffffffffffULL);
  return buf;
}

// Syncs the directory entry of a rename; a failure here cannot be undone, so it is not reported.
void sync_directory(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

// A new path or a regular file: temporary file beside the target, fsync, rename.
Status write_atomic(const Resolved& r, const std::string& shown, const OutputWriter& writer) {
  const std::string dir = parent_of(r.path);
  std::string tmp;
  int raw = -1;
  // The mode 0666 goes through the umask, as for any new file; an old file's bits are copied below.
  for (int attempt = 0; attempt < 100 && raw < 0; ++attempt) {
    tmp = dir + "/." + name_of(r.path) + ".tmp-" + temp_suffix();
    raw = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (raw < 0 && errno != EEXIST) break;
  }
  if (raw < 0) return io_error(shown, "cannot write file", errno);
  OwnedFd fd(raw);
  const auto fail = [&](Status s) {
    if (fd.get() >= 0) fd.close();
    ::unlink(tmp.c_str());
    return s;
  };
  if (r.kind == OutputTarget::RegularFile) {
    ::fchmod(fd.get(), r.st.st_mode & 07777);
    if (::geteuid() == 0 && ::fchown(fd.get(), r.st.st_uid, r.st.st_gid) != 0) {
      // Keeping the owner is best effort (a filesystem may refuse it); the content is what matters.
    }
  }
  FdSink sink(fd.get(), shown);
  if (Status s = writer(sink); !s) return fail(s);
  if (::fsync(fd.get()) != 0) return fail(io_error(shown, "write failed", errno));
  if (fd.close() != 0) return fail(io_error(shown, "write failed", errno));
  if (::rename(tmp.c_str(), r.path.c_str()) != 0)
    return fail(io_error(shown, "cannot replace file", errno));
  sync_directory(dir);
  return Status::success();
}

}  // namespace

Expected<OutputTarget> classify_output(const std::string& path) {
  auto r = resolve(path);
  if (!r) return r.error();
  return r->kind;
}

Status write_output_file(const std::string& path, std::string_view contents) {
  return write_output_file(path, [contents](OutputSink& sink) { return sink.write(contents); });
}

Status write_output_file(const std::string& path, const OutputWriter& writer) {
  auto r = resolve(path);
  if (!r) return r.error();
  const std::string shown = path == "-" ? "standard output" : path;
  switch (r->kind) {
    case OutputTarget::Stdout:
    case OutputTarget::Descriptor:
      return write_descriptor(r->fd, shown, writer);
    case OutputTarget::NewFile:
    case OutputTarget::RegularFile:
      return write_atomic(*r, shown, writer);
    case OutputTarget::InPlace:
      return write_in_place(*r, shown, writer);
    case OutputTarget::Directory:
      return Error::bad_input(path + ": cannot write file (it is a directory)");
  }
  return Error::internal(path + ": unknown output target");
}

}  // namespace slimpack

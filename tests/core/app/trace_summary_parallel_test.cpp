// The trace summary over several ranks at once: summarize_trace_files streaming the rank files
// through a pool of workers and summarize_trace_run on a loaded run give what the serial walk
// gives (figures, order, ranks, errors), and cancel stops them. Small hand-made rank traces from
// samples/traces, given distinct ranks. Runs under ThreadSanitizer too (tests/CMakeLists.txt).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <thread>
#include <vector>

#include "app/trace_summary_report.h"
#include "trace/trace_import.h"

namespace slimpack {
namespace {

namespace fs = std::filesystem;

// `workers` std::threads, the first being the caller (as the CLI's pool).
class SummaryThreads final : public TaskPool {
 public:
  explicit SummaryThreads(int workers) : workers_(workers) {}
  int workers() const override { return workers_; }
  void run_on_workers(const std::function<void(int)>& body) override {
    std::vector<std::thread> others;
    for (int w = 1; w < workers_; ++w) others.emplace_back(body, w);
    body(0);
    for (std::thread& t : others) t.join();
  }

 private:
  int workers_;
};

std::string read_sample(const std::string& name) {
  std::ifstream in(std::string(SLIMPACK_SAMPLES_DIR) + "/traces/" + name, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The sample with its distributedInfo rank replaced.
std::string with_rank(const std::string& sample, int rank) {
  std::string text = read_sample(sample);
  const std::string from = "\"rank\": 0";
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << sample;
  if (at != std::string::npos) text.replace(at, from.size(), "\"rank\": " + std::to_string(rank));
  return text;
}

class TraceSummaryParallel : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("slimpack_summary_parallel_" +
            std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_" +
            // The test runs twice at once under ctest (its TSan entry too): a folder each.
            std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string write(const std::string& name, const std::string& text) {
    const fs::path path = dir_ / name;
    std::ofstream(path, std::ios::binary) << text;
    return path.string();
  }

  // Seven ranks given out of order: five Kineto traces with their distributedInfo ranks (0, 1, 5,
  // 3, 2), a CPU-only one ranked by its name (7) and one with neither (the lowest free rank, 4).
  std::vector<std::string> run_files() {
    return {write("b.json", with_rank("kineto_small.json", 5)),
            write("a.json", read_sample("ddp/rank0.pt.trace.json")),
            write("cpu_rank7.json",
                  R"({"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1,
                      "tid": 1, "ts": 0, "dur": 5}]})"),
            write("c.json", with_rank("step_before.json", 3)),
            write("d.json", read_sample("ddp/rank1.pt.trace.json")),
            write("e.json", with_rank("step_after.json", 2)),
            write("f.json", read_sample("asymmetric-example.trace.json"))};
  }

  fs::path dir_;
};

// The serial walk: every file loaded, then summarised rank by rank on the calling thread.
Expected<RunSummary> serial(const std::vector<std::string>& files) {
  TraceRunRequest request;
  request.files = files;
  auto run = load_trace_run(request);
  if (!run) return run.error();
  return summarize_trace_run(*run);
}

TEST_F(TraceSummaryParallel, SameSummaryAsTheSerialWalk) {
  const std::vector<std::string> files = run_files();
  auto expected = serial(files);
  ASSERT_TRUE(expected.ok()) << expected.error().message;
  ASSERT_EQ(expected->ranks.size(), 7u);
  std::vector<int> ranks;
  for (const RankSummary& r : expected->ranks) ranks.push_back(r.rank);
  EXPECT_EQ(ranks, (std::vector<int>{0, 1, 2, 3, 4, 5, 7}));
  EXPECT_FALSE(expected->ranks.back().no_gpu.empty());  // the CPU-only rank 7
  EXPECT_FALSE(expected->stragglers.empty());
  const std::string want = run_summary_json(*expected).dump();

  TraceRunRequest request;
  request.files = files;
  auto run = load_trace_run(request);
  ASSERT_TRUE(run.ok()) << run.error().message;
  for (int workers : {1, 2, 3, 8}) {
    for (int repeat = 0; repeat < 3; ++repeat) {
      SummaryThreads pool(workers);
      auto streamed =
          summarize_trace_files(files, {}, CancelToken::none(), ProgressSink::none(), pool);
      ASSERT_TRUE(streamed.ok()) << streamed.error().message;
      EXPECT_EQ(run_summary_json(*streamed).dump(), want) << workers << " workers";
      EXPECT_EQ(run_summary_text(*streamed), run_summary_text(*expected));
      auto loaded = summarize_trace_run(*run, {}, CancelToken::none(), ProgressSink::none(), pool);
      ASSERT_TRUE(loaded.ok()) << loaded.error().message;
      EXPECT_EQ(run_summary_json(*loaded).dump(), want) << workers << " workers";
    }
  }
  // A folder of the same files: the same run.
  SummaryThreads pool(2);
  auto folder =
      summarize_trace_files({dir_.string()}, {}, CancelToken::none(), ProgressSink::none(), pool);
  ASSERT_TRUE(folder.ok()) << folder.error().message;
  EXPECT_EQ(folder->ranks.size(), 7u);
}

TEST_F(TraceSummaryParallel, ABadFileIsNamedWithItsOwnErrorAsSerially) {
  std::vector<std::string> files = run_files();
  const std::string broken =
      write("broken.json", R"({"traceEvents": [{"ph": "X", "name": "k", "ts": , "dur": 1}]})");
  const std::string missing = (dir_ / "missing.json").string();
  // The broken file third, a missing one last: the first in order is the result, every time.
  files.insert(files.begin() + 2, broken);
  files.push_back(missing);
  const auto alone = import_chrome_trace(broken);
  ASSERT_FALSE(alone.ok());
  auto expected = serial(files);
  ASSERT_FALSE(expected.ok());
  EXPECT_EQ(expected.error().message, alone.error().message);
  EXPECT_EQ(expected.error().message.rfind(broken, 0), 0u) << expected.error().message;
  for (int workers : {1, 2, 4}) {
    for (int repeat = 0; repeat < 3; ++repeat) {
      SummaryThreads pool(workers);
      auto s = summarize_trace_files(files, {}, CancelToken::none(), ProgressSink::none(), pool);
      ASSERT_FALSE(s.ok());
      EXPECT_EQ(s.error().kind, expected.error().kind);
      EXPECT_EQ(s.error().message, expected.error().message) << workers << " workers";
    }
  }
  // Alone at the end, the missing file's error is the result, not a cancellation of the rest.
  files.erase(files.begin() + 2);
  SummaryThreads pool(3);
  auto last = summarize_trace_files(files, {}, CancelToken::none(), ProgressSink::none(), pool);
  ASSERT_FALSE(last.ok());
  EXPECT_NE(last.error().kind, ErrorKind::Cancelled);
  EXPECT_EQ(last.error().message.rfind(missing, 0), 0u) << last.error().message;
  EXPECT_EQ(last.error().message, serial(files).error().message);

  // Two files of one rank: the error names both, as load_trace_run's does.
  auto twice =
      summarize_trace_files({files[1], write("again.json", read_sample("ddp/rank0.pt.trace.json"))},
                            {}, CancelToken::none(), ProgressSink::none(), pool);
  ASSERT_FALSE(twice.ok());
  EXPECT_NE(twice.error().message.find("one file per rank"), std::string::npos);
  EXPECT_EQ(twice.error().message,
            serial({files[1], (dir_ / "again.json").string()}).error().message);
}

// Cancels the token at the first report and records every fraction reported.
class CancelAtFirstReport final : public ProgressSink {
 public:
  explicit CancelAtFirstReport(const CancelToken& token) : token_(token) {}
  void report(std::string_view, double fraction) override {
    const std::lock_guard<std::mutex> lock(mutex_);
    token_.cancel();
    max_ = std::max(max_, fraction);
    ++reports_;
  }
  double max() const { return max_; }
  int reports() const { return reports_; }

 private:
  CancelToken token_;
  std::mutex mutex_;
  double max_ = 0.0;
  int reports_ = 0;
};

TEST_F(TraceSummaryParallel, CancelStopsIt) {
  std::vector<std::string> files = run_files();
  // Ranks large enough that the first report comes long before the end.
  std::string big = R"({"traceEvents": [)";
  for (int i = 0; i < 20000; ++i)
    big += (i ? ",\n" : "") +
           std::string(R"({"ph": "X", "cat": "kernel", "name": "k", "pid": 0, )") +
           "\"tid\": 7, \"ts\": " + std::to_string(i * 10) + ", \"dur\": 5}";
  big += "]}";
  for (int f = 0; f < 8; ++f)
    files.push_back(write("big_rank" + std::to_string(20 + f) + ".json", big));
  for (int workers : {1, 2}) {
    CancelToken cancel;
    CancelAtFirstReport sink(cancel);
    SummaryThreads pool(workers);
    auto s = summarize_trace_files(files, {}, cancel, sink, pool);
    ASSERT_FALSE(s.ok());
    EXPECT_EQ(s.error().kind, ErrorKind::Cancelled);
    // At most the files the workers had started when it was cancelled were read: no rank was
    // finished after it, so the mean never came near the end.
    EXPECT_LE(sink.max(), static_cast<double>(workers) / static_cast<double>(files.size()) + 1e-9);
  }
  // Cancelled before it starts: nothing is read.
  CancelToken before;
  before.cancel();
  SummaryThreads pool(2);
  auto s = summarize_trace_files(files, {}, before, ProgressSink::none(), pool);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().kind, ErrorKind::Cancelled);
  TraceRunRequest request;
  request.files = files;
  auto run = load_trace_run(request);
  ASSERT_TRUE(run.ok()) << run.error().message;
  auto r = summarize_trace_run(*run, {}, before, ProgressSink::none(), pool);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::Cancelled);
}

}  // namespace
}  // namespace slimpack

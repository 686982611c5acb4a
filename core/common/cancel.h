#pragma once
// Cooperative cancellation shared between a job's owner and the core function it runs.
#include <atomic>
#include <memory>

namespace slimpack {

class CancelToken {
 public:
  CancelToken() : flag_(std::make_shared<std::atomic<bool>>(false)) {}
  void cancel() const { flag_->store(true, std::memory_order_relaxed); }
  bool cancelled() const { return flag_->load(std::memory_order_relaxed); }

  // A token that is never cancelled, for callers that do not need cancellation.
  static const CancelToken& none() {
    static const CancelToken token;
    return token;
  }

 private:
  std::shared_ptr<std::atomic<bool>> flag_;
};

}  // namespace slimpack

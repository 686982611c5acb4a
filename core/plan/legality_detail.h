#pragma once
// Internal helpers shared by the legality checker's translation units (not part of the public API).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "plan/legality.h"
#include "plan/pack_name.h"

namespace slimpack::legality_detail {

// One segment as it sits in a plan: which replica and pack (16 bytes: large plans hold millions).
struct SegRef {
  std::int32_t replica = 0;
  std::int32_t pack = 0;
  const Segment* seg = nullptr;
};

// Segments of one pass grouped by sequence (every replica's copy included), as one flat array in
// compressed-row form: a plan of 100k sequences costs two allocations, not 100k.
struct SegmentsBySeq {
  std::vector<std::int32_t> offset;  // size sequences + 1
  std::vector<SegRef> refs;          // sequence q's segments: refs[offset[q] .. offset[q + 1])

  std::size_t size() const { return offset.empty() ? 0 : offset.size() - 1; }
  std::span<const SegRef> of(std::size_t q) const {
    return {refs.data() + offset[q], refs.data() + offset[q + 1]};
  }
};
// Within a sequence, segments come in (replica, pack, position) order. Refills `out`, keeping its
// capacity (callers reuse one per thread: fresh multi-megabyte arrays cost more in page faults
// than the grouping itself).
void segments_by_sequence(const Plan& plan, Pass pass, SegmentsBySeq& out);

// Collects violations up to a limit and formats the names the messages share.
class Collector {
 public:
  Collector(const Plan& plan, std::size_t max_violations) : plan_(plan), max_(max_violations) {}

  bool full() const { return report_.violations.size() >= max_; }
  void add(Rule rule, int replica, Pass pass, int pack, SeqIndex seq, std::string message,
           int stage = -1, double needed = 0.0, double cap = 0.0);

  // "forward pack F3" (1-based, like the paper's F_1..F_M), plus " of replica 1" when d > 1.
  std::string pack_label(int replica, Pass pass, int pack) const;
  // The sequence's id in quotes-free form, or "#7" when the index is out of range.
  std::string seq_name(SeqIndex seq) const;
  static std::string range(Tokens begin, Tokens end);
  static const char* pass_name(Pass pass) { return pass == Pass::Forward ? "forward" : "backward"; }

  const Plan& plan() const { return plan_; }
  LegalityReport take() { return std::move(report_); }

 private:
  const Plan& plan_;
  std::size_t max_;
  LegalityReport report_;
};

// Structure: plan fields and every segment in range. Returns false when segments are unusable
// (index out of range), in which case no further rule can be evaluated safely.
bool check_segments(Collector& out);
// Structure: every token of every sequence in exactly one pack per pass across replicas, DP-merged
// groups complete, and each replica running backward exactly the tokens it ran forward. Also L6.
void check_coverage(Collector& out, const SegmentsBySeq& forward, const SegmentsBySeq& backward);
// L1 and L2 per replica.
void check_order(Collector& out, const SegmentsBySeq& forward, const SegmentsBySeq& backward);

}  // namespace slimpack::legality_detail

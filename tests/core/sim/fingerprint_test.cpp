// Pins the simulator's results bit for bit over many plan shapes, in two tables:
// - times (fingerprint_times.inc): every op's start and end, the lanes, busy time, makespan and
//   finish, and for a deadlock how many ops never ran. Taken from the Kahn-sweep simulator of
//   commit 43bd183 (before the stage-stream evaluation): the times must never change.
// - everything (fingerprint_expected.inc): the times and the critical path, whose cause in a tie
//   is the first predecessor in slot order (stream, message, activations, readiness; see
//   sim/dag.h), and a deadlock's full message, which names the cycle found.
// Set SLIMPACK_PRINT_FINGERPRINTS=1 to print both tables (to re-derive them from a reference
// build).
#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "sim/simulator.h"

namespace slimpack {
namespace {

// FNV-1a over the bytes of each field (not of the structs: their padding is unspecified).
struct Hash {
  std::uint64_t h = 1469598103934665603ull;
  void bytes(std::uint64_t v, int n) {
    for (int i = 0; i < n; ++i) {
      h ^= (v >> (8 * i)) & 0xff;
      h *= 1099511628211ull;
    }
  }
  void real(double x) { bytes(std::bit_cast<std::uint64_t>(x), 8); }
  void op(const TimedOp& o) {
    real(o.start);
    real(o.end);
    bytes(static_cast<std::uint32_t>(o.pack), 4);
    bytes(static_cast<std::uint16_t>(o.stage), 2);
    bytes(static_cast<std::uint8_t>(o.chunk), 1);
    bytes(static_cast<std::uint8_t>(o.kind), 1);
    bytes(static_cast<std::uint8_t>(o.pass), 1);
  }
};

// The times alone, or (with `paths`) the critical paths too, replica by replica.
std::uint64_t fingerprint(const SimResult& r, bool paths = true) {
  Hash h;
  h.real(r.makespan);
  h.real(r.iteration_time);
  h.real(r.bubble_ratio);
  for (const ReplicaResult& rep : r.replicas) {
    h.real(rep.makespan);
    h.real(rep.finish);
    for (const StageResult& st : rep.stages) {
      h.real(st.busy);
      for (const TimedOp& o : st.ops) h.op(o);
      for (const TimedOp& o : st.comm) h.op(o);
    }
    if (!paths) continue;
    const CriticalPath& cp = rep.critical_path;
    h.real(cp.compute);
    h.real(cp.comm);
    h.real(cp.idle);
    h.bytes(cp.ops.size(), 8);
    for (const TimedOp& o : cp.ops) h.op(o);
  }
  return h.h;
}

// Deterministic pseudo-random numbers (the standard distributions differ between libraries).
struct Lcg {
  std::uint64_t s;
  std::uint32_t next() {
    s = s * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::uint32_t>(s >> 33);
  }
  int below(int n) { return static_cast<int>(next() % static_cast<std::uint32_t>(n)); }
};

// One shape: `split` sequences have their backward in two slices (Mb > Mf), `merge` pairs of
// sequences share one backward pack (Mb < Mf); times come from a few values so that ties are
// common; some packs carry per-stage times.
Plan make_plan(std::uint64_t seed) {
  Lcg g{seed};
  const bool big = seed % 8 == 0;
  Plan plan;
  plan.stages = 1 + g.below(big ? 16 : 6);
  const int kind = g.below(3);
  plan.schedule = kind == 0   ? ScheduleKind::OneFOneB
                  : kind == 1 ? ScheduleKind::GPipe
                              : ScheduleKind::Interleaved;
  plan.vchunks = kind == 2 ? 1 + g.below(3) : 1;
  plan.warmup_extra = g.below(3);
  plan.p2p_latency = g.below(3) == 0 ? 0.0 : 0.25 * g.below(3);
  const int packs = 1 + g.below(big ? 64 : 12);
  const int replicas = 1 + g.below(3);
  const double times[] = {0.5, 1.0, 1.0, 1.5, 2.0, 0.0};
  auto time = [&] { return times[g.below(6)]; };
  for (int m = 0; m < packs; ++m) plan.sequences.push_back({"s" + std::to_string(m), 8});
  for (int r = 0; r < replicas; ++r) {
    ReplicaPlan rp;
    for (int m = 0; m < packs; ++m) {
      Pack f;
      f.segments.push_back({m, 0, 8});
      f.time = time();
      if (g.below(4) == 0)
        for (int s = 0; s < plan.stages; ++s) f.stage_times.push_back(time());
      rp.forward.push_back(f);
    }
    for (int m = 0; m < packs; ++m) {
      const int shape = g.below(4);
      Pack b;
      b.time = 2.0 * time();
      if (shape == 0) {  // two slices, the later one first
        b.segments.push_back({m, 4, 8});
        rp.backward.push_back(b);
        b.segments = {{m, 0, 4}};
        b.time = time();
      } else if (shape == 1 && m + 1 < packs) {  // two sequences in one pack
        b.segments = {{m, 0, 8}, {m + 1, 0, 8}};
        rp.backward.push_back(b);
        ++m;
        continue;
      } else {
        b.segments.push_back({m, 0, 8});
      }
      rp.backward.push_back(b);
    }
    plan.replicas.push_back(rp);
  }
  return plan;
}

constexpr std::uint64_t kExpected[] = {
#include "fingerprint_expected.inc"
};
constexpr std::uint64_t kExpectedTimes[] = {
#include "fingerprint_times.inc"
};

std::uint64_t text_hash(const std::string& text) {
  Hash h;
  for (char c : text) h.bytes(static_cast<unsigned char>(c), 1);
  return h.h;
}

// "... (3 of 40 ops never ran)": the part of a deadlock message that does not depend on which
// cycle the search found.
std::string never_ran(const std::string& message) {
  const auto at = message.rfind(" (");
  return at == std::string::npos ? message : message.substr(at);
}

TEST(SimFingerprint, ManyShapesBitForBit) {
  const bool print = std::getenv("SLIMPACK_PRINT_FINGERPRINTS") != nullptr;
  constexpr int kShapes = sizeof(kExpected) / sizeof(kExpected[0]);
  static_assert(sizeof(kExpectedTimes) == sizeof(kExpected));
  SimOptions o;
  o.check_legality = false;
  int deadlocks = 0;
  for (int i = 0; i < kShapes; ++i) {
    const Plan plan = make_plan(1000 + static_cast<std::uint64_t>(i));
    auto res = simulate(plan, nullptr, o);
    // A deadlock (some shapes have one) pins the message, which names the cycle it found.
    std::uint64_t fp = 0, times = 0;
    if (res) {
      fp = fingerprint(*res);
      times = fingerprint(*res, false);
    } else {
      fp = text_hash(res.error().message);
      times = text_hash(never_ran(res.error().message));
      ++deadlocks;
    }
    if (print)
      std::printf("    0x%016llxull, 0x%016llxull,%s\n", static_cast<unsigned long long>(times),
                  static_cast<unsigned long long>(fp), res ? "" : "  // deadlock");
    EXPECT_EQ(times, kExpectedTimes[i]) << "shape " << i << ": times changed";
    EXPECT_EQ(fp, kExpected[i]) << "shape " << i;
  }
  EXPECT_LT(deadlocks, kShapes / 3);  // most shapes must run
}

}  // namespace
}  // namespace slimpack

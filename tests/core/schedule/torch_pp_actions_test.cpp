// PyTorch's pipeline action syntax (core/schedule/torch_pp_actions.h) and the lowering of a
// compute-only schedule (torch_pp_lowering.h): actions read and written as torch does, strict
// where torch's regex is not, every refusal of a CSV named by row and cell, and the lowering of
// a 2-stage 3-micro-batch 1F1B equal to what torch 2.15's `_load_csv` made of it (printed by
// `_PipelineScheduleRuntime.pipeline_order_with_comms`).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "schedule/torch_pp_actions.h"
#include "schedule/torch_pp_lowering.h"

namespace slimpack {
namespace {

std::vector<std::string> texts(const std::vector<TorchPPAction>& row) {
  std::vector<std::string> out;
  for (const TorchPPAction& a : row) out.push_back(torch_pp_action_text(a));
  return out;
}

std::string error_of(const std::string& csv) {
  auto t = parse_torch_pp_csv(csv, "s.csv");
  if (!t) return t.error().message;
  auto s = torch_pp_stages(*t);
  return s ? "" : s.error().message;
}

TEST(TorchPPActions, ReadAndWriteAsTorchDoes) {
  for (const char* text : {"0F0", "1B3", "2I12", "2W12", "0SEND_F3", "1RECV_F3", "1SEND_B0",
                           "0RECV_B0", "0WAIT_SEND_F2", "1WAIT_SEND_B2", "0UNSHARD", "0RESHARD",
                           "3REDUCE_GRAD", "3WAIT_REDUCE_GRAD", "(0F1;1B0)OVERLAP_F_B"}) {
    auto a = parse_torch_pp_action(text);
    ASSERT_TRUE(a.ok()) << text << ": " << a.error().message;
    EXPECT_EQ(torch_pp_action_text(*a), text);
  }
  auto a = parse_torch_pp_action(" 1SEND_B7 ");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->stage, 1);
  EXPECT_EQ(a->type, TorchPPType::SendB);
  EXPECT_EQ(a->microbatch, 7);
  EXPECT_FALSE(torch_pp_is_compute(a->type));
  EXPECT_TRUE(torch_pp_is_compute(TorchPPType::BackwardWeight));
}

// torch's regex would read "0BW3" as "0B" and drop the rest; the reader refuses it.
TEST(TorchPPActions, StrictWhereTorchIsNot) {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"0BW3", "'0BW3' is not an action of PyTorch's pipeline action syntax"},
      {"F0", "it does not start with a stage number"},
      {"0F", "F needs a micro-batch number"},
      {"0UNSHARD2", "UNSHARD takes no micro-batch number"},
      {"0FWD3", "'0FWD3' is not an action"},
      {"Step 0: 0F0", "does not start with a stage number"},
      {"(0F1;1B0)MERGE", "only OVERLAP_F_B holds sub-actions"}};
  for (const auto& [text, why] : bad) {
    auto a = parse_torch_pp_action(text);
    ASSERT_FALSE(a.ok()) << text;
    EXPECT_NE(a.error().message.find(why), std::string::npos) << a.error().message;
  }
}

TEST(TorchPPActions, CsvNamesRowAndCell) {
  auto t = parse_torch_pp_csv("0F0,0F1,0B0,0B1\r\n1F0,1B0,1F1,1BW1\r\n", "old.csv");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().message.rfind("old.csv: row 2 (rank 1), cell 4: '1BW1' is not an action", 0),
            0u)
      << t.error().message;
  // Empty cells are no action, as torch's _load_csv reads them (None).
  auto ok = parse_torch_pp_csv("0F0,,0B0\n1F0,1B0,\n", "s.csv");
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  EXPECT_EQ(texts(ok->rows[0]), (std::vector<std::string>{"0F0", "0B0"}));
  EXPECT_EQ(torch_pp_csv_text(ok->rows), "0F0,0B0\n1F0,1B0\n");
  EXPECT_FALSE(parse_torch_pp_csv("", "e.csv").ok());
}

TEST(TorchPPActions, LooksLikeActions) {
  EXPECT_TRUE(looks_like_torch_pp_csv("0F0,0F1,0B0"));
  EXPECT_TRUE(looks_like_torch_pp_csv("0UNSHARD,0F0"));
  EXPECT_FALSE(looks_like_torch_pp_csv("replica,stage,kind,pack"));
  EXPECT_FALSE(looks_like_torch_pp_csv(""));
}

TEST(TorchPPActions, StagesAsTorchValidatesThem) {
  auto t = parse_torch_pp_csv("1F0,1F1,1B0,1B1\n0F0,0B0,0F1,0B1\n", "s.csv");
  ASSERT_TRUE(t.ok());
  auto s = torch_pp_stages(*t);
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->stage_of_rank, (std::vector<int>{1, 0}));
  EXPECT_EQ(s->microbatches, 2);
  // Split backward: an I and a W per micro-batch count as its backward.
  EXPECT_EQ(error_of("0F0,0I0,0W0\n1F0,1B0\n"), "");
  EXPECT_NE(error_of("0F0,0F1,0B0,0B1\n0F2\n")
                .find("row 2 (rank 1) runs stage 0, which row 1 "
                      "runs too"),
            std::string::npos);
  EXPECT_NE(error_of("0F0,2F0,0B0,2B0\n1F0,1B0\n")
                .find("runs stages 0 and 2: a looped or V "
                      "schedule"),
            std::string::npos);
  EXPECT_NE(error_of("0B0,0F0\n1F0,1B0\n").find("0B0 runs before the forward 0F0"),
            std::string::npos);
  EXPECT_NE(error_of("0F0,0W0,0I0\n1F0,1B0\n").find("0W0 runs before its input backward 0I0"),
            std::string::npos);
  EXPECT_NE(error_of("0F0,0F1,0B0,0B1\n1F0,1B0\n").find("stage 1 runs 1 forward micro-batches"),
            std::string::npos);
  EXPECT_NE(error_of("0F0,0F1,0B0\n1F0,1F1,1B0,1B1\n").find("stage 0 runs 1 full"),
            std::string::npos);
  EXPECT_NE(error_of("0F0,0B0\n5F0,5B0\n").find("stage 5 on 2 rows"), std::string::npos);
  EXPECT_NE(error_of("0F0,0B0\n\n").find("row 2 (rank 1) has no action"), std::string::npos);
}

// What torch 2.15 lowers "0F0,0F1,0B0,0F2,0B1,0B2 / 1F0,1B0,1F1,1B1,1F2,1B2" to (its
// pipeline_order_with_comms after _load_csv(format="compute_only")).
TEST(TorchPPLowering, TwoStagesThreeMicrobatchesAsTorch) {
  auto t = parse_torch_pp_csv("0F0,0F1,0B0,0F2,0B1,0B2\n1F0,1B0,1F1,1B1,1F2,1B2\n", "s.csv");
  ASSERT_TRUE(t.ok());
  auto lowered = lower_torch_pp(t->rows, {0, 1}, 3);
  ASSERT_TRUE(lowered.ok()) << lowered.error().message;
  EXPECT_EQ(texts((*lowered)[0]),
            (std::vector<std::string>{"0UNSHARD", "0F0", "0SEND_F0", "0F1", "0SEND_F1", "0RECV_B0",
                                      "0B0", "0WAIT_SEND_F0", "0F2", "0SEND_F2", "0RECV_B1", "0B1",
                                      "0WAIT_SEND_F1", "0RECV_B2", "0B2", "0WAIT_SEND_F2",
                                      "0REDUCE_GRAD", "0WAIT_REDUCE_GRAD", "0RESHARD"}));
  EXPECT_EQ(texts((*lowered)[1]),
            (std::vector<std::string>{"1UNSHARD", "1RECV_F0", "1F0", "1RECV_F1", "1B0", "1SEND_B0",
                                      "1F1", "1RECV_F2", "1B1", "1SEND_B1", "1F2", "1B2",
                                      "1SEND_B2", "1REDUCE_GRAD", "1WAIT_REDUCE_GRAD", "1RESHARD",
                                      "1WAIT_SEND_B0", "1WAIT_SEND_B1", "1WAIT_SEND_B2"}));
}

TEST(TorchPPLowering, DeadlockIsAnError) {
  // Stage 1 wants micro-batch 1 first, stage 0 never sends it before its backward of 0.
  auto t = parse_torch_pp_csv("0F0,0B0,0F1,0B1\n1F1,1B1,1F0,1B0\n", "s.csv");
  ASSERT_TRUE(t.ok());
  auto lowered = lower_torch_pp(t->rows, {0, 1}, 2);
  ASSERT_FALSE(lowered.ok());
  EXPECT_NE(lowered.error().message.find("no rank can take its next action"), std::string::npos);
}

}  // namespace
}  // namespace slimpack

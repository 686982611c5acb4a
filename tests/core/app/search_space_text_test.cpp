// The space's lists as text (core/app/search_space_text.h): what the CLI's --pp and the Search
// tab's fields read, checked by the option table, written back as read, with the defaults the
// help and placeholders show equal to what resolve_space fills in.
#include "app/search_space_text.h"

#include <gtest/gtest.h>

namespace slimpack {
namespace {

TEST(SearchSpaceText, ReadsListsWithSpacesAndBlankItems) {
  SearchSpace s;
  ASSERT_TRUE(set_space_list(s, "pp", " 2, 4,,8 ", "p").ok());
  EXPECT_EQ(s.pp, (std::vector<int>{2, 4, 8}));
  ASSERT_TRUE(set_space_list(s, "slice", "4096,8192", "S").ok());
  EXPECT_EQ(s.slices, (std::vector<Tokens>{4096, 8192}));
  ASSERT_TRUE(set_space_list(s, "recompute", "none, full,6", "recompute").ok());
  ASSERT_EQ(s.recompute.size(), 3u);
  EXPECT_EQ(s.recompute[1].mode, RecomputeMode::Full);
  EXPECT_EQ(s.recompute[2].mode, RecomputeMode::Layers);
  EXPECT_EQ(s.recompute[2].layers, 6);
  ASSERT_TRUE(set_space_list(s, "schedule", "interleaved", "schedule").ok());
  EXPECT_EQ(s.schedules, std::vector<ScheduleKind>{ScheduleKind::Interleaved});
  ASSERT_TRUE(set_space_list(s, "strategy", "slimpack,fixed", "strategy").ok());
  EXPECT_EQ(s.strategies, (std::vector<std::string>{"slimpack", "fixed"}));
}

TEST(SearchSpaceText, BlankTextIsAutomatic) {
  SearchSpace s;
  s.tp = {1, 2};
  ASSERT_TRUE(set_space_list(s, "tp", "  ", "t").ok());
  EXPECT_TRUE(s.tp.empty());
  EXPECT_EQ(space_list_text(s, "tp"), "");
}

TEST(SearchSpaceText, BadValueIsNamedAndLeavesTheListAlone) {
  SearchSpace s;
  s.pp = {4};
  auto st = set_space_list(s, "pp", "2,four", "p");
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().message, "p: expected an integer, got 'four'");
  EXPECT_EQ(s.pp, std::vector<int>{4});
  st = set_space_list(s, "recompute", "sometimes", "--recompute");
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().message.rfind("--recompute: 'sometimes' is not one of", 0), 0u)
      << st.error().message;
  st = set_space_list(s, "dp", "0", "d");
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().message.rfind("d: ", 0), 0u) << st.error().message;
}

TEST(SearchSpaceText, TextReadsBackToTheSameList) {
  SearchSpace s;
  ASSERT_TRUE(set_space_list(s, "cp", "1,2", "c").ok());
  ASSERT_TRUE(set_space_list(s, "recompute", "selective,auto,4", "r").ok());
  ASSERT_TRUE(set_space_list(s, "schedule", "1f1b,interleaved", "s").ok());
  for (std::string_view key : kSearchListOptions) {
    SearchSpace again;
    ASSERT_TRUE(set_space_list(again, key, space_list_text(s, key), "x").ok()) << key;
    EXPECT_EQ(space_list_text(again, key), space_list_text(s, key)) << key;
  }
  EXPECT_EQ(space_list_text(s, "cp"), "1,2");
  EXPECT_EQ(space_list_text(s, "recompute"), "selective,auto,4");
  EXPECT_EQ(space_list_text(s, "schedule"), "1f1b,interleaved");
}

// The defaults the CLI's help and the tab's placeholders print are the lists resolve_space uses.
TEST(SearchSpaceText, StatedDefaultsAreTheResolvedOnes) {
  SearchSpace s;
  s.gpus = 64;
  auto resolved = resolve_space(s, ConfigSpec{});
  ASSERT_TRUE(resolved.ok());
  for (std::string_view key : {"cp", "recompute", "schedule", "strategy"})
    EXPECT_EQ(space_list_default(key), space_list_text(*resolved, key)) << key;
  for (std::string_view key : kSearchListOptions) EXPECT_FALSE(space_list_default(key).empty());
}

std::string gui_name(const ConfigOption& o) {
  return "field " + std::string(o.key);
}
std::string gui_own(std::string_view field) {
  return "own " + std::string(field);
}

TEST(SearchSpaceText, ResolveErrorsAreNamedByTheFrontEnd) {
  SearchSpace s;
  s.gpus = 8;
  s.pp = {64};
  auto r = resolve_space(s, ConfigSpec{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(name_search_error(r.error(), gui_name, gui_own).message,
            "field pp: 64 is more stages than the model's 32 layers");
  s.pp.clear();
  s.min_gpus = 9;
  r = resolve_space(s, ConfigSpec{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(name_search_error(r.error(), gui_name, gui_own).message,
            "own min gpus: must not exceed the budget of 8 GPUs");
}

}  // namespace
}  // namespace slimpack

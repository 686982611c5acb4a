// Plans from the malformed-input corpus (tests/cli/bad/plans) read as errors naming the JSON path,
// never as exceptions or crashes. huge-number.json is the regression for the CLI abort on a number
// too large for a double (an uncaught nlohmann out_of_range before json_util::parse used SAX).
#include <gtest/gtest.h>

#include <string>

#include "plan/plan_json.h"

namespace slimpack {
namespace {

const std::string kBad = std::string(SLIMPACK_SOURCE_DIR) + "/tests/cli/bad/plans/";

std::string error_of(const std::string& name) {
  auto plan = read_plan_file(kBad + name);
  return plan.ok() ? std::string("(read)") : plan.error().message;
}

TEST(PlanBadInput, NumberTooLargeForADouble) {
  EXPECT_EQ(error_of("huge-number.json"),
            kBad + "huge-number.json: invalid JSON at line 23, column 15 " +
                "($.forward_packs[0].time): number 1e999 is too large for a double");
}

TEST(PlanBadInput, EveryCaseNamesFileAndPlace) {
  const std::pair<const char*, const char*> cases[] = {
      {"duplicate-key.json", "$.stages: duplicate key \"stages\""},
      {"deep.json", "nested deeper than 256 levels at $.extra[0][0]"},
      {"utf16.json", "UTF-16 text"},
      {"nul.json", "line 17, column 1: NUL byte"},
      {"absurd-stages.json", "$.stages: 1000000000 is out of range [1, 4096]"},
      {"duplicate-id.json", "$.sequences[1].id: duplicate sequence id \"a\""},
      {"unknown-schedule.json", "$.schedule: unknown schedule \"zigzag\""},
      {"negative-length.json", "$.sequences[1].length: -5"},
      {"wrong-type.json", "$.stages: expected an integer"},
      {"absurd-vchunks.json", "$.vchunks: 1000000000 is out of range [1, 127]"},
      {"absurd-warmup.json", "$.warmup_extra: 1000000000 is out of range [0, 65536]"},
      {"absurd-length.json", "$.sequences[0].length: 1000000000000 is more than the maximum"},
  };
  for (const auto& [file, expected] : cases) {
    const std::string e = error_of(file);
    EXPECT_EQ(e.rfind(kBad + file + ": ", 0), 0u) << e;
    EXPECT_NE(e.find(expected), std::string::npos) << file << ": " << e;
  }
}

}  // namespace
}  // namespace slimpack

// json_util::parse never throws and names where and why the text is refused. The first test is the
// regression for the CLI crash on a plan holding a number too large for a double: nlohmann reports
// it as an out_of_range exception, which escaped the old parse (it only caught parse_error).
#include "common/json_util.h"

#include <gtest/gtest.h>

#include <string>

namespace slimpack::json_util {
namespace {

std::string error_of(const std::string& text) {
  auto j = parse(text);
  return j.ok() ? std::string("(parsed)") : j.error().message;
}

TEST(JsonParse, NumberTooLargeForADoubleIsAnErrorNotAnException) {
  EXPECT_EQ(error_of(R"({"stages": 4, "time": 1e999})"),
            "invalid JSON at column 23 ($.time): number 1e999 is too large for a double");
  EXPECT_EQ(error_of("[1, -1e400]"),
            "invalid JSON at column 5 ($[1]): number -1e400 is too large for a double");
  // Tiny numbers underflow to zero and are fine; so is the largest double.
  auto tiny = parse("[1e-999, 1.7976931348623157e308]");
  ASSERT_TRUE(tiny.ok()) << tiny.error().message;
  EXPECT_EQ((*tiny)[0].get<double>(), 0.0);
}

TEST(JsonParse, SyntaxErrorsNameLineColumnAndPath) {
  EXPECT_EQ(error_of("{\n  \"a\": [1, 2,\n  \"b\": 3\n}"),
            "invalid JSON at line 3, column 6 ($.a[3]): syntax error while parsing array - "
            "unexpected ':'; expected ']'");
  EXPECT_EQ(error_of("[1, 2,"),
            "invalid JSON at column 7 ($[2]): syntax error while parsing value - unexpected end "
            "of input; expected '[', '{', or a literal");
  EXPECT_EQ(error_of(""),
            "invalid JSON at column 1: syntax error while parsing value - unexpected end of "
            "input; expected '[', '{', or a literal");
  EXPECT_NE(error_of("[NaN]").find("invalid literal"), std::string::npos);
  EXPECT_NE(error_of("{} {}").find("expected end of input"), std::string::npos);
  EXPECT_NE(error_of(std::string("[\"a\xff\"]")).find("ill-formed UTF-8"), std::string::npos);
}

TEST(JsonParse, NestingIsCappedWithoutRecursion) {
  const std::size_t ok_depth = kMaxJsonDepth;
  auto ok = parse(std::string(ok_depth, '[') + std::string(ok_depth, ']'));
  EXPECT_TRUE(ok.ok()) << ok.error().message;

  const std::string deep = std::string(ok_depth + 1, '[') + std::string(ok_depth + 1, ']');
  const std::string e = error_of(deep);
  EXPECT_EQ(e.rfind("invalid JSON: nested deeper than 256 levels at $[0][0]", 0), 0u) << e;
  EXPECT_LT(e.size(), 200u) << "the path is abbreviated";

  // 100k levels: refused after 256, in time and memory proportional to the prefix read.
  EXPECT_NE(error_of(std::string(100000, '[')).find("nested deeper than 256 levels"),
            std::string::npos);
  EXPECT_NE(error_of(std::string(100000, '{')).find("invalid JSON"), std::string::npos);
  std::string objects;
  for (int i = 0; i < 100000; ++i) objects += "{\"k\":";
  EXPECT_NE(error_of(objects).find("nested deeper than 256 levels at $.k.k.k"), std::string::npos);
}

TEST(JsonParse, DuplicateKeysAreRefusedWithTheirPath) {
  EXPECT_EQ(error_of(R"({"plan": {"stages": 2, "stages": 4}})"),
            "invalid JSON: $.plan.stages: duplicate key \"stages\"");
  EXPECT_EQ(error_of(R"([{"a": 1}, {"x y": 1, "x y": 2}])"),
            "invalid JSON: $[1][\"x y\"]: duplicate key \"x y\"");
}

TEST(JsonParse, TooLargeTextIsRefusedBeforeParsing) {
  const std::string big(kMaxJsonBytes + 1, ' ');
  EXPECT_EQ(error_of(big), "JSON text of " + std::to_string(big.size()) +
                               " bytes is larger than the limit of 256 MiB");
}

TEST(JsonParse, ValuesKeepTheirTypes) {
  auto j = parse(R"({"i": -3, "u": 18446744073709551615, "f": 2.5, "s": "x", "b": true,
                    "n": null, "a": [[], {}]})");
  ASSERT_TRUE(j.ok()) << j.error().message;
  EXPECT_TRUE((*j)["i"].is_number_integer());
  EXPECT_EQ((*j)["i"].get<std::int64_t>(), -3);
  EXPECT_TRUE((*j)["u"].is_number_unsigned());
  EXPECT_EQ((*j)["f"].get<double>(), 2.5);
  EXPECT_EQ((*j)["s"].get<std::string>(), "x");
  EXPECT_TRUE((*j)["b"].get<bool>());
  EXPECT_TRUE((*j)["n"].is_null());
  EXPECT_EQ((*j)["a"].dump(), "[[],{}]");
}

TEST(JsonGetters, IntegersBeyondInt64AreRefusedNotWrapped) {
  auto j = parse(R"({"pp": 18446744073709551615, "dp": 9223372036854775807})");
  ASSERT_TRUE(j.ok());
  auto pp = get_int(*j, "pp", "$");
  ASSERT_FALSE(pp.ok());
  EXPECT_EQ(pp.error().message, "$.pp: integer 18446744073709551615 is too large");
  auto dp = get_int(*j, "dp", "$");
  ASSERT_TRUE(dp.ok());
  EXPECT_EQ(*dp, INT64_MAX);
}

}  // namespace
}  // namespace slimpack::json_util

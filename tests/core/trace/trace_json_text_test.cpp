// The args text check of the trace import: which texts are one well-formed JSON value, and the
// minified text it writes for tooltips in the same pass.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "trace/trace_import.h"
#include "trace/trace_json_text.h"

namespace slimpack {
namespace {

bool ok(std::string_view s) {
  return trace_json::JsonValueCheck(s).ok();
}

std::string minified(std::string_view s) {
  std::string out(s.size(), '\0');
  const std::size_t n = trace_json::JsonValueCheck(s).minify_into(out.data());
  if (n == std::string_view::npos) return "(malformed)";
  out.resize(n);
  return out;
}

TEST(JsonValueCheck, AcceptsWhatKinetoWrites) {
  EXPECT_TRUE(ok(R"({"External id": 7, "Input Dims": [[8, 4096], [4096, 4096]], "x": null})"));
  EXPECT_TRUE(ok(R"({"grid": [132, 1, 1], "ok": true, "bad": false, "f": -0.5e-3})"));
  EXPECT_TRUE(ok(R"({})"));
  EXPECT_TRUE(ok(R"([])"));
  EXPECT_TRUE(ok(R"({"a": {}, "b": [], "c": [{}], "d": [[], {"e": []}]})"));
  EXPECT_TRUE(ok(R"("a \"quoted\" string \\")"));
  EXPECT_TRUE(ok("  \n\t 0 \r\n"));
  EXPECT_TRUE(ok("-12"));
}

TEST(JsonValueCheck, RefusesWhatSimdjsonSkipsUnseen) {
  EXPECT_FALSE(ok(R"({0071, "k": 1})"));  // the fuzzer's find
  EXPECT_FALSE(ok(R"({"k": 0071})"));     // a leading zero
  EXPECT_FALSE(ok(R"({"k": 1,})"));       // a trailing comma
  EXPECT_FALSE(ok(R"([1,])"));
  EXPECT_FALSE(ok(R"([,1])"));
  EXPECT_FALSE(ok(R"({"k" 1})"));   // no colon
  EXPECT_FALSE(ok(R"({"k": })"));   // no value
  EXPECT_FALSE(ok(R"({k: 1})"));    // a key that is not a string
  EXPECT_FALSE(ok(R"({"k": 1])"));  // the wrong closing bracket
  EXPECT_FALSE(ok(R"([1})"));
  EXPECT_FALSE(ok(R"({"k": "open)"));  // an unterminated string
  EXPECT_FALSE(ok(R"({"k": tru})"));
  EXPECT_FALSE(ok(R"({"k": -})"));
  EXPECT_FALSE(ok(R"({"k": .5})"));
  // Tokens of number bytes that are no number (scalar_ok checked only the first digits).
  for (const char* bad : {"1.2.3", "12abc", "1e", "1.", "1.e5", "1e+", "-", "2-1", "1ee2"})
    EXPECT_FALSE(ok(std::string("[") + bad + "]")) << bad;
  EXPECT_FALSE(ok("1 2"));  // two values
  EXPECT_FALSE(ok("{} x"));
  EXPECT_FALSE(ok(""));
  EXPECT_FALSE(ok("   "));
  EXPECT_FALSE(ok("{"));
  EXPECT_FALSE(ok("}"));
  EXPECT_FALSE(ok(R"("ends in an escape\)"));
}

TEST(JsonValueCheck, NestsAsDeepAsSimdjsonAndNoDeeper) {
  const auto nested = [](int depth) {
    return std::string(static_cast<std::size_t>(depth), '[') + "1" +
           std::string(static_cast<std::size_t>(depth), ']');
  };
  EXPECT_TRUE(ok(nested(1024)));
  EXPECT_FALSE(ok(nested(1025)));
  EXPECT_FALSE(ok(std::string(100000, '[')));  // no stack to overflow, however deep the text
  std::string objects;
  for (int i = 0; i < 200; ++i) objects += R"({"k": [)";
  for (int i = 0; i < 200; ++i) objects += "]}";
  EXPECT_TRUE(ok(objects));  // the object/array stack crosses several 64-bit words
  EXPECT_FALSE(ok(objects.substr(0, objects.size() - 1) + "]"));
}

TEST(JsonValueCheck, MinifiesOutsideStringsOnly) {
  EXPECT_EQ(minified(R"( { "External id" : 7 , "Input Dims" : [ [8, 4096] , [] ] } )"),
            R"({"External id":7,"Input Dims":[[8,4096],[]]})");
  EXPECT_EQ(minified(R"({"s": "a , b : \" c"})"), R"({"s":"a , b : \" c"})");
  EXPECT_EQ(minified("\t[ true ,\n null ]\n"), "[true,null]");
  EXPECT_EQ(minified(R"({"k": 0071})"), "(malformed)");
}

// The import checks args three ways: kept (checked while minified), not kept (walked through
// simdjson's index) and skipped with the events (`trace info`). A file must be accepted or refused
// the same way by all three, and as the check above decides.
// (The "correlation" ones: with args not kept, the correlation is read on the way, and a malformed
// one must fail alike.)
TEST(JsonValueCheck, EveryImportModeAgreesOnEveryArgsText) {
  const std::vector<std::string> args = {
      R"({"External id": 7, "Input Dims": [[8, 4096], []], "x": null, "f": -0.5e-3})",
      R"({})",
      R"([])",
      R"({"a": {}, "b": [[], {"e": [true, false]}]})",
      R"("s \" q")",
      "0",
      "-12",
      R"({0071, "k": 1})",
      R"({"k": 0071})",
      R"({"k": 1,})",
      R"([1,])",
      R"([,1])",
      R"({"k" 1})",
      R"({"k": })",
      R"({k: 1})",
      R"({"k": 1])",
      R"([1})",
      R"({"k": tru})",
      R"({"k": -})",
      R"({"k": .5})",
      R"({"k": [1 2]})",
      R"({"k": 1 "j": 2})",
      R"({"k": [01]})",
      R"([-01])",
      R"({"k": nul})",
      R"({"k": truex})",
      R"({"k": 1}})",
      R"({"correlation": 01})",
      R"({"correlation": -01})",
      R"({"correlation": 1x})",
      R"({"correlation": 12, "k": 01})",
      R"({"correlation": 12})"};
  for (const std::string& a : args) {
    const std::string json =
        R"([{"ph": "X", "name": "k", "pid": 1, "tid": 1, "ts": 1, "dur": 1, "args": )" + a + "}]";
    const bool expected = trace_json::JsonValueCheck(a).ok();
    TraceImportOptions kept, not_kept, counted;
    not_kept.keep_args = false;
    counted.keep_events = false;
    EXPECT_EQ(import_chrome_trace_text(json, "t.json", kept).ok(), expected) << a;
    EXPECT_EQ(import_chrome_trace_text(json, "t.json", not_kept).ok(), expected) << a;
    EXPECT_EQ(import_chrome_trace_text(json, "t.json", counted).ok(), expected) << a;
  }
}

TEST(TraceJsonText, TopLevelInteger) {
  const std::string_view key = "\"correlation\":";
  std::int64_t v = 0;
  EXPECT_TRUE(trace_json::top_level_integer(R"({"correlation":12})", key, v));
  EXPECT_EQ(v, 12);
  EXPECT_TRUE(
      trace_json::top_level_integer(R"({"a":{"correlation":1},"correlation":-3,"b":2})", key, v));
  EXPECT_EQ(v, -3);
  EXPECT_TRUE(
      trace_json::top_level_integer(R"({"s":"x\"correlation\":5","correlation":7})", key, v));
  EXPECT_EQ(v, 7);
  EXPECT_FALSE(trace_json::top_level_integer(R"({"a":{"correlation":1}})", key, v));
  EXPECT_FALSE(trace_json::top_level_integer(R"({"a":[{"correlation":1}]})", key, v));
  EXPECT_FALSE(trace_json::top_level_integer(R"({"s":"\"correlation\":5"})", key, v));
  EXPECT_FALSE(trace_json::top_level_integer(R"({"correlation":1.5})", key, v));
  EXPECT_FALSE(trace_json::top_level_integer(R"({"correlation":"5"})", key, v));
  EXPECT_FALSE(trace_json::top_level_integer(R"({"correlations":5})", key, v));
  EXPECT_FALSE(trace_json::top_level_integer("{}", key, v));
}

}  // namespace
}  // namespace slimpack

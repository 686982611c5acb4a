// The hand-written reader of one trace event (trace_event_reader.h), through the import: strings
// with escapes decoded as JSON defines them, numbers in every form JSON allows and none other,
// bytes that are no JSON refused with the byte named, and text cut anywhere by the window's end.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>

#include "trace/trace_import.h"

namespace slimpack {
namespace {

Expected<ImportedTrace> parse(const std::string& json, TraceImportOptions opt = {}) {
  return import_chrome_trace_text(json, "t.json", opt);
}

std::string error_of(const Expected<ImportedTrace>& r) {
  return r.ok() ? std::string("(no error)") : r.error().message;
}

std::string one_event(const std::string& fields) {
  return R"({"traceEvents": [{"ph": "X", "pid": 1, "tid": 1, "ts": 1, "dur": 1)" + fields + "}]}";
}

TEST(TraceEventReader, DecodesEscapesInNames) {
  auto t = parse(one_event(R"(, "name": "a\"b\\c\/d\u00e9\ud83d\ude00\n")"));
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_NE(std::find(t->names.begin(), t->names.end(), "a\"b\\c/d\xC3\xA9\xF0\x9F\x98\x80\n"),
            t->names.end());
}

TEST(TraceEventReader, RefusesBadEscapesInNamesItReads) {
  for (const char* bad :
       {R"(\x)", R"(\u12)", R"(\u12G4)", R"(\ud83d)", R"(\ude00)", R"(\ud83d\u0041)"}) {
    const std::string e = error_of(parse(one_event(R"(, "name": "a)" + std::string(bad) + "\"")));
    EXPECT_NE(e.find("traceEvents[0]: JSON error at byte"), std::string::npos) << bad << ": " << e;
    EXPECT_NE(e.find("Problem while parsing a string"), std::string::npos) << bad << ": " << e;
  }
}

TEST(TraceEventReader, RefusesControlBytesInStrings) {
  const std::string text = one_event(", \"name\": \"a\tb\"");
  const std::string e = error_of(parse(text));
  EXPECT_EQ(e, "t.json: traceEvents[0]: JSON error at byte " + std::to_string(text.find('\t')) +
                   ": Within strings, some characters must be escaped, we found unescaped "
                   "characters");
  // In a value the reader only passes over, too.
  EXPECT_NE(error_of(parse(one_event(", \"s\": \"a\x01\""))).find("must be escaped"),
            std::string::npos);
}

TEST(TraceEventReader, ReadsNumbersInEveryJsonForm) {
  auto t = parse(R"({"traceEvents": [
      {"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1.5e3, "dur": 25E-1},
      {"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": 2000.125, "dur": 0},
      {"ph": "X", "name": "c", "pid": 1, "tid": 1, "ts": 1669783687464181, "dur": 0.1},
      {"ph": "X", "name": "d", "pid": 1, "tid": 1, "ts": 1669783687464181.123, "dur": -0}]})");
  ASSERT_TRUE(t.ok()) << t.error().message;
  ASSERT_EQ(t->lanes.size(), 1u);
  const auto& ev = t->lanes[0].events;
  ASSERT_EQ(ev.size(), 4u);
  EXPECT_EQ(ev[0].start_us, 1500.0);
  EXPECT_EQ(ev[0].dur_us, 2.5);
  EXPECT_EQ(ev[1].start_us, 2000.125);
  EXPECT_EQ(ev[2].start_us, 1669783687464181.0);
  EXPECT_EQ(ev[2].dur_us, 0.1);
  EXPECT_EQ(ev[3].start_us, 1669783687464181.123);  // correctly rounded, as strtod rounds
}

TEST(TraceEventReader, RefusesNumbersJsonDoesNotHave) {
  for (const char* bad : {"01", "1.", ".5", "1e", "1e+", "1.2.3", "12abc", "+1", "--1", "0x10",
                          "1_000", "Infinity", "NaN"}) {
    const std::string e = error_of(parse(one_event(std::string(", \"x\": ") + bad)));
    EXPECT_NE(e.find("traceEvents[0]: JSON error at byte"), std::string::npos) << bad << ": " << e;
  }
  EXPECT_EQ(error_of(parse(one_event(", \"x\": [1, 2.5, -0.0, 1E+2, true, false, null]"))),
            "(no error)");
  EXPECT_NE(error_of(parse(one_event(", \"x\": [tru]"))).find("JSON error"), std::string::npos);
  EXPECT_NE(error_of(parse(one_event(", \"x\": nulll"))).find("JSON error"), std::string::npos);
}

TEST(TraceEventReader, PrintsNumericIdsAsTheirShortestText) {
  auto t = parse(R"({"traceEvents": [
      {"ph": "X", "name": "a", "pid": -0, "tid": 18446744073709551615, "ts": 1, "dur": 1},
      {"ph": "X", "name": "b", "pid": 2.50, "tid": -9223372036854775808, "ts": 1, "dur": 1}]})");
  ASSERT_TRUE(t.ok()) << t.error().message;
  ASSERT_EQ(t->lanes.size(), 2u);
  EXPECT_EQ(t->lanes[0].pid, "0");
  EXPECT_EQ(t->lanes[0].tid, "18446744073709551615");
  EXPECT_EQ(t->lanes[1].pid, "2.5");
  EXPECT_EQ(t->lanes[1].tid, "-9223372036854775808");
  EXPECT_NE(error_of(parse(one_event(", \"id\": 18446744073709551616"))).find("number"),
            std::string::npos);
}

TEST(TraceEventReader, ANulByteBetweenEventsIsAnErrorNotTheEnd) {
  std::string text = R"({"traceEvents": [{"ph": "i", "ts": 1}, )";
  const std::size_t at = text.size();
  text += std::string(1, '\0') + R"({"ph": "i", "ts": 2}]})";
  EXPECT_EQ(
      error_of(parse(text))
          .rfind("t.json: traceEvents[1]: JSON error at byte " + std::to_string(at) + ": ", 0),
      0u)
      << error_of(parse(text));
}

TEST(TraceEventReader, ArgsBeforePhAreReadOnceThePhaseIsKnown) {
  const std::string text = R"({"traceEvents": [
      {"args": {"name": "worker"}, "name": "thread_name", "ph": "M", "pid": 1, "tid": 7},
      {"args": {"Total Allocated": 4096, "Device Id": 0, "Device Type": 1}, "name": "[memory]",
       "ph": "i", "pid": 1, "tid": 7, "ts": 10},
      {"args": {"a\u00e9": 2.5, "b": "text"}, "name": "mem", "ph": "C", "pid": 1, "ts": 11},
      {"args": {"correlation": 42, "k": [1, {"x": null}]}, "name": "k", "ph": "X", "pid": 1,
       "tid": 7, "ts": 12, "dur": 1}]})";
  auto t = parse(text, {.keep_events = true, .keep_args = true});
  ASSERT_TRUE(t.ok()) << t.error().message;
  ASSERT_EQ(t->lanes.size(), 1u);
  EXPECT_EQ(t->lanes[0].thread_name, "worker");
  ASSERT_EQ(t->lanes[0].events.size(), 1u);
  EXPECT_EQ(t->args.at(static_cast<std::size_t>(t->lanes[0].events[0].args)),
            R"({"correlation":42,"k":[1,{"x":null}]})");
  ASSERT_EQ(t->memory.size(), 1u);
  ASSERT_EQ(t->counters.size(), 1u);
  EXPECT_EQ(t->counters[0].series, "a\xC3\xA9");
}

// A character of several bytes cut by the window's end waits for the rest of it; a bad byte
// anywhere is found, with its offset.
TEST(TraceEventReader, Utf8CutByTheWindowIsWholeOnceTheRestArrives) {
  const std::string head = R"({"traceEvents": [{"ph": "X", "pid": 1, "tid": 1, "ts": 1, "name": ")";
  std::string name;
  while (head.size() + name.size() < (std::size_t{1} << 20) + 100) name += "\xE2\x82\xAC";  // €
  const std::string text = head + name + R"(", "dur": 1}]})";
  for (int shift = 0; shift < 3; ++shift) {  // the window's end at each byte of a character
    const std::string shifted = std::string(static_cast<std::size_t>(shift), ' ') + text;
    const std::string path = ::testing::TempDir() + "utf8cut.json";
    std::ofstream(path, std::ios::binary) << shifted;
    auto t = import_chrome_trace(path);
    ASSERT_TRUE(t.ok()) << shift << ": " << t.error().message;
    EXPECT_EQ(t->events, 1);
    std::string bad = shifted;
    std::size_t at = bad.size() - 40;  // inside the name, past the first window: a lead byte
    while ((static_cast<unsigned char>(bad[at]) & 0xC0) == 0x80) --at;
    bad[at] = '\xFF';
    std::ofstream(path, std::ios::binary) << bad;
    auto b = import_chrome_trace(path);
    ASSERT_FALSE(b.ok());
    EXPECT_NE(b.error().message.find("JSON error at byte " + std::to_string(at) +
                                     ": The input is not valid UTF-8"),
              std::string::npos)
        << b.error().message;
  }
}

}  // namespace
}  // namespace slimpack

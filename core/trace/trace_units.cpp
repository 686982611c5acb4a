#include "trace/trace_units.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/json_util.h"
#include "trace/trace_flows.h"

namespace slimpack {
namespace {

using json_util::Json;

// std::regex (libstdc++) backtracks recursively: a very long subject or pattern can exhaust the
// stack or take exponential time. Event names past this length (real ones are under ~2 KB) are
// never units, and rule patterns past kMaxPatternLength are refused with a message.
constexpr std::size_t kMaxMatchedName = 4096;
constexpr std::size_t kMaxPatternLength = 512;

// libstdc++'s std::regex compiler copies the operand of a brace quantifier once per repetition
// ("(a{1000}){1000}" builds a million NFA states: memory and time without bound), reads repetition
// counts and back-reference numbers into a long without an overflow check (undefined behaviour),
// accepts a quantifier on a quantifier ("a*??{0,}", a syntax error in ECMAScript) and backtracks:
// nested repetitions such as "(a+)*" or stacked quantifiers take exponential time even on short
// names. The trace_rules fuzzer found the overflow and a stacked-quantifier hang. Patterns are
// checked for these before they are compiled; alternations that overlap ("(a|a)*") are not caught.
constexpr double kMaxPatternStates = 100000;
constexpr std::size_t kMaxPatternNumberDigits = 6;

// Empty when `p` is safe to compile; else why not, as a predicate ("has a ...", "nests ...").
// Weights estimate the states std::regex builds: an atom is 1, a group the sum of its contents,
// {n,m} multiplies by m (n + 1 when open-ended).
std::string pattern_problem(const std::string& p) {
  auto digits_at = [&](std::size_t i) {
    std::size_t j = i;
    while (j < p.size() && p[j] >= '0' && p[j] <= '9') ++j;
    return j - i;
  };
  // Per open group: its weight so far and its last atom's, and whether they hold a repetition of
  // unbounded (or widely variable) count.
  std::vector<double> total{0.0}, last{0.0};
  std::vector<char> inner{0}, last_inner{0};
  enum { kAfterAtom, kAfterQuantifier, kAfterLazy, kNothingToRepeat } state = kNothingToRepeat;
  auto atom = [&](double w, bool repeats) {
    total.back() += w;
    last.back() = w;
    last_inner.back() = repeats;
    state = kAfterAtom;
  };
  auto quantifier = [&](double count, bool variable) -> std::string {
    if (state != kAfterAtom) return "has a quantifier with nothing to repeat (or on a quantifier)";
    if (variable && last_inner.back())
      return "nests repetitions (\"(a+)*\" style), which take exponential time to match";
    const double w = last.back();
    total.back() += w * (std::max(count, 1.0) - 1.0);
    last.back() = w * std::max(count, 1.0);
    if (variable) inner.back() = last_inner.back() = 1;
    state = kAfterQuantifier;
    return {};
  };
  for (std::size_t i = 0; i < p.size();) {
    const char c = p[i];
    std::string why;
    if (c == '\\') {
      const std::size_t n = digits_at(i + 1);
      if (n > 2) return "has a back-reference number longer than 2 digits";
      i += n > 0 ? 1 + n : 2;
      atom(1.0, false);
    } else if (c == '[') {
      std::size_t j = i + 1;
      if (j < p.size() && p[j] == '^') ++j;
      if (j < p.size() && p[j] == ']') ++j;
      while (j < p.size() && p[j] != ']') j += p[j] == '\\' ? 2 : 1;
      i = j + 1;
      atom(1.0, false);
    } else if (c == '(') {
      // "(?:", "(?=", "(?!": the '?' is part of the group, not a quantifier.
      i += i + 2 < p.size() && p[i + 1] == '?' ? 3 : 1;
      total.push_back(0.0);
      last.push_back(0.0);
      inner.push_back(0);
      last_inner.push_back(0);
      state = kNothingToRepeat;
    } else if (c == ')') {
      ++i;
      if (total.size() > 1) {
        const double w = total.back();
        const bool repeats = inner.back() != 0;
        total.pop_back();
        last.pop_back();
        inner.pop_back();
        last_inner.pop_back();
        atom(w, repeats);
        if (repeats) inner.back() = 1;
      }
    } else if (c == '{') {
      const std::size_t n = digits_at(i + 1);
      if (n > kMaxPatternNumberDigits) return "has a repetition count longer than 6 digits";
      const double low = n > 0 ? std::stod(p.substr(i + 1, n)) : 0.0;
      double high = low;
      std::size_t j = i + 1 + n;
      bool open_ended = false;
      if (j < p.size() && p[j] == ',') {
        const std::size_t m = digits_at(j + 1);
        if (m > kMaxPatternNumberDigits) return "has a repetition count longer than 6 digits";
        open_ended = m == 0;
        high = m > 0 ? std::stod(p.substr(j + 1, m)) : low + 1.0;
        j += 1 + m;
      }
      if (j < p.size() && p[j] == '}') {
        i = j + 1;
        why = quantifier(high, open_ended || high - low > 1.0);
      } else {
        ++i;  // not a quantifier: std::regex decides whether it is valid
        atom(1.0, false);
      }
    } else if (c == '*' || c == '+') {
      ++i;
      why = quantifier(c == '+' ? 2.0 : 1.0, true);  // x+ is compiled as x x*
    } else if (c == '?') {
      ++i;
      if (state == kAfterQuantifier)
        state = kAfterLazy;  // "*?", "+?", "??", "{n,m}?": the lazy form
      else
        why = quantifier(1.0, false);
    } else if (c == '|') {
      ++i;
      last.back() = 0.0;
      last_inner.back() = 0;
      state = kNothingToRepeat;
    } else {
      ++i;
      atom(1.0, false);
    }
    if (!why.empty()) return why;
    double sum = 0.0;
    for (double t : total) sum += t;
    if (sum > kMaxPatternStates)
      return "repeats its parts too often (more than " +
             std::to_string(static_cast<long>(kMaxPatternStates)) +
             " copies once {n} counts are expanded)";
  }
  return {};
}

struct CompiledRule {
  const UnitRule* rule;
  std::regex name;
  std::regex category;
  std::regex lane;
};

UnitRule rule(std::string name, Pass pass, int pack_group, std::string category = {}) {
  UnitRule r;
  r.name_pattern = std::move(name);
  r.category_pattern = std::move(category);
  r.pass = pass;
  r.pack_group = pack_group;
  return r;
}

// An error about one rule, or about the list (`index` = npos): its field ("rules[2]", "rules") and
// reason as values, so the rules dialog marks the row without reading the words; the message also
// names the set ("megatron: rules[2]: ...").
Error rules_error(const UnitRuleSet& set, std::size_t index, const std::string& reason) {
  const bool list = index == std::string::npos;
  Error e = Error::bad_field(list ? "rules" : "rules[" + std::to_string(index) + "]", reason);
  e.message = set.name + ": " + (list ? reason : e.message);
  return e;
}

Expected<std::vector<CompiledRule>> compile(const UnitRuleSet& set) {
  std::vector<CompiledRule> out;
  out.reserve(set.rules.size());
  for (std::size_t i = 0; i < set.rules.size(); ++i) {
    const UnitRule& r = set.rules[i];
    const std::pair<const char*, const std::string*> patterns[] = {
        {"name", &r.name_pattern}, {"category", &r.category_pattern}, {"lane", &r.lane_pattern}};
    for (const auto& [field, p] : patterns) {
      if (p->size() > kMaxPatternLength)
        return rules_error(
            set, i, "a pattern longer than " + std::to_string(kMaxPatternLength) + " characters");
      if (const std::string why = pattern_problem(*p); !why.empty())
        return rules_error(set, i, std::string("the ") + field + " pattern " + why);
    }
    try {
      CompiledRule c{&r, std::regex(r.name_pattern, std::regex::ECMAScript | std::regex::optimize),
                     std::regex(r.category_pattern.empty() ? ".*" : r.category_pattern),
                     std::regex(r.lane_pattern)};
      if (r.pack_group < 0 || r.pack_group > static_cast<int>(c.name.mark_count()))
        return rules_error(set, i,
                           "pack_group " + std::to_string(r.pack_group) +
                               " but the name pattern has " + std::to_string(c.name.mark_count()) +
                               " capture groups");
      out.push_back(std::move(c));
    } catch (const std::regex_error& e) {
      return rules_error(set, i, std::string("invalid regular expression: ") + e.what());
    }
  }
  return out;
}

std::string lane_label(const TraceLane& lane) {
  return lane.label.empty() ? lane_key(lane.pid, lane.tid) : lane.label;
}

}  // namespace

// Any category but Kineto's copy of a record_function range on the GPU stream it launched work
// on: a rank's lanes are one stage, so the copy would count the range twice.
constexpr const char* kNotGpuCopy = "(?!gpu_user_annotation$).*";

const std::vector<std::string>& builtin_unit_rule_set_names() {
  static const std::vector<std::string> names = {"slimpack", "pytorch", "megatron", "dualpipe",
                                                 "torch-pp"};
  return names;
}

Expected<UnitRuleSet> builtin_unit_rules(const std::string& name) {
  UnitRuleSet set;
  set.name = name;
  if (name == "slimpack") {
    // "F3" / "B2" (1-based pack numbers): simulate --trace writes them with categories forward /
    // backward, a PyTorch runtime as record_function ranges (user_annotation, or no category in
    // the legacy profiler). Kineto repeats each annotation on the GPU stream it launched on
    // (gpu_user_annotation): that copy is not a second unit.
    set.rules = {rule("F([0-9]+)", Pass::Forward, 1, kNotGpuCopy),
                 rule("B([0-9]+)", Pass::Backward, 1, kNotGpuCopy)};
  } else if (name == "pytorch") {
    // record_function("F3") / ("B2") ranges of a PyTorch profiler trace, and nothing else.
    set.rules = {rule("F([0-9]+)", Pass::Forward, 1, "user_annotation|"),
                 rule("B([0-9]+)", Pass::Backward, 1, "user_annotation|")};
  } else if (name == "megatron") {
    // Megatron-LM's timer names as ranges (record_function / NVTX): one per micro-batch, in order.
    set.rules = {rule("forward-compute", Pass::Forward, 0, kNotGpuCopy),
                 rule("backward-compute", Pass::Backward, 0, kNotGpuCopy)};
  } else if (name == "dualpipe") {
    // DualPipe-style annotations "attn(F)", "mlp(B)", "attn(W)": each one a unit, in order; the
    // weight-gradient part (W) is backward work.
    set.rules = {rule(".*\\(F\\)", Pass::Forward, 0, kNotGpuCopy),
                 rule(".*\\([BW]\\)", Pass::Backward, 0, kNotGpuCopy)};
  } else if (name == "torch-pp") {
    // PyTorch's pipeline runtime (torch.distributed.pipelining, _PipelineScheduleRuntime) wraps
    // every action in a range "PP:<action>": "PP:0F3" is the forward of micro-batch 3 on stage
    // 0, "PP:0B3" its full backward, "PP:0I3" / "PP:0W3" its input and weight backward (both
    // backward work of the micro-batch: their times add up, as the full backward's would).
    // Micro-batches count from 0. The stage is the lane's; core/app checks the name's against it
    // and every other PP: range (SEND_F, RECV_B, REDUCE_GRAD, ...) against the plan.
    UnitRule f = rule("PP:[0-9]+F([0-9]+)", Pass::Forward, 1, kNotGpuCopy);
    UnitRule b = rule("PP:[0-9]+[BIW]([0-9]+)", Pass::Backward, 1, kNotGpuCopy);
    f.pack_base = b.pack_base = 0;
    set.rules = {f, b};
  } else {
    std::string known;
    for (const auto& n : builtin_unit_rule_set_names()) known += (known.empty() ? "" : ", ") + n;
    return Error::bad_input("unknown rule set '" + name + "' (built in: " + known +
                            "; or a rules JSON file)");
  }
  return set;
}

Expected<UnitRuleSet> parse_unit_rules(const std::string& json_text, const std::string& source) {
  auto doc = json_util::parse(json_text);
  if (!doc) return doc.error().with_context(source);
  const Json& root = *doc;
  const auto rules = root.is_object() ? root.find("rules") : root.end();
  if (!root.is_object() || rules == root.end() || !rules->is_array() || rules->empty())
    return Error::bad_input(source + ": $.rules: expected a non-empty array of rules");
  UnitRuleSet set;
  set.name = source;
  if (auto n = json_util::opt_string(root, "name", "$"); !n)
    return n.error().with_context(source);
  else if (n->has_value())
    set.name = **n;
  for (std::size_t i = 0; i < rules->size(); ++i) {
    const Json& entry = (*rules)[i];
    const std::string path = "$.rules[" + std::to_string(i) + "]";
    if (!entry.is_object()) return Error::bad_input(source + ": " + path + ": expected an object");
    UnitRule r;
    auto name = json_util::get_string(entry, "name", path);
    if (!name) return name.error().with_context(source);
    r.name_pattern = *name;
    auto cat = json_util::opt_string(entry, "category", path);
    if (!cat) return cat.error().with_context(source);
    r.category_pattern = cat->value_or("");
    auto lane = json_util::opt_string(entry, "lane", path);
    if (!lane) return lane.error().with_context(source);
    r.lane_pattern = lane->value_or("");
    auto pass = json_util::get_string(entry, "pass", path);
    if (!pass) return pass.error().with_context(source);
    if (*pass != "forward" && *pass != "backward")
      return Error::bad_input(source + ": " + path + ".pass: expected \"forward\" or \"backward\"");
    r.pass = *pass == "forward" ? Pass::Forward : Pass::Backward;
    auto group = json_util::opt_int(entry, "pack_group", path);
    if (!group) return group.error().with_context(source);
    auto base = json_util::opt_int(entry, "pack_base", path);
    if (!base) return base.error().with_context(source);
    if (group->value_or(0) < 0 || group->value_or(0) > 9 || base->value_or(1) < 0 ||
        base->value_or(1) > 1)
      return Error::bad_input(source + ": " + path + ": pack_group must be 0..9, pack_base 0 or 1");
    r.pack_group = static_cast<int>(group->value_or(0));
    r.pack_base = static_cast<int>(base->value_or(1));
    set.rules.push_back(std::move(r));
  }
  if (auto compiled = compile(set); !compiled) return compiled.error().with_context(source);
  return set;
}

std::string unit_rules_to_json(const UnitRuleSet& rules) {
  Json list = Json::array();
  for (const UnitRule& r : rules.rules) {
    Json entry = {{"name", r.name_pattern},
                  {"pass", r.pass == Pass::Forward ? "forward" : "backward"},
                  {"pack_group", r.pack_group},
                  {"pack_base", r.pack_base}};
    if (!r.category_pattern.empty()) entry["category"] = r.category_pattern;
    if (!r.lane_pattern.empty()) entry["lane"] = r.lane_pattern;
    list.push_back(std::move(entry));
  }
  return Json{{"name", rules.name}, {"rules", std::move(list)}}.dump(2) + "\n";
}

Status validate_unit_rules(const UnitRuleSet& rules) {
  if (rules.rules.empty())
    return rules_error(rules, std::string::npos, "no rules (at least one is needed)");
  for (std::size_t i = 0; i < rules.rules.size(); ++i) {
    const UnitRule& r = rules.rules[i];
    if (r.pack_base < 0 || r.pack_base > 1)
      return rules_error(rules, i, "pack_base must be 0 or 1");
  }
  if (auto compiled = compile(rules); !compiled) return compiled.error();
  return {};
}

Expected<UnitRuleSet> read_unit_rules(const std::string& path) {
  auto text = json_util::read_file(path);
  if (!text) return text.error();
  return parse_unit_rules(*text, path);
}

double union_length(const std::vector<TraceEvent>& sorted_events) {
  double total = 0.0, run_start = 0.0, run_end = 0.0;
  bool open = false;
  for (const TraceEvent& e : sorted_events) {
    const double end = e.start_us + std::max(0.0, e.dur_us);
    if (!open || e.start_us > run_end) {
      if (open) total += run_end - run_start;
      run_start = e.start_us;
      run_end = end;
      open = true;
    } else {
      run_end = std::max(run_end, end);
    }
  }
  if (open) total += run_end - run_start;
  return total;
}

namespace {

// The units of one file into `out` (its lanes appended to out.lanes).
void map_one(const ImportedTrace& trace, const LaneMapping& lanes,
             const std::vector<CompiledRule>& compiled, GpuTime gpu_time, int source,
             MappedTrace& out) {
  std::optional<FlowIndex> flows;
  if (gpu_time == GpuTime::Flows) flows.emplace(trace);
  for (std::size_t li = 0; li < trace.lanes.size(); ++li) {
    const TraceLane& lane = trace.lanes[li];
    LaneActivity act;
    act.source = source;
    act.lane = li;
    act.stage = stage_of(lanes, lane);
    act.replica = replica_of(lanes, lane);
    act.busy_us = union_length(lane.events);
    if (!lane.events.empty()) {
      double last = 0.0;
      for (const TraceEvent& e : lane.events) last = std::max(last, e.start_us + e.dur_us);
      act.span_us = last - lane.events.front().start_us;
      act.idle_ratio = act.span_us > 0.0 ? 1.0 - act.busy_us / act.span_us : 0.0;
    }
    if (act.stage >= 0) {
      std::string label = lane_label(lane);
      if (label.size() > kMaxMatchedName) label.resize(kMaxMatchedName);
      std::vector<const CompiledRule*> usable;
      for (const CompiledRule& c : compiled)
        if (c.rule->lane_pattern.empty() || std::regex_search(label, c.lane)) usable.push_back(&c);
      // Rules are matched once per distinct (name, category) of the lane, not once per event.
      std::unordered_map<std::uint64_t, int> decided;
      int next_in_order[2] = {0, 0};
      for (const TraceEvent& e : lane.events) {
        const std::uint64_t key =
            (static_cast<std::uint64_t>(static_cast<std::uint32_t>(e.name)) << 32) |
            static_cast<std::uint32_t>(e.cat);
        auto [it, fresh] = decided.try_emplace(key, -1);
        const std::string& name = trace.names[static_cast<std::size_t>(e.name)];
        if (fresh && name.size() <= kMaxMatchedName) {
          const std::string& cat = trace.names[static_cast<std::size_t>(e.cat)];
          for (std::size_t r = 0; r < usable.size(); ++r) {
            if (std::regex_match(name, usable[r]->name) &&
                std::regex_match(cat, usable[r]->category)) {
              it->second = static_cast<int>(r);
              break;
            }
          }
        }
        if (it->second < 0) continue;
        const UnitRule& r = *usable[static_cast<std::size_t>(it->second)]->rule;
        int pack = 0;
        if (r.pack_group > 0) {
          std::smatch m;
          std::regex_match(name, m, usable[static_cast<std::size_t>(it->second)]->name);
          const std::string digits = m[static_cast<std::size_t>(r.pack_group)].str();
          long long v = -1;
          const auto res = std::from_chars(digits.data(), digits.data() + digits.size(), v);
          if (res.ec != std::errc() || v - r.pack_base < 0 || v > (1LL << 30)) continue;
          pack = static_cast<int>(v - r.pack_base);
        } else {
          pack = next_in_order[r.pass == Pass::Forward ? 0 : 1]++;
        }
        MeasuredUnit u{act.replica, act.stage, r.pass, pack, e.start_us, e.dur_us, e.name};
        u.source = source;
        u.lane = static_cast<std::int32_t>(li);
        u.event = e.index;
        if (flows) {
          if (auto gpu = flows->gpu_span(static_cast<std::int32_t>(li), e.start_us,
                                         e.start_us + e.dur_us)) {
            u.start_us = gpu->start_us;
            u.dur_us = gpu->end_us - gpu->start_us;
            u.kernels = gpu->kernels;
          }
        }
        out.units.push_back(u);
        ++act.units;
      }
    }
    out.lanes.push_back(act);
  }
}

}  // namespace

Expected<MappedTrace> map_trace_files(const std::vector<TraceFileMapping>& files,
                                      const UnitRuleSet& rules, GpuTime gpu_time) {
  auto compiled = compile(rules);
  if (!compiled) return compiled.error();
  MappedTrace out;
  out.rule_set = rules.name;
  for (std::size_t i = 0; i < files.size(); ++i) {
    out.sources.push_back(files[i].label.empty() ? files[i].trace->source : files[i].label);
    out.names.push_back(files[i].trace->names);
    map_one(*files[i].trace, files[i].lanes, *compiled, gpu_time, static_cast<int>(i), out);
  }
  if (out.units.empty()) {
    std::string tried;
    for (const UnitRule& r : rules.rules) tried += (tried.empty() ? "" : ", ") + r.name_pattern;
    const std::string where = files.size() == 1 ? files.front().trace->source
                                                : std::to_string(files.size()) + " trace files";
    return Error::bad_input(where + ": no event matches the rules of '" + rules.name + "' (" +
                            tried + ") on a mapped lane; try another rule set");
  }
  std::sort(out.units.begin(), out.units.end(), [](const MeasuredUnit& a, const MeasuredUnit& b) {
    if (a.replica != b.replica) return a.replica < b.replica;
    if (a.stage != b.stage) return a.stage < b.stage;
    if (a.pass != b.pass) return a.pass < b.pass;
    if (a.pack != b.pack) return a.pack < b.pack;
    return a.start_us < b.start_us;
  });
  return out;
}

Expected<MappedTrace> map_trace_units(const ImportedTrace& trace, const LaneMapping& lanes,
                                      const UnitRuleSet& rules, GpuTime gpu_time) {
  return map_trace_files({{&trace, trace.source, lanes}}, rules, gpu_time);
}

}  // namespace slimpack

#include "schedule/torch_pp_actions.h"

#include <algorithm>
#include <array>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <utility>

namespace slimpack {
namespace {

struct TypeName {
  TorchPPType type;
  const char* name;
};

// Longest names first, as torch's regex tries them: "SEND_F" before "F".
constexpr std::array<TypeName, 14> kTypes = {{
    {TorchPPType::WaitReduceGrad, "WAIT_REDUCE_GRAD"},
    {TorchPPType::WaitSendF, "WAIT_SEND_F"},
    {TorchPPType::WaitSendB, "WAIT_SEND_B"},
    {TorchPPType::ReduceGrad, "REDUCE_GRAD"},
    {TorchPPType::Unshard, "UNSHARD"},
    {TorchPPType::Reshard, "RESHARD"},
    {TorchPPType::SendF, "SEND_F"},
    {TorchPPType::RecvF, "RECV_F"},
    {TorchPPType::SendB, "SEND_B"},
    {TorchPPType::RecvB, "RECV_B"},
    {TorchPPType::Forward, "F"},
    {TorchPPType::BackwardInput, "I"},
    {TorchPPType::FullBackward, "B"},
    {TorchPPType::BackwardWeight, "W"},
}};

constexpr const char* kSyntax =
    "PyTorch's pipeline action syntax (a stage number, then F, B, I, W, SEND_F, RECV_F, SEND_B, "
    "RECV_B, WAIT_SEND_F, WAIT_SEND_B, UNSHARD, RESHARD, REDUCE_GRAD or WAIT_REDUCE_GRAD, then "
    "the micro-batch: 0F3, 1SEND_F3)";

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

// A run of at most 9 digits at the front of `s` as a number, or -1.
int leading_number(std::string_view s, std::size_t& used) {
  used = 0;
  while (used < s.size() && is_digit(s[used])) ++used;
  if (used == 0 || used > 9) return -1;
  int v = 0;
  for (std::size_t i = 0; i < used; ++i) v = v * 10 + (s[i] - '0');
  return v;
}

Error not_an_action(std::string_view text, const std::string& why) {
  return Error::bad_input("'" + std::string(text) + "' is not an action of " + kSyntax +
                          (why.empty() ? "" : ": " + why));
}

Expected<TorchPPAction> parse_overlap(std::string_view text) {
  const std::size_t close = text.find(')');
  if (close == std::string_view::npos) return not_an_action(text, "no ')'");
  if (text.substr(close + 1) != "OVERLAP_F_B")
    return not_an_action(text, "only OVERLAP_F_B holds sub-actions");
  TorchPPAction out;
  out.stage = -1;
  out.type = TorchPPType::OverlapFB;
  std::string_view inner = text.substr(1, close - 1);
  while (!inner.empty()) {
    const std::size_t semi = inner.find(';');
    const std::string_view part = trim(inner.substr(0, semi));
    if (!part.empty()) {
      auto sub = parse_torch_pp_action(part);
      if (!sub) return sub.error();
      out.parts.push_back(std::move(*sub));
    }
    if (semi == std::string_view::npos) break;
    inner.remove_prefix(semi + 1);
  }
  return out;
}

}  // namespace

const char* torch_pp_type_name(TorchPPType type) {
  if (type == TorchPPType::OverlapFB) return "OVERLAP_F_B";
  for (const TypeName& t : kTypes)
    if (t.type == type) return t.name;
  return "?";
}

bool torch_pp_is_compute(TorchPPType type) {
  return type == TorchPPType::Forward || type == TorchPPType::BackwardInput ||
         type == TorchPPType::BackwardWeight || type == TorchPPType::FullBackward ||
         type == TorchPPType::OverlapFB;
}

bool torch_pp_has_microbatch(TorchPPType type) {
  return type != TorchPPType::Unshard && type != TorchPPType::Reshard &&
         type != TorchPPType::ReduceGrad && type != TorchPPType::WaitReduceGrad &&
         type != TorchPPType::OverlapFB;
}

std::string torch_pp_action_text(const TorchPPAction& action) {
  if (action.type == TorchPPType::OverlapFB) {
    std::string inner;
    for (const TorchPPAction& p : action.parts)
      inner += (inner.empty() ? "" : ";") + torch_pp_action_text(p);
    return "(" + inner + ")OVERLAP_F_B";
  }
  std::string out = std::to_string(action.stage) + torch_pp_type_name(action.type);
  if (action.microbatch >= 0) out += std::to_string(action.microbatch);
  return out;
}

Expected<TorchPPAction> parse_torch_pp_action(std::string_view text) {
  text = trim(text);
  if (text.empty()) return not_an_action(text, "an empty action");
  if (text.front() == '(') return parse_overlap(text);
  std::size_t used = 0;
  TorchPPAction a;
  a.stage = leading_number(text, used);
  if (a.stage < 0) return not_an_action(text, "it does not start with a stage number");
  std::string_view rest = text.substr(used);
  const TypeName* found = nullptr;
  for (const TypeName& t : kTypes) {
    const std::string_view name = t.name;
    if (rest.substr(0, name.size()) == name) {
      found = &t;
      break;
    }
  }
  if (found == nullptr) return not_an_action(text, "");
  a.type = found->type;
  rest.remove_prefix(std::string_view(found->name).size());
  if (!rest.empty()) {
    a.microbatch = leading_number(rest, used);
    if (a.microbatch < 0 || used != rest.size()) return not_an_action(text, "");
  }
  if (torch_pp_has_microbatch(a.type) && a.microbatch < 0)
    return not_an_action(text, std::string(found->name) + " needs a micro-batch number");
  if (!torch_pp_has_microbatch(a.type) && a.microbatch >= 0)
    return not_an_action(text, std::string(found->name) + " takes no micro-batch number");
  return a;
}

std::string torch_pp_csv_text(const TorchPPRows& rows) {
  std::string out;
  for (const auto& row : rows) {
    for (std::size_t i = 0; i < row.size(); ++i)
      out += (i == 0 ? "" : ",") + torch_pp_action_text(row[i]);
    out += '\n';
  }
  return out;
}

bool looks_like_torch_pp_csv(std::string_view first_line) {
  const std::string_view cell = trim(first_line.substr(0, first_line.find(',')));
  if (cell.empty()) return false;
  return std::all_of(cell.begin(), cell.end(), [](char c) {
    return is_digit(c) || (c >= 'A' && c <= 'Z') || c == '_' || c == '(' || c == ')' || c == ';';
  });
}

Expected<TorchPPTable> parse_torch_pp_csv(const std::string& text, const std::string& file) {
  TorchPPTable table;
  table.file = file;
  std::size_t at = 0;
  int line = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    std::string_view row_text(text.data() + at, end - at);
    at = end + 1;
    ++line;
    if (!row_text.empty() && row_text.back() == '\r') row_text.remove_suffix(1);
    std::vector<TorchPPAction> row;
    int cell = 0;
    for (;;) {
      const std::size_t comma = row_text.find(',');
      std::string_view part = trim(row_text.substr(0, comma));
      ++cell;
      if (part.size() >= 2 && part.front() == '"' && part.back() == '"')
        part = trim(part.substr(1, part.size() - 2));
      if (!part.empty()) {
        auto a = parse_torch_pp_action(part);
        if (!a)
          return Error::bad_input(file + ": row " + std::to_string(line) + " (rank " +
                                  std::to_string(line - 1) + "), cell " + std::to_string(cell) +
                                  ": " + a.error().message);
        row.push_back(std::move(*a));
      }
      if (comma == std::string_view::npos) break;
      row_text.remove_prefix(comma + 1);
    }
    table.rows.push_back(std::move(row));
  }
  if (table.rows.empty())
    return Error::bad_input(file + ": no rows (one row of actions per pipeline rank)");
  return table;
}

Expected<TorchPPTable> read_torch_pp_csv(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error::bad_input(path + ": cannot open");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_torch_pp_csv(text.str(), path);
}

Expected<TorchPPStages> torch_pp_stages(const TorchPPTable& table) {
  TorchPPStages out;
  std::map<int, int> rank_of_stage;
  // Per stage: the micro-batches that ran F, B, I and W.
  std::map<int, std::array<std::set<int>, 4>> seen;
  auto where = [&](std::size_t r) {
    return table.file + ": row " + std::to_string(r + 1) + " (rank " + std::to_string(r) + ")";
  };
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    int stage = -1;
    for (const TorchPPAction& whole : table.rows[r]) {
      const std::vector<TorchPPAction> one{whole};
      for (const TorchPPAction& a : whole.type == TorchPPType::OverlapFB ? whole.parts : one) {
        if (stage >= 0 && a.stage != stage)
          return Error::bad_input(
              where(r) + " runs stages " + std::to_string(stage) + " and " +
              std::to_string(a.stage) +
              ": a looped or V schedule; SlimPack plans run one stage per rank");
        stage = a.stage;
        auto& sets = seen[a.stage];
        const std::string text = torch_pp_action_text(a);
        switch (a.type) {
          case TorchPPType::Forward:
            sets[0].insert(a.microbatch);
            break;
          case TorchPPType::FullBackward:
          case TorchPPType::BackwardInput:
            if (!sets[0].count(a.microbatch))
              return Error::bad_input(where(r) + ": " + text + " runs before the forward " +
                                      std::to_string(a.stage) + "F" + std::to_string(a.microbatch));
            sets[a.type == TorchPPType::FullBackward ? 1 : 2].insert(a.microbatch);
            break;
          case TorchPPType::BackwardWeight:
            if (!sets[2].count(a.microbatch))
              return Error::bad_input(where(r) + ": " + text + " runs before its input backward " +
                                      std::to_string(a.stage) + "I" + std::to_string(a.microbatch));
            sets[3].insert(a.microbatch);
            break;
          default:
            break;
        }
      }
    }
    if (stage < 0) return Error::bad_input(where(r) + " has no action");
    if (const auto [it, fresh] = rank_of_stage.try_emplace(stage, static_cast<int>(r)); !fresh)
      return Error::bad_input(where(r) + " runs stage " + std::to_string(stage) + ", which row " +
                              std::to_string(it->second + 1) + " runs too");
    out.stage_of_rank.push_back(stage);
  }
  const int stages = static_cast<int>(table.rows.size());
  for (const auto& [stage, sets] : seen)
    if (stage >= stages)
      return Error::bad_input(table.file + ": stage " + std::to_string(stage) + " on " +
                              std::to_string(stages) + " rows: the stages are 0 to " +
                              std::to_string(stages - 1) + ", one per row");
  out.microbatches = static_cast<int>(seen.begin()->second[0].size());
  for (const auto& [stage, sets] : seen) {
    const int m = out.microbatches;
    const std::string s = "stage " + std::to_string(stage);
    if (static_cast<int>(sets[0].size()) != m || (m > 0 && *sets[0].rbegin() != m - 1))
      return Error::bad_input(table.file + ": " + s + " runs " + std::to_string(sets[0].size()) +
                              " forward micro-batches, stage " +
                              std::to_string(seen.begin()->first) + " " + std::to_string(m) +
                              " (0 to " + std::to_string(m - 1) + ")");
    if (sets[2].size() != sets[3].size() || static_cast<int>(sets[1].size() + sets[2].size()) != m)
      return Error::bad_input(table.file + ": " + s + " runs " + std::to_string(sets[1].size()) +
                              " full and " + std::to_string(sets[2].size()) + " input / " +
                              std::to_string(sets[3].size()) + " weight backwards for " +
                              std::to_string(m) + " micro-batches");
  }
  return out;
}

}  // namespace slimpack

#include "app/search_space_text.h"

#include <algorithm>
#include <utility>

namespace slimpack {
namespace {

std::string trimmed(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(first, last - first + 1));
}

// Calls f(list, member) with the space's list for `option` and the ConfigSpec field its values are
// of; false for an option that is not searched.
template <class Space, class F>
bool with_list(Space& s, std::string_view option, F&& f) {
  if (option == "pp") return f(s.pp, &ConfigSpec::pp), true;
  if (option == "tp") return f(s.tp, &ConfigSpec::tp), true;
  if (option == "cp") return f(s.cp, &ConfigSpec::cp), true;
  if (option == "dp") return f(s.dp, &ConfigSpec::dp), true;
  if (option == "slice") return f(s.slices, &ConfigSpec::slice_size), true;
  if (option == "recompute") return f(s.recompute, &ConfigSpec::recompute), true;
  if (option == "schedule") return f(s.schedules, &ConfigSpec::schedule), true;
  if (option == "strategy") return f(s.strategies, &ConfigSpec::strategy), true;
  return false;
}

}  // namespace

Status set_space_list(SearchSpace& space, std::string_view option, const std::string& text,
                      const std::string& name) {
  const ConfigOption* o = find_option(option);
  if (!o) return Error::internal(name + ": not a searched option");
  Status result;
  const bool known = with_list(space, option, [&](auto& list, auto member) {
    std::remove_reference_t<decltype(list)> values;
    std::string_view rest = text;
    while (!rest.empty()) {
      const auto comma = rest.find(',');
      const std::string item = trimmed(rest.substr(0, comma));
      rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
      if (item.empty()) continue;
      auto value = parse_option_text(*o, item, name);
      if (!value) return void(result = value.error());
      ScenarioSpec scratch;
      if (Status s = set_option(*o, scratch, *value, name); !s) return void(result = s);
      values.push_back(scratch.config.*member);
    }
    list = std::move(values);
  });
  if (!known) return Error::internal(name + ": not a searched option");
  return result;
}

std::string space_list_text(const SearchSpace& space, std::string_view option) {
  const ConfigOption* o = find_option(option);
  std::string out;
  if (!o) return out;
  with_list(space, option, [&](const auto& list, auto member) {
    for (const auto& v : list) {
      ScenarioSpec scratch;
      scratch.config.*member = v;
      out += (out.empty() ? "" : ",") + option_text(*o, o->get(scratch));
    }
  });
  return out;
}

std::string space_list_default(std::string_view option) {
  constexpr std::pair<std::string_view, const char*> kDefaults[] = {
      {"pp", "powers of two up to the model's layers"},
      {"tp", "powers of two within a node dividing the heads"},
      {"cp", "1,2,4,8"},
      {"dp", "powers of two and the largest that fits"},
      {"slice", "0 = the strategy's choice"},
      {"recompute", "none,selective,full,auto"},
      {"schedule", "1f1b"},
      {"strategy", "fixed,slimpack"}};
  for (const auto& [key, text] : kDefaults)
    if (key == option) return text;
  return {};
}

Error name_search_error(const Error& error, std::string (*naming)(const ConfigOption&),
                        std::string (*own)(std::string_view field)) {
  constexpr std::string_view kOwn[] = {"gpus", "min gpus", "gpus per node", "batches", "shard"};
  if (std::find(std::begin(kOwn), std::end(kOwn), error.field) != std::end(kOwn)) {
    Error named = Error::bad_field(own(error.field), error.field_reason);
    named.kind = error.kind;
    return named;
  }
  return name_option_in(error, naming);
}

}  // namespace slimpack

#pragma once
// A search space's lists as text, the one reader the CLI (`--pp 2,4,8`) and the explorer's Search
// tab (its "p" field) share: each value is checked by the option table as the single option is, so
// a bad value gives the same reason in both front ends.
#include <array>
#include <string>
#include <string_view>

#include "app/config_options.h"
#include "app/search_space.h"
#include "common/status.h"

namespace slimpack {

// The searched options by their option-table keys, in the order of SearchConfig's fields.
inline constexpr std::array<std::string_view, 8> kSearchListOptions = {
    "pp", "tp", "cp", "dp", "slice", "recompute", "schedule", "strategy"};

// Sets the list of `option` (a key above) from comma-separated text: "2, 4,8"; blank items are
// skipped and blank text means automatic (the list emptied). Errors are "<name>: <reason>".
Status set_space_list(SearchSpace& space, std::string_view option, const std::string& text,
                      const std::string& name);

// The list as set_space_list reads it back ("2,4,8"; "" when automatic).
std::string space_list_text(const SearchSpace& space, std::string_view option);

// What the space tries when the list is automatic, for help texts and placeholders.
std::string space_list_default(std::string_view option);

// An error about a searched list or the search's own settings (resolve_space, enumerate_space,
// set_space_list) named in one front end's spelling: `naming` names the options ("--pp" or "p"),
// `own` the search's settings by field ("gpus", "min gpus", "gpus per node").
Error name_search_error(const Error& error, std::string (*naming)(const ConfigOption&),
                        std::string (*own)(std::string_view field));

}  // namespace slimpack

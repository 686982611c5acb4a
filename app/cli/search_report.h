#pragma once
// The text `slimpack search` and `slimpack search merge` print: counts, the ranked table, the
// front and the infeasible configurations grouped by the limit that binds.
#include <string>

#include "app/search.h"

namespace slimpack::cli {

// `top`: how many ranked rows to print (the front is printed whole).
std::string search_report(const SearchResult& result, int top);

}  // namespace slimpack::cli

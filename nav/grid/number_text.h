// Numbers in messages, exactly: the value a caller gave or a limit, as text that reads back to
// the very same double (`1000001`, `0.1`, `1e+300`), never rounded to six digits as `%g` and
// absl::StrCat round them (`1e+06`), which can make a refused value look like the limit.
#pragma once

#include <string>

namespace walk::nav {

// Whole numbers below 1e15 as integers ("1000000"); others the shortest text that reads back to
// `value` ("0.1", "1e+300"); "nan", "inf", "-inf" for those.
std::string NumberText(double value);
// The same for a float: the shortest text that reads back to the same float ("1e+30", "0.1").
std::string NumberText(float value);

}  // namespace walk::nav

// walkctl routes: the routes stage. Prices candidate routes (ordered stops, a character level),
// improves the order of the stops marked free, and reports what was saved (docs/routes.md).
#pragma once

#include <string>

#include "client/connection.h"

namespace walk::client {

struct RoutesArgs {
  Connection connection;    // walkd
  std::string routes_path;  // the routes file (JSON)
  std::string out_path;     // where to write the priced routes (JSON lines); "" : stdout
  double timeout_s = 3600;
};

int RunRoutes(const RoutesArgs& args);

}  // namespace walk::client

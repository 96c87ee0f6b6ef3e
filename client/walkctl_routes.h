// walkctl routes: the routes stage. Prices candidate routes (ordered stops, a character level),
// each leg a walk or, where the world has a travel network, a trip; improves the order of the
// stops marked free, and reports what was saved (docs/routes.md).
#pragma once

#include <string>

#include "client/connection.h"

namespace walk::client {

struct RoutesArgs {
  Connection connection;    // walkd
  std::string routes_path;  // the routes file (JSON)
  std::string out_path;     // where to write the priced routes (JSON lines); "" : stdout
  double timeout_s = 3600;
  // Price legs as trips (walks joined with the world's travel network): "on", "off", or "auto"
  // (when Info lists a travel network for the world).
  std::string trips = "auto";
};

int RunRoutes(const RoutesArgs& args);

}  // namespace walk::client

// What the tests that talk to walkd through walk::client share: a place by its yards, and a wait
// until walkd serves.
#pragma once

#include <chrono>
#include <cstdint>
#include <thread>

#include "client/walk_client.h"
#include "tests/integration/walkd_process.h"

namespace walk::testing {

inline walk::v1::Place At(double x, double y, std::uint32_t continent = 0) {
  walk::v1::Place p;
  p.set_continent(continent);
  p.set_x_yards(x);
  p.set_y_yards(y);
  return p;
}

// Waits until walkd's health check says SERVING, looking every 50 ms for a minute (times the tests'
// patience); false if it never does.
inline bool WaitServing(client::WalkClient& client) {
  using grpc::health::v1::HealthCheckResponse;
  for (int look = 0; look < 1200 * Patience(); ++look) {
    HealthCheckResponse::ServingStatus status;
    if (client.Health("", &status).ok() && status == HealthCheckResponse::SERVING) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

}  // namespace walk::testing

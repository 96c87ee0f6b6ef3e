#include "nav/profile.h"

#include <algorithm>
#include <limits>

namespace walk::nav {
namespace {

// "shortest": every kind of link costs its length, so the cheapest walk is the shortest one.
// This is the MovingAI benchmark's metric (1 per side, sqrt(2) per diagonal).
Profile MakeShortest() {
  Profile p;
  p.name = "shortest";
  p.kind_multiplier.fill(1.0);
  return p;
}

const std::vector<Profile>& Profiles() {
  static const std::vector<Profile>* profiles = new std::vector<Profile>{MakeShortest()};
  return *profiles;
}

}  // namespace

double Profile::MinMultiplier() const {
  return *std::min_element(kind_multiplier.begin(), kind_multiplier.end());
}

const Profile* FindProfile(std::string_view name) {
  if (name.empty()) name = "shortest";
  for (const Profile& p : Profiles()) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

std::vector<std::string> ProfileNames() {
  std::vector<std::string> names;
  for (const Profile& p : Profiles()) names.push_back(p.name);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace walk::nav

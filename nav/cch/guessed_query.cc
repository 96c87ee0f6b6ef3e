#include "nav/cch/guessed_query.h"

namespace walk::nav {

CchResult RunGuessed(CchSplitQuery& split, CchQuery& tree, const GuessedCchRequest& request,
                     std::vector<std::uint32_t>* arc_path, bool* asked_twice) {
  if (!(request.lower > 0.0)) {  // ends too close for a guess to help (and to learn from)
    if (asked_twice != nullptr) *asked_twice = false;
    return tree.Run(request.metric,
                    {.sources = request.sources,
                     .targets = request.targets,
                     .bound = &request.bound,
                     .patch = request.patch},
                    arc_path);
  }
  const CchResult r = split.Run(request.metric,
                                {.sources = request.sources,
                                 .targets = request.targets,
                                 .bound = &request.bound,
                                 .below = request.guess.Upper(request.lower),
                                 .patch = request.patch},
                                arc_path, request.both);
  return RetryUnguessed(tree, request, r, arc_path, asked_twice);
}

CchResult RetryUnguessed(CchQuery& tree, const GuessedCchRequest& request, CchResult r,
                         std::vector<std::uint32_t>* arc_path, bool* asked_twice) {
  if (asked_twice != nullptr) *asked_twice = !r.found;
  if (!r.found) {
    r = tree.Run(request.metric,
                 {.sources = request.sources,
                  .targets = request.targets,
                  .bound = &request.bound,
                  .patch = request.patch},
                 arc_path);
  }
  if (r.found) request.guess.Learn(request.lower, r.cost);
  return r;
}

}  // namespace walk::nav

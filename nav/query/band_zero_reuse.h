// A danger band re-walks only what danger can change. Danger multiplies the seconds of the
// surfaces a band prices and nothing else, so no walk costs less in a band than in band 0; band
// 0's walk, when it enters no surface the band prices (the ends' zones exempt), costs the same
// in the band, and is therefore the band's answer too, exactly. The seed product decides this by
// the straight line between the ends; walkd decides it by band 0's walk itself, which is exact
// where the straight line is only likely (docs/cost_model.md).
#pragma once

#include "nav/cost/metric.h"
#include "nav/query/answer.h"

namespace walk::nav {

// True when `base`, band 0's answer of a pair under the same profile, is the answer of `band`:
// a pair without a walk in band 0 has none in any band (danger never forbids), and a walk whose
// zone cells name no zone `band` prices but the ends' (base.from_zone, base.to_zone) costs the
// same in both.
bool BandZeroAnswers(const WalkAnswer& base, const Metric& band);

}  // namespace walk::nav

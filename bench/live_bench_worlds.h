// live_bench --worlds: what a game server pays for worlds that come and go (nav/live/world_set.h),
// in this process: create (parse, compose, regions), first path, reset and drop of 256², 512² and
// 1024² worlds, each beside a full recomposition of the same world as the baseline; and resident
// memory before, during and after `rounds` worlds created and dropped.
#pragma once

namespace walk::bench {

// Prints the figures; 0, or 1 when a world could not be created.
int RunWorldsBench(int rounds, unsigned seed);

}  // namespace walk::bench

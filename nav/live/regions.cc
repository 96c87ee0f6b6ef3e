#include "nav/live/regions.h"

#include <algorithm>
#include <cassert>

namespace walk::nav::live {

void Regions::Resize(std::int32_t width, std::int32_t height) {
  width_ = width;
  height_ = height;
  const std::size_t n = static_cast<std::size_t>(width) * height;
  label_.assign(n, kNoRegion);
  stamp_.assign(n, 0);
  group_.assign(n, 0);
  queue_.reserve(n);
  generation_ = 0;
}

std::uint32_t Regions::NewLabel() {
  const std::uint32_t l = static_cast<std::uint32_t>(parent_.size());
  parent_.push_back(l);
  rank_.push_back(0);
  return l;
}

std::uint32_t Regions::Find(std::uint32_t l) {
  while (parent_[l] != l) {
    parent_[l] = parent_[parent_[l]];
    l = parent_[l];
  }
  return l;
}

void Regions::Union(std::uint32_t a, std::uint32_t b) {
  a = Find(a);
  b = Find(b);
  if (a == b) return;
  if (rank_[a] < rank_[b]) std::swap(a, b);
  parent_[b] = a;
  if (rank_[a] == rank_[b]) ++rank_[a];
}

std::uint32_t Regions::NextGeneration() {
  if (++generation_ == 0) {  // wrapped: the only time the stamps are cleared
    std::fill(stamp_.begin(), stamp_.end(), 0);
    generation_ = 1;
  }
  return generation_;
}

void Regions::LabelAll(const std::uint8_t* flags, std::uint8_t open_bit) {
  stats_ = Stats{};
  parent_.clear();
  rank_.clear();
  const std::int32_t w = width_;
  for (std::int32_t y = 0; y < height_; ++y) {
    const CellIndex row = static_cast<CellIndex>(y) * w;
    for (std::int32_t x = 0; x < w; ++x) {
      const CellIndex i = row + x;
      if (!(flags[i] & open_bit)) {
        label_[i] = kNoRegion;
        continue;
      }
      const std::uint32_t left = x > 0 && (flags[i - 1] & open_bit) ? label_[i - 1] : kNoRegion;
      const std::uint32_t up = y > 0 && (flags[i - w] & open_bit) ? label_[i - w] : kNoRegion;
      if (left != kNoRegion) {
        label_[i] = left;
        if (up != kNoRegion && up != left) Union(left, up);
      } else {
        label_[i] = up != kNoRegion ? up : NewLabel();
      }
    }
  }
  // Flatten: every label points straight at its root, so a read is one hop. (The cells keep
  // their provisional labels: relabelling all of them would cost a second pass over the map.)
  for (std::uint32_t l = 0; l < parent_.size(); ++l) parent_[l] = Find(l);
  stats_.cells_visited = label_.size();
}

void Regions::Update(const std::uint8_t* flags, std::uint8_t open_bit, const CellRect& dirty,
                     std::int32_t margin) {
  stats_ = Stats{};
  const CellRect d = Intersect(dirty, CellRect{0, 0, width_, height_});
  if (d.empty()) return;
  // Too many retired labels: start over (cheap next to the work that produced them).
  if (parent_.size() > 2 * label_.size() + 4096) {
    LabelAll(flags, open_bit);
    return;
  }
  const std::int32_t w = width_;
  auto open = [&](CellIndex i) { return (flags[i] & open_bit) != 0; };
  auto index = [&](std::int32_t x, std::int32_t y) { return static_cast<CellIndex>(y) * w + x; };

  // 1. Fresh labels for D's open cells, joined inside D and to the open cells around it.
  for (std::int32_t y = d.y0; y < d.y1; ++y) {
    for (std::int32_t x = d.x0; x < d.x1; ++x) {
      const CellIndex i = index(x, y);
      if (!open(i)) {
        label_[i] = kNoRegion;
        continue;
      }
      const std::uint32_t left = x > d.x0 && open(i - 1) ? label_[i - 1] : kNoRegion;
      const std::uint32_t up = y > d.y0 && open(i - w) ? label_[i - w] : kNoRegion;
      if (left != kNoRegion) {
        label_[i] = left;
        if (up != kNoRegion && up != left) Union(left, up);
      } else {
        label_[i] = up != kNoRegion ? up : NewLabel();
      }
    }
  }
  stats_.cells_visited += static_cast<std::uint64_t>(d.area());
  // The ring: open cells outside D sharing an edge with it (corners cannot reach D directly).
  ring_.clear();
  auto touch = [&](std::int32_t ox, std::int32_t oy, std::int32_t ix, std::int32_t iy) {
    if (ox < 0 || oy < 0 || ox >= w || oy >= height_) return;
    const CellIndex o = index(ox, oy);
    if (!open(o)) return;
    const CellIndex in = index(ix, iy);
    if (open(in)) Union(label_[in], label_[o]);
    ring_.push_back({0, o});
  };
  for (std::int32_t x = d.x0; x < d.x1; ++x) {
    touch(x, d.y0 - 1, x, d.y0);
    touch(x, d.y1, x, d.y1 - 1);
  }
  for (std::int32_t y = d.y0; y < d.y1; ++y) {
    touch(d.x0 - 1, y, d.x0, y);
    touch(d.x1, y, d.x1 - 1, y);
  }
  if (ring_.size() < 2) return;

  // 2. Split check. Group the ring cells by root; a root with one ring cell cannot split.
  for (auto& [root, cell] : ring_) root = Find(label_[cell]);
  std::sort(ring_.begin(), ring_.end());
  bool any_shared = false;
  for (std::size_t k = 1; k < ring_.size(); ++k) any_shared |= ring_[k].first == ring_[k - 1].first;
  if (!any_shared) return;

  // Local flood: components of the open cells of D grown by `margin`, numbered in group_.
  const CellRect win = Intersect(Expand(d, margin), CellRect{0, 0, width_, height_});
  const std::uint32_t gen = NextGeneration();
  std::uint32_t local_count = 0;
  for (const auto& [root, start] : ring_) {
    if (stamp_[start] == gen) continue;
    const std::uint32_t id = local_count++;
    queue_.clear();
    queue_.push_back(start);
    stamp_[start] = gen;
    group_[start] = id;
    for (std::size_t head = 0; head < queue_.size(); ++head) {
      const CellIndex v = queue_[head];
      const std::int32_t vx = static_cast<std::int32_t>(v % w);
      const std::int32_t vy = static_cast<std::int32_t>(v / w);
      const CellIndex next[4] = {
          vx > win.x0 ? v - 1 : kInvalidCell, vx + 1 < win.x1 ? v + 1 : kInvalidCell,
          vy > win.y0 ? v - w : kInvalidCell, vy + 1 < win.y1 ? v + w : kInvalidCell};
      for (CellIndex n : next) {
        if (n == kInvalidCell || stamp_[n] == gen || !open(n)) continue;
        stamp_[n] = gen;
        group_[n] = id;
        queue_.push_back(n);
      }
    }
    stats_.cells_visited += queue_.size();
  }
  if (local_count < 2) return;

  // Roots whose ring cells fall in more than one local group may have split: flood globally.
  // (All sets of starts are taken before any flood, which reuses the group numbers.)
  std::vector<std::vector<CellIndex>> start_sets;
  for (std::size_t k = 0; k < ring_.size();) {
    std::size_t end = k;
    while (end < ring_.size() && ring_[end].first == ring_[k].first) ++end;
    std::vector<CellIndex> starts;
    std::vector<std::uint32_t> seen_groups;
    for (std::size_t j = k; j < end; ++j) {
      const std::uint32_t g = group_[ring_[j].second];
      if (std::find(seen_groups.begin(), seen_groups.end(), g) == seen_groups.end()) {
        seen_groups.push_back(g);
        starts.push_back(ring_[j].second);
      }
    }
    if (starts.size() > 1) start_sets.push_back(std::move(starts));
    k = end;
  }
  for (const std::vector<CellIndex>& starts : start_sets) SplitCheck(flags, open_bit, starts);
}

void Regions::SplitCheck(const std::uint8_t* flags, std::uint8_t open_bit,
                         const std::vector<CellIndex>& starts) {
  ++stats_.global_floods;
  const std::int32_t w = width_;
  const std::uint32_t gen = NextGeneration();
  const std::uint32_t k = static_cast<std::uint32_t>(starts.size());
  if (groups_.size() < k) groups_.resize(k);
  for (std::uint32_t g = 0; g < k; ++g) {
    Group& group = groups_[g];
    group.parent = g;
    group.cells.clear();
    group.cells.push_back(starts[g]);
    group.head = 0;
    group.members.clear();
    group.finished = false;
    stamp_[starts[g]] = gen;
    group_[starts[g]] = g;
  }
  auto find = [&](std::uint32_t g) {
    while (groups_[g].parent != g) g = groups_[g].parent = groups_[groups_[g].parent].parent;
    return g;
  };
  std::uint32_t running = k;  // roots with a frontier left
  while (running > 1) {
    for (std::uint32_t g = 0; g < k && running > 1; ++g) {
      Group& group = groups_[g];
      if (group.parent != g || group.finished) continue;
      if (group.head == group.cells.size()) {
        group.finished = true;  // a whole region: nothing else can reach it any more
        --running;
        continue;
      }
      const CellIndex v = group.cells[group.head++];
      const std::int32_t vx = static_cast<std::int32_t>(v % w);
      const std::int32_t vy = static_cast<std::int32_t>(v / w);
      const CellIndex next[4] = {vx > 0 ? v - 1 : kInvalidCell, vx + 1 < w ? v + 1 : kInvalidCell,
                                 vy > 0 ? v - w : kInvalidCell,
                                 vy + 1 < height_ ? v + w : kInvalidCell};
      for (CellIndex n : next) {
        if (n == kInvalidCell || !(flags[n] & open_bit)) continue;
        if (stamp_[n] != gen) {
          stamp_[n] = gen;
          group_[n] = g;
          groups_[g].cells.push_back(n);
          continue;
        }
        const std::uint32_t other = find(group_[n]);
        if (other == g) continue;
        // Two floods met: one group. `other` hands its frontier to g and keeps its expanded cells.
        Group& o = groups_[other];
        assert(!o.finished);
        Group& me = groups_[g];
        me.cells.insert(me.cells.end(), o.cells.begin() + static_cast<std::ptrdiff_t>(o.head),
                        o.cells.end());
        o.cells.resize(o.head);
        o.parent = g;
        me.members.push_back(other);
        me.members.insert(me.members.end(), o.members.begin(), o.members.end());
        --running;
      }
    }
  }
  // Every finished root is a region of its own. If none is still running, the largest keeps
  // the old root; otherwise the running one does.
  std::uint32_t keep = kNoRegion;
  std::size_t keep_size = 0;
  for (std::uint32_t g = 0; g < k; ++g) {
    if (groups_[g].parent != g) continue;
    std::size_t size = groups_[g].cells.size();
    for (std::uint32_t m : groups_[g].members) size += groups_[m].cells.size();
    stats_.cells_visited += size;
    if (!groups_[g].finished) {
      keep = g;
      keep_size = ~std::size_t{0};
    } else if (size > keep_size) {
      keep = g;
      keep_size = size;
    }
  }
  for (std::uint32_t g = 0; g < k; ++g) {
    if (groups_[g].parent != g || g == keep) continue;
    const std::uint32_t fresh = NewLabel();
    ++stats_.splits;
    for (CellIndex c : groups_[g].cells) label_[c] = fresh;
    for (std::uint32_t m : groups_[g].members) {
      for (CellIndex c : groups_[m].cells) label_[c] = fresh;
    }
  }
}

std::size_t Regions::MemoryBytes() const {
  std::size_t bytes =
      label_.capacity() * sizeof(std::uint32_t) + parent_.capacity() * sizeof(std::uint32_t) +
      rank_.capacity() + stamp_.capacity() * sizeof(std::uint32_t) +
      group_.capacity() * sizeof(std::uint32_t) + queue_.capacity() * sizeof(CellIndex) +
      ring_.capacity() * sizeof(ring_[0]) + groups_.capacity() * sizeof(Group);
  for (const Group& g : groups_) {
    bytes += g.cells.capacity() * sizeof(CellIndex) + g.members.capacity() * sizeof(std::uint32_t);
  }
  return bytes;
}

}  // namespace walk::nav::live

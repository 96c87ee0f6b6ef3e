#include "client/walk_svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

namespace walk::client {
namespace {

bool Has(const google::protobuf::RepeatedPtrField<std::string>& list, const char* name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

// The fill of a column: its top surface's kind of ground.
std::string ColumnColour(const walk::v1::Column& column) {
  if (column.floors_size() == 0) return "#3b3b3b";  // nowhere to stand: walls, trees, void
  const walk::v1::Floor& top = column.floors(column.floors_size() - 1);
  std::string colour = "#b9d99a";  // plain ground
  if (Has(top.flags(), "forest")) colour = "#6f9e5a";
  if (Has(top.marks(), "road")) colour = "#d8c08a";
  if (Has(top.flags(), "building") || Has(top.flags(), "indoor")) colour = "#a7a3a0";
  if (Has(top.flags(), "water")) colour = "#6fa8dc";
  if (Has(top.flags(), "steep")) colour = "#e6a05a";
  if (Has(top.flags(), "climb")) colour = "#c0504d";
  if (Has(top.marks(), "hub_a")) colour = "#9fc5e8";
  if (Has(top.marks(), "hub_b")) colour = "#ea9999";
  return colour;
}

std::string Escape(const std::string& text) {
  std::string out;
  for (char ch : text) {
    if (ch == '<')
      out += "&lt;";
    else if (ch == '>')
      out += "&gt;";
    else if (ch == '&')
      out += "&amp;";
    else
      out += ch;
  }
  return out;
}

}  // namespace

std::string DrawWalkSvg(const walk::v1::PathResponse& path, const walk::v1::FloorsResponse& ground,
                        std::uint32_t stride, const std::string& caption) {
  const double column = ground.column_yards() > 0 ? ground.column_yards() : 1.0;
  double min_x = std::numeric_limits<double>::max(), min_y = min_x;
  double max_x = std::numeric_limits<double>::lowest(), max_y = max_x;
  auto extend = [&](double x, double y) {
    min_x = std::min(min_x, x);
    min_y = std::min(min_y, y);
    max_x = std::max(max_x, x);
    max_y = std::max(max_y, y);
  };
  for (const auto& c : ground.columns()) {
    extend(c.column_x() * column, c.column_y() * column);
    extend((c.column_x() + stride) * column, (c.column_y() + stride) * column);
  }
  for (const auto& p : path.points()) extend(p.x_yards(), p.y_yards());
  if (min_x > max_x) min_x = min_y = 0, max_x = max_y = 1;
  const double width = max_x - min_x, height = max_y - min_y;
  const double scale = 900.0 / std::max(width, height);  // pixels per yard
  const double caption_px = 40.0;
  std::ostringstream svg;
  svg.setf(std::ios::fixed);
  svg.precision(2);
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width * scale << "\" height=\""
      << height * scale + caption_px << "\" viewBox=\"0 0 " << width * scale << " "
      << height * scale + caption_px << "\">\n";
  svg << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<g "
         "shape-rendering=\"crispEdges\">\n";
  const double cell = stride * column * scale;
  for (const auto& c : ground.columns()) {
    const double x = (c.column_x() * column - min_x) * scale;
    const double y = (c.column_y() * column - min_y) * scale;
    svg << "<rect x=\"" << x << "\" y=\"" << y << "\" width=\"" << cell + 0.05 << "\" height=\""
        << cell + 0.05 << "\" fill=\"" << ColumnColour(c) << "\"";
    if (c.floors_size() > 1) {  // stacked floors: a bridge deck, a building's storeys
      svg << " fill-opacity=\"" << std::max(0.45, 1.0 - 0.18 * (c.floors_size() - 1)) << "\"";
    }
    svg << "/>\n";
  }
  svg << "</g>\n";
  if (path.points_size() > 0) {
    svg << "<polyline fill=\"none\" stroke=\"#c00000\" stroke-width=\"3\" "
           "stroke-linejoin=\"round\" points=\"";
    for (const auto& p : path.points()) {
      svg << (p.x_yards() - min_x) * scale << "," << (p.y_yards() - min_y) * scale << " ";
    }
    svg << "\"/>\n";
    const auto& a = path.points(0);
    const auto& b = path.points(path.points_size() - 1);
    svg << "<circle cx=\"" << (a.x_yards() - min_x) * scale << "\" cy=\""
        << (a.y_yards() - min_y) * scale
        << "\" r=\"7\" fill=\"#38761d\" stroke=\"white\" stroke-width=\"2\"/>\n";
    svg << "<circle cx=\"" << (b.x_yards() - min_x) * scale << "\" cy=\""
        << (b.y_yards() - min_y) * scale
        << "\" r=\"7\" fill=\"#990000\" stroke=\"white\" stroke-width=\"2\"/>\n";
  }
  for (const auto& fall : path.falls()) {
    svg << "<path d=\"M " << (fall.from().x_yards() - min_x) * scale - 5 << " "
        << (fall.from().y_yards() - min_y) * scale - 5
        << " l 10 0 l -5 10 z\" fill=\"#7f6000\"/>\n";
  }
  svg << "<text x=\"8\" y=\"" << height * scale + 26
      << "\" font-family=\"sans-serif\" font-size=\"16\">" << Escape(caption)
      << "</text>\n</svg>\n";
  return svg.str();
}

}  // namespace walk::client

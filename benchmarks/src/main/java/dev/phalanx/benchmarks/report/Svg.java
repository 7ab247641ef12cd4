package dev.phalanx.benchmarks.report;

import java.util.ArrayList;
import java.util.Formatter;
import java.util.List;
import java.util.Locale;

/**
 * Draws the chart: ns per entity, one group of bars per row, one bar per implementation, log scale.
 */
final class Svg {

  private static final String[] COLORS = {
    "#7f7f7f", "#bcbd22", "#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b",
    "#e377c2", "#17becf"
  };

  private Svg() {}

  // The layout, in pixels: bar width, gap between groups, margins, plot and label heights.
  private static final int BAR = 9;
  private static final int GAP = 14;
  private static final int LEFT = 70;
  private static final int TOP = 60;
  private static final int PLOT = 360;
  private static final int LABELS = 310;

  /** The log scale of the bars: decades {@code [lo, lo + decades]}. */
  private record Scale(int lo, int decades) {
    double height(final double ns) {
      final double v = Math.max(ns, Math.pow(10, lo));
      return (Math.log10(v) - lo) / decades * PLOT;
    }
  }

  static String chart(
      final List<Report.Row> rows, final List<String[]> columns, final String mode) {
    final List<Report.Row> shown = new ArrayList<>();
    double min = Double.MAX_VALUE;
    double max = 0;
    for (final Report.Row row : rows) {
      boolean any = false;
      for (final Report.Cell cell : row.cells().values()) {
        if (cell.ns() > 0) {
          min = Math.min(min, cell.ns());
          max = Math.max(max, cell.ns());
          any = true;
        }
      }
      if (any) {
        shown.add(row);
      }
    }
    if (shown.isEmpty()) {
      return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"400\" height=\"40\"><text x=\"10\""
          + " y=\"25\">no results</text></svg>\n";
    }
    // Below 0.01 ns per entity (the "one entity matches" row) bars are drawn at the floor.
    final int lo = Math.max(-2, (int) Math.floor(Math.log10(min)));
    final Scale scale = new Scale(lo, Math.max(1, (int) Math.ceil(Math.log10(max)) - lo));
    final int[] groupWidths = new int[shown.size()];
    int width = LEFT + 20;
    for (int g = 0; g < shown.size(); g++) {
      for (final String[] c : columns) {
        if (shown.get(g).cells().containsKey(c[0])) {
          groupWidths[g] += BAR;
        }
      }
      width += groupWidths[g] + GAP;
    }
    width = Math.max(width, 700);
    final StringBuilder svg = new StringBuilder();
    final Formatter out = new Formatter(svg, Locale.ROOT);
    header(out, width, columns, mode);
    axis(out, width, scale);
    int x = LEFT + 10;
    for (int g = 0; g < shown.size(); g++) {
      group(out, x, groupWidths[g], shown.get(g), columns, scale);
      x += groupWidths[g] + GAP;
    }
    svg.append("</svg>\n");
    return svg.toString();
  }

  /** The root element, the background, the title and the legend. */
  private static void header(
      final Formatter out, final int width, final List<String[]> columns, final String mode) {
    out.format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
            + " font-family=\"sans-serif\" font-size=\"11\">\n",
        width, TOP + PLOT + LABELS);
    out.format("<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    out.format(
        "<text x=\"%d\" y=\"18\" font-size=\"14\">Phalanx benchmarks (%s mode): ns per entity,"
            + " log scale, lower is better</text>\n",
        LEFT, escape(mode));
    int lx = LEFT;
    for (int i = 0; i < columns.size(); i++) {
      out.format(
          "<rect x=\"%d\" y=\"30\" width=\"10\" height=\"10\" fill=\"%s\"/>"
              + "<text x=\"%d\" y=\"39\">%s</text>\n",
          lx, color(i), lx + 14, escape(columns.get(i)[1]));
      lx += 24 + 7 * columns.get(i)[1].length();
    }
  }

  /** The grid line and label of each decade, and the axis title. */
  private static void axis(final Formatter out, final int width, final Scale scale) {
    for (int d = 0; d <= scale.decades(); d++) {
      final double y = TOP + PLOT - (double) d * PLOT / scale.decades();
      out.format(
          "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#dddddd\"/>"
              + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
          LEFT, y, width - 10, y, LEFT - 6, y + 4, tick(scale.lo() + d));
    }
    out.format(
        "<text x=\"14\" y=\"%d\" transform=\"rotate(-90 14 %d)\" text-anchor=\"middle\">ns per"
            + " entity</text>\n",
        TOP + PLOT / 2, TOP + PLOT / 2);
  }

  /** One row's bars, one per implementation it has, from {@code x}, and the row's label. */
  private static void group(
      final Formatter out,
      final int x,
      final int groupWidth,
      final Report.Row row,
      final List<String[]> columns,
      final Scale scale) {
    int bx = x;
    for (int i = 0; i < columns.size(); i++) {
      final Report.Cell cell = row.cells().get(columns.get(i)[0]);
      if (null == cell) {
        continue;
      }
      final double h = scale.height(cell.ns());
      out.format(
          "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\"><title>%s, %s:"
              + " %s ns</title></rect>\n",
          bx,
          TOP + PLOT - h,
          BAR - 1,
          Math.max(h, 0.5),
          color(i),
          escape(row.title()),
          escape(columns.get(i)[1]),
          Report.format(cell.ns()));
      bx += BAR;
    }
    final int cx = x + groupWidth / 2;
    out.format(
        "<text x=\"%d\" y=\"%d\" transform=\"rotate(-90 %d %d)\""
            + " text-anchor=\"end\">%s</text>\n",
        cx, TOP + PLOT + 12, cx, TOP + PLOT + 12, escape(row.title()));
  }

  private static String tick(final int exponent) {
    final double v = Math.pow(10, exponent);
    return exponent >= 0
        ? String.format(Locale.ROOT, "%.0f", v)
        : String.format(Locale.ROOT, "%." + (-exponent) + "f", v);
  }

  private static String color(final int i) {
    return COLORS[i % COLORS.length];
  }

  private static String escape(final String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}

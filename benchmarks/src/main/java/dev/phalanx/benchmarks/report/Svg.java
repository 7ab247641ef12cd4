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

  static String chart(
      final List<Report.Row> rows, final List<String[]> columns, final String mode) {
    double min = Double.MAX_VALUE;
    double max = 0;
    final List<Report.Row> shown = new ArrayList<>();
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
    final int hi = (int) Math.ceil(Math.log10(max));
    final int decades = Math.max(1, hi - lo);
    final int bar = 9;
    final int gap = 14;
    final int left = 70;
    final int top = 60;
    final int plot = 360;
    final int labels = 310;
    int width = left + 20;
    final List<Integer> groupWidths = new ArrayList<>();
    for (final Report.Row row : shown) {
      int bars = 0;
      for (final String[] c : columns) {
        if (row.cells().containsKey(c[0])) {
          bars++;
        }
      }
      groupWidths.add(bars * bar);
      width += bars * bar + gap;
    }
    width = Math.max(width, 700);
    final int height = top + plot + labels;
    final StringBuilder svg = new StringBuilder();
    final Formatter out = new Formatter(svg, Locale.ROOT);
    out.format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
            + " font-family=\"sans-serif\" font-size=\"11\">\n",
        width, height);
    out.format("<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    out.format(
        "<text x=\"%d\" y=\"18\" font-size=\"14\">Phalanx benchmarks (%s mode): ns per entity,"
            + " log scale, lower is better</text>\n",
        left, escape(mode));
    // Legend.
    int lx = left;
    for (int i = 0; i < columns.size(); i++) {
      out.format(
          "<rect x=\"%d\" y=\"30\" width=\"10\" height=\"10\" fill=\"%s\"/>"
              + "<text x=\"%d\" y=\"39\">%s</text>\n",
          lx, color(i), lx + 14, escape(columns.get(i)[1]));
      lx += 24 + 7 * columns.get(i)[1].length();
    }
    // Axis and grid.
    for (int d = 0; d <= decades; d++) {
      final double y = top + plot - (double) d * plot / decades;
      out.format(
          "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#dddddd\"/>"
              + "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
          left, y, width - 10, y, left - 6, y + 4, tick(lo + d));
    }
    out.format(
        "<text x=\"14\" y=\"%d\" transform=\"rotate(-90 14 %d)\" text-anchor=\"middle\">ns per"
            + " entity</text>\n",
        top + plot / 2, top + plot / 2);
    int x = left + 10;
    for (int g = 0; g < shown.size(); g++) {
      final Report.Row row = shown.get(g);
      int bx = x;
      for (int i = 0; i < columns.size(); i++) {
        final Report.Cell cell = row.cells().get(columns.get(i)[0]);
        if (null == cell) {
          continue;
        }
        final double v = Math.max(cell.ns(), Math.pow(10, lo));
        final double h = (Math.log10(v) - lo) / decades * plot;
        out.format(
            "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\"><title>%s, %s:"
                + " %s ns</title></rect>\n",
            bx,
            top + plot - h,
            bar - 1,
            Math.max(h, 0.5),
            color(i),
            escape(row.title()),
            escape(columns.get(i)[1]),
            Report.format(cell.ns()));
        bx += bar;
      }
      final int cx = x + groupWidths.get(g) / 2;
      out.format(
          "<text x=\"%d\" y=\"%d\" transform=\"rotate(-90 %d %d)\""
              + " text-anchor=\"end\">%s</text>\n",
          cx, top + plot + 12, cx, top + plot + 12, escape(row.title()));
      x += groupWidths.get(g) + gap;
    }
    svg.append("</svg>\n");
    return svg.toString();
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

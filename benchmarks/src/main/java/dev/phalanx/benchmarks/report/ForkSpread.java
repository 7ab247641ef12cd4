package dev.phalanx.benchmarks.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The fork-stability check: reads JMH JSON result files and, for every row (a benchmark with its
 * parameters), takes the median of each fork's measured iterations and compares the slowest fork
 * with the fastest. A row whose ratio is over the limit (1.3 unless {@code --limit} says otherwise)
 * is flagged: the same code runs at a speed that depends on the JVM launch, which a single-fork
 * figure hides. Prints a Markdown table and exits with 1 if a row is flagged, 2 on bad usage.
 *
 * <pre>
 * java -cp benchmarks.jar dev.phalanx.benchmarks.report.ForkSpread [--limit 1.3] result.json...
 * </pre>
 *
 * <p>Rows need at least two forks; a row with one is listed, not judged. The median rather than the
 * mean keeps one slow iteration (a GC, a late compilation) from deciding a fork's figure.
 */
public final class ForkSpread {

  /** The limit of the slowest fork's median over the fastest's, unless {@code --limit} is given. */
  static final double DEFAULT_LIMIT = 1.3;

  private ForkSpread() {}

  /** One row: its name, and the median of each fork. */
  record Row(String name, double[] forkMedians) {

    double fastest() {
      return Arrays.stream(forkMedians).min().orElse(Double.NaN);
    }

    double slowest() {
      return Arrays.stream(forkMedians).max().orElse(Double.NaN);
    }

    double spread() {
      return slowest() / fastest();
    }
  }

  /**
   * Checks the files named on the command line.
   *
   * @param args {@code [--limit x] file...}
   * @throws IOException if a file cannot be read
   */
  public static void main(final String[] args) throws IOException {
    double limit = DEFAULT_LIMIT;
    final List<Path> files = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      if ("--limit".equals(args[i]) && i + 1 < args.length) {
        limit = Double.parseDouble(args[++i]);
      } else {
        files.add(Path.of(args[i]));
      }
    }
    if (files.isEmpty()) {
      System.err.println("usage: ForkSpread [--limit 1.3] result.json...");
      System.exit(2);
    }
    final List<Row> rows = new ArrayList<>();
    for (final Path file : files) {
      rows.addAll(rows(Files.readString(file, StandardCharsets.UTF_8)));
    }
    final String table = table(rows, limit);
    System.out.print(table);
    System.exit(flagged(rows, limit) > 0 ? 1 : 0);
  }

  /** {@return the rows of one JMH JSON result file} */
  static List<Row> rows(final String json) {
    final List<Row> rows = new ArrayList<>();
    for (final Object o : (List<?>) Json.parse(json)) {
      final Map<?, ?> result = (Map<?, ?>) o;
      final Map<?, ?> primary = (Map<?, ?>) result.get("primaryMetric");
      final List<?> forks = (List<?>) primary.get("rawData");
      final double[] medians = new double[forks.size()];
      for (int f = 0; f < medians.length; f++) {
        medians[f] = median((List<?>) forks.get(f));
      }
      rows.add(new Row(name(result), medians));
    }
    return rows;
  }

  /** {@return how many rows with two forks or more spread over {@code limit}} */
  static int flagged(final List<Row> rows, final double limit) {
    int flagged = 0;
    for (final Row row : rows) {
      if (row.forkMedians().length > 1 && row.spread() > limit) {
        flagged++;
      }
    }
    return flagged;
  }

  /** {@return the Markdown table of {@code rows}, each judged against {@code limit}} */
  static String table(final List<Row> rows, final double limit) {
    final StringBuilder out = new StringBuilder();
    out.append("| row | fork medians | fastest | slowest | slowest / fastest |\n");
    out.append("| --- | --- | ---: | ---: | ---: |\n");
    for (final Row row : rows) {
      final StringBuilder forks = new StringBuilder();
      for (final double median : row.forkMedians()) {
        forks.append(forks.length() == 0 ? "" : " ").append(format(median));
      }
      final String verdict;
      if (row.forkMedians().length < 2) {
        verdict = "one fork";
      } else {
        verdict =
            String.format(Locale.ROOT, "%.2f", row.spread())
                + (row.spread() > limit ? " **over " + limit + "**" : "");
      }
      out.append("| ")
          .append(row.name())
          .append(" | ")
          .append(forks)
          .append(" | ")
          .append(format(row.fastest()))
          .append(" | ")
          .append(format(row.slowest()))
          .append(" | ")
          .append(verdict)
          .append(" |\n");
    }
    return out.toString();
  }

  private static String name(final Map<?, ?> result) {
    final String benchmark = (String) result.get("benchmark");
    final String owner = benchmark.substring(0, benchmark.lastIndexOf('.'));
    final StringBuilder name = new StringBuilder(benchmark.substring(owner.lastIndexOf('.') + 1));
    if (result.get("params") instanceof Map<?, ?> params) {
      for (final Map.Entry<?, ?> param : params.entrySet()) {
        name.append(' ').append(param.getKey()).append('=').append(param.getValue());
      }
    }
    return name.toString();
  }

  private static double median(final List<?> iterations) {
    final double[] values = new double[iterations.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = ((Number) iterations.get(i)).doubleValue();
    }
    Arrays.sort(values);
    final int middle = values.length / 2;
    return 0 == values.length % 2 ? (values[middle - 1] + values[middle]) / 2 : values[middle];
  }

  private static String format(final double value) {
    return String.format(Locale.ROOT, value < 10 ? "%.3f" : "%.1f", value);
  }
}

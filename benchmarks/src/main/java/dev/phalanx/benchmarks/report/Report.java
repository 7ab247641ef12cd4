package dev.phalanx.benchmarks.report;

import dev.phalanx.benchmarks.report.Workloads.Workload;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Turns the JMH JSON files of a run into a Markdown table and an SVG chart.
 *
 * <p>Usage: {@code java -cp benchmarks.jar dev.phalanx.benchmarks.report.Report <results-dir>
 * <mode>}. It reads the files {@code run.sh} writes, {@code jmh-<size>-<part>.json} with {@code
 * part} one of {@code iteration}, {@code structural} and {@code destroy} ({@code size} is the
 * entity count label, such as {@code 1M} or {@code 10k}; JSON of rows run by hand, such as {@code
 * jmh-1M-commands.json}, is left out), and writes {@code results.md} and {@code chart.svg} there.
 * Scores are per entity (every workload sets its operations per invocation to its entity count);
 * allocation is JMH's {@code gc.alloc.rate.norm}, bytes per entity.
 */
public final class Report {

  /** The default size label: rows at it carry no size suffix. */
  static final String DEFAULT_SIZE = "1M";

  /** One measured cell. */
  record Cell(double ns, double error, double bytes) {}

  /** One row of the table: a workload at a size, with its cells by implementation. */
  record Row(Workload workload, String size, Map<String, Cell> cells, Map<String, Cell> baseCells) {
    String title() {
      return DEFAULT_SIZE.equals(size)
          ? workload.title()
          : workload.title() + " (n = " + size + ")";
    }
  }

  private Report() {}

  public static void main(final String[] args) throws IOException {
    if (args.length < 1) {
      System.err.println("usage: Report <results-dir> [mode]");
      System.exit(2);
    }
    final Path dir = Path.of(args[0]);
    final String mode = args.length > 1 ? args[1] : "unknown";
    final Map<String, Map<String, Map<String, Cell>>> bySize = new TreeMap<>(sizeOrder());
    final Map<String, Object> sample = new LinkedHashMap<>();
    final List<String> files = new ArrayList<>();
    try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir, "jmh-*.json")) {
      for (final Path file : stream) {
        final String name = file.getFileName().toString();
        if (name.matches("jmh-[^-]+-(iteration|structural|destroy)\\.json")) {
          files.add(name);
        }
      }
    }
    files.sort(null);
    for (final String name : files) {
      final String size = name.substring(4, name.length() - 5).split("-")[0];
      final Object parsed = Json.parse(Files.readString(dir.resolve(name), StandardCharsets.UTF_8));
      for (final Object o : (List<?>) parsed) {
        final Map<?, ?> result = (Map<?, ?>) o;
        if (sample.isEmpty()) {
          for (final Map.Entry<?, ?> e : result.entrySet()) {
            sample.put((String) e.getKey(), e.getValue());
          }
        }
        final String benchmark = (String) result.get("benchmark");
        final int dot = benchmark.lastIndexOf('.');
        final String method = benchmark.substring(dot + 1);
        final String owner = benchmark.substring(0, dot);
        String className = key(owner.substring(owner.lastIndexOf('.') + 1), result);
        String column = column(method, result);
        final String[] moved = MOVED_CELLS.get(className + "/" + column);
        if (null != moved) {
          className = moved[0];
          column = moved[1];
        }
        final Map<?, ?> primary = (Map<?, ?>) result.get("primaryMetric");
        final double score = number(primary.get("score"));
        final double error = number(primary.get("scoreError"));
        double bytes = Double.NaN;
        final Map<?, ?> secondary = (Map<?, ?>) result.get("secondaryMetrics");
        if (null != secondary && secondary.get("gc.alloc.rate.norm") instanceof Map<?, ?> alloc) {
          bytes = number(alloc.get("score"));
        }
        bySize
            .computeIfAbsent(size, k -> new LinkedHashMap<>())
            .computeIfAbsent(className, k -> new LinkedHashMap<>())
            .put(column, new Cell(score, error, bytes));
      }
    }
    final List<Row> rows = rows(bySize);
    final List<String[]> columns = columns(rows);
    Files.writeString(
        dir.resolve("results.md"),
        markdown(rows, columns, sample, mode, files),
        StandardCharsets.UTF_8);
    Files.writeString(
        dir.resolve("chart.svg"), Svg.chart(rows, columns, mode), StandardCharsets.UTF_8);
    System.out.println(
        "wrote "
            + dir.resolve("results.md")
            + " and "
            + dir.resolve("chart.svg")
            + " ("
            + rows.size()
            + " rows)");
  }

  /** The parameter that names a result's implementation (its column) in a folded benchmark. */
  static final String LIB = "lib";

  /**
   * The row keys that older JSON (such as the committed {@code benchmarks/results}) gives the rows
   * of the classes the folds replaced, as patterns of the whole key, with the keys of those rows
   * now; the first match applies.
   */
  private static final String[][] FOLDED_NAMES = {
    // Classes from before the fold by library and arity, whose methods name the columns.
    {"(Iterate|Get|Remove)(\\d)", "$1:$2"},
    {"Create", "Create:0"},
    {"CreateWith2", "Create:2"},
    {"Iterate(\\d)Pages", "IterateForms:pages$1"},
    {"Iterate(\\d)Stable", "IterateForms:stable$1"},
    {"Iterate(\\d)ObjectStorage", "IterateForms:objectStorage$1"},
    {"Iterate(\\d)RuntimeView", "IterateForms:runtimeView$1"},
    {"Iterate(\\d)Half", "IterateForms:half$1"},
    {"Iterate(\\d)One", "IterateForms:one$1"},
    // Classes from before the query fold, named without parameters.
    {"Pathological", "Pathological:View"},
    {"Pathological(NonOwning|PartialOwning|FullOwning)Group(Chunk)?", "Pathological:$1$2"},
    {"Iterate(\\d)(NonOwning|PartialOwning|FullOwning)Group", "IterateGroup:$2$1"},
    {"Iterate(\\d)FullOwningGroupChunk(LargePages)?", "IterateGroup:FullOwningChunk$2$1"},
    {"Iterate(\\d)FullOwningGroupParallel", "IterateGroup:FullOwningParallelChunk$1"},
    {"Iterate2FullOwningGroupEachPolluted", "Iterate2GroupPolluted:each"},
    {"Iterate2FullOwningGroupChunkPolluted", "Iterate2GroupPolluted:eachChunk"},
    {"Iterate5(PartialOwning[34]Of5)", "IterateGroup:$1"},
    // Per-arity group classes, by their query or form (and Iterate1Group, without one).
    {"Iterate5Group:(PartialOwning[34]Of5)", "IterateGroup:$1"},
    {"Iterate(\\d)Group:(NonOwning|PartialOwning|FullOwning)", "IterateGroup:$2$1"},
    {"Iterate(\\d)GroupChunk:eachChunk(LargePages)?", "IterateGroup:FullOwningChunk$2$1"},
    {"Iterate(\\d)GroupChunk:parallelEachChunk", "IterateGroup:FullOwningParallelChunk$1"},
    {"Iterate1Group", "IterateGroup:NonOwning1"}
  };

  /**
   * Results shown as a cell of another row, by row key and column: the row and column they go to
   * (the typed view is a column of the iterate rows, the runtime view's positions form a column of
   * the runtime view's row; the bulk creation of no component, the get through the registry, and
   * the methods that other rows' classes took in (the recycling creation, the batch destroy, the
   * pool clear, the sort of one pool as another and the insertion sort) their own rows, as before
   * the fold; the hand-written floor's destroy methods of older JSON, the rows of their layout).
   */
  private static final Map<String, String[]> MOVED_CELLS =
      Map.ofEntries(
          Map.entry(
              "IterateForms:typedView2/phalanx", new String[] {"Iterate:2", "phalanxTypedView"}),
          Map.entry(
              "IterateForms:typedView3/phalanx", new String[] {"Iterate:3", "phalanxTypedView"}),
          Map.entry(
              "IterateForms:runtimeViewPositions2/phalanx",
              new String[] {"IterateForms:runtimeView2", "phalanxPositions"}),
          Map.entry(
              "IterateForms:runtimeViewPositions3/phalanx",
              new String[] {"IterateForms:runtimeView3", "phalanxPositions"}),
          Map.entry("Create:0/phalanxBulk", new String[] {"CreateBulk", "phalanx"}),
          Map.entry("Get:1/phalanxRegistry", new String[] {"Get1Registry", "phalanx"}),
          Map.entry("Destroy/batch", new String[] {"DestroyBatch", "phalanx"}),
          Map.entry("Remove/clearPool", new String[] {"ClearPool", "phalanx"}),
          Map.entry("Sort/as", new String[] {"SortAs", "phalanx"}),
          Map.entry("Sort/insertion", new String[] {"SortInsertion", "phalanx"}),
          // Create.recycle has no parameter: its key "Create" is an old name of "Create:0".
          Map.entry("Create:0/recycle", new String[] {"Recycle", "phalanx"}),
          // HandWritten's destroy methods before the layout parameter.
          Map.entry("HandWritten/destroy", new String[] {"HandWritten:plain", "destroy"}),
          Map.entry(
              "HandWritten/destroyTwoClasses", new String[] {"HandWritten:twoClasses", "destroy"}),
          Map.entry(
              "HandWritten/destroyInterleaved",
              new String[] {"HandWritten:interleaved", "destroy"}));

  /**
   * {@return the row key of a result: the class's simple name, then, when the benchmark has
   * parameters other than {@code lib} (the folded benchmarks choose their query, form or arity by
   * them), a colon and their values in the JSON's order, comma-separated; a row of a class the
   * folds replaced, as older JSON names it, gets its new key}
   */
  static String key(final String className, final Map<?, ?> result) {
    final StringBuilder key = new StringBuilder(className);
    String separator = ":";
    if (result.get("params") instanceof Map<?, ?> params) {
      for (final Map.Entry<?, ?> e : params.entrySet()) {
        if (!LIB.equals(e.getKey())) {
          key.append(separator).append(e.getValue());
          separator = ",";
        }
      }
    }
    for (final String[] folded : FOLDED_NAMES) {
      if (key.toString().matches(folded[0])) {
        return key.toString().replaceAll(folded[0], folded[1]);
      }
    }
    return key.toString();
  }

  /**
   * {@return the column of a result: its {@code lib} parameter in a benchmark folded by library,
   * else its method's name (JSON from before the fold)}
   */
  static String column(final String method, final Map<?, ?> result) {
    if (result.get("params") instanceof Map<?, ?> params && params.get(LIB) instanceof String lib) {
      return lib;
    }
    return method;
  }

  private static Comparator<String> sizeOrder() {
    return Comparator.comparing((String s) -> !DEFAULT_SIZE.equals(s))
        .thenComparingDouble(Report::sizeValue);
  }

  private static double sizeValue(final String label) {
    final String digits = label.replaceAll("[^0-9.]", "");
    if (digits.isEmpty()) {
      return Double.MAX_VALUE;
    }
    final double base = Double.parseDouble(digits);
    final String upper = label.toUpperCase(Locale.ROOT);
    return upper.endsWith("M") ? base * 1e6 : upper.endsWith("K") ? base * 1e3 : base;
  }

  private static double number(final Object value) {
    return value instanceof Double d ? d : Double.NaN;
  }

  static List<Row> rows(final Map<String, Map<String, Map<String, Cell>>> bySize) {
    final List<Workload> workloads = new ArrayList<>(Workloads.ALL);
    final Set<String> known = new LinkedHashSet<>();
    for (final Workload w : workloads) {
      known.add(w.className());
    }
    for (final Map<String, Map<String, Cell>> classes : bySize.values()) {
      for (final String className : classes.keySet()) {
        if (known.add(className)) {
          workloads.add(new Workload(className, className, null));
        }
      }
    }
    final List<Row> rows = new ArrayList<>();
    for (final Workload w : workloads) {
      for (final Map.Entry<String, Map<String, Map<String, Cell>>> size : bySize.entrySet()) {
        final Map<String, Cell> cells = size.getValue().get(w.className());
        if (null == cells) {
          continue;
        }
        Map<String, Cell> base = Map.of();
        if (null != w.base() && null != size.getValue().get(w.base())) {
          base = size.getValue().get(w.base());
        }
        rows.add(new Row(w, size.getKey(), cells, base));
      }
    }
    return rows;
  }

  static List<String[]> columns(final List<Row> rows) {
    final List<String[]> columns = new ArrayList<>(Workloads.IMPLEMENTATIONS);
    final Set<String> seen = new LinkedHashSet<>();
    for (final String[] c : columns) {
      seen.add(c[0]);
    }
    for (final Row row : rows) {
      for (final String method : row.cells().keySet()) {
        if (seen.add(method)) {
          columns.add(new String[] {method, method});
        }
      }
    }
    return columns;
  }

  private static String markdown(
      final List<Row> rows,
      final List<String[]> columns,
      final Map<String, Object> sample,
      final String mode,
      final List<String> files) {
    final StringBuilder md = new StringBuilder();
    md.append(
        String.format(
            Locale.ROOT,
            "# Phalanx benchmarks: %s mode\n\nMachine: %s, %d hardware threads, %s %s.  \n"
                + "JDK: %s %s (%s), JVM options %s.  \nJMH %s, %s fork(s); files: %s.\n\n",
            mode,
            cpu(),
            Runtime.getRuntime().availableProcessors(),
            System.getProperty("os.name"),
            System.getProperty("os.arch"),
            sample.getOrDefault("vmName", "?"),
            sample.getOrDefault("jdkVersion", "?"),
            sample.getOrDefault("vmVersion", "?"),
            sample.getOrDefault("jvmArgs", "[]"),
            sample.getOrDefault("jmhVersion", "?"),
            format(number(sample.get("forks"))),
            String.join(", ", files)));
    md.append(
        "Time is ns per entity (lower is better); in parentheses, the implementation's time divided"
            + " by Phalanx's in the same row (above 1: slower than Phalanx). Cells in italics come"
            + " from the row named in the last column (the same work by the peers and baselines),"
            + " for Phalanx forms that only Phalanx has. A blank cell: the implementation cannot"
            + " express the workload or it was not run in this mode.\n\n");
    table(md, rows, columns, false);
    md.append(
            "\n"
                + "Allocation, bytes per entity (JMH `gc.alloc.rate.norm`; structural rows include"
                + " the per-shot ")
        .append("set-up that restores the world, see each class's javadoc):\n\n");
    table(md, rows, columns, true);
    return md.toString();
  }

  private static void table(
      final StringBuilder md,
      final List<Row> rows,
      final List<String[]> columns,
      final boolean alloc) {
    md.append("| workload |");
    for (final String[] c : columns) {
      md.append(' ').append(c[1]).append(" |");
    }
    md.append(alloc ? "\n" : " compared with |\n");
    md.append("| --- |");
    for (int i = 0; i < columns.size(); i++) {
      md.append(" ---: |");
    }
    md.append(alloc ? "\n" : " --- |\n");
    for (final Row row : rows) {
      md.append("| ").append(row.title()).append(" |");
      final Cell phalanx = row.cells().get("phalanx");
      boolean usedBase = false;
      for (final String[] c : columns) {
        Cell cell = row.cells().get(c[0]);
        boolean fromBase = false;
        if (null == cell && !alloc && !"phalanx".equals(c[0])) {
          cell = row.baseCells().get(c[0]);
          fromBase = null != cell;
        }
        md.append(' ');
        if (null != cell) {
          if (alloc) {
            md.append(bytes(cell.bytes()));
          } else {
            final String text =
                format(cell.ns())
                    + (null != phalanx && !"phalanx".equals(c[0])
                        ? " (" + ratio(cell.ns() / phalanx.ns()) + ")"
                        : "");
            md.append(fromBase ? "*" + text + "*" : text);
            usedBase |= fromBase;
          }
        }
        md.append(" |");
      }
      if (!alloc) {
        md.append(' ').append(usedBase ? titleOf(row.workload().base()) : "").append(" |");
      }
      md.append('\n');
    }
  }

  private static String titleOf(final String className) {
    for (final Workload w : Workloads.ALL) {
      if (w.className().equals(className)) {
        return w.title();
      }
    }
    return className;
  }

  static String format(final double v) {
    if (Double.isNaN(v)) {
      return "?";
    }
    if (v >= 100) {
      return String.format(Locale.ROOT, "%.0f", v);
    }
    if (v >= 10) {
      return String.format(Locale.ROOT, "%.1f", v);
    }
    if (v >= 1) {
      return String.format(Locale.ROOT, "%.2f", v);
    }
    if (v >= 0.01 || 0 == v) {
      return String.format(Locale.ROOT, "%.3f", v);
    }
    return String.format(Locale.ROOT, "%.1e", v);
  }

  private static String ratio(final double r) {
    if (r >= 10) {
      return String.format(Locale.ROOT, "%.0fx", r);
    }
    if (r >= 0.1) {
      return String.format(Locale.ROOT, "%.2fx", r);
    }
    return String.format(Locale.ROOT, "%.2gx", r);
  }

  private static String bytes(final double b) {
    if (Double.isNaN(b)) {
      return "?";
    }
    if (b < 0.05) {
      return "0";
    }
    return b >= 10 ? String.format(Locale.ROOT, "%.0f", b) : String.format(Locale.ROOT, "%.1f", b);
  }

  private static String cpu() {
    try {
      for (final String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
        if (line.startsWith("model name")) {
          return line.substring(line.indexOf(':') + 1).trim();
        }
      }
    } catch (IOException | RuntimeException e) {
      // Not Linux: fall through.
    }
    return "CPU unknown";
  }
}

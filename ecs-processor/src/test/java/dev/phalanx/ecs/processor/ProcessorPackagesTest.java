package dev.phalanx.ecs.processor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;

/**
 * Checks the processor's package layout on its compiled classes, with the JDK's {@code jdeps}: no
 * package cycle, {@code validation} and {@code generation} never depend on each other (what both
 * need is in {@code base}), and {@code base} and {@code model} depend on no other package of the
 * processor.
 */
class ProcessorPackagesTest {

  private static final String ROOT = "dev.phalanx.ecs.processor";

  @Test
  void packagesDependOnlyAsLaidOut() throws URISyntaxException {
    final Map<String, Set<String>> expected = new TreeMap<>();
    expected.put("", new TreeSet<>(List.of("base", "generation", "model", "validation")));
    expected.put("base", new TreeSet<>());
    expected.put("generation", new TreeSet<>(List.of("base", "model")));
    expected.put("model", new TreeSet<>());
    expected.put("validation", new TreeSet<>(List.of("base", "model")));
    assertEquals(expected, packageDependencies());
  }

  @Test
  void noPackageCycle() throws URISyntaxException {
    final Map<String, Set<String>> graph = packageDependencies();
    for (final String start : graph.keySet()) {
      final Set<String> reached = new HashSet<>();
      final Deque<String> pending = new ArrayDeque<>(graph.get(start));
      while (!pending.isEmpty()) {
        final String next = pending.pop();
        assertTrue(!next.equals(start), "package cycle through " + ROOT + "." + start);
        if (reached.add(next)) {
          pending.addAll(graph.getOrDefault(next, Set.of()));
        }
      }
    }
  }

  /**
   * Returns each processor package (by its name below {@code dev.phalanx.ecs.processor}, {@code ""}
   * for that package itself) and the processor packages it depends on, as {@code jdeps
   * -verbose:package} reads them from the compiled classes.
   */
  private static Map<String, Set<String>> packageDependencies() throws URISyntaxException {
    final Path classes =
        Path.of(PhalanxProcessor.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    final ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
    final StringWriter out = new StringWriter();
    final int status =
        jdeps.run(
            new PrintWriter(out, true),
            new PrintWriter(out, true),
            "-verbose:package",
            classes.toString());
    assertEquals(0, status, out.toString());
    final Map<String, Set<String>> graph = new TreeMap<>();
    for (final String line : out.toString().split("\\R")) {
      final String[] words = line.trim().split("\\s+");
      if (words.length >= 3 && "->".equals(words[1]) && words[0].startsWith(ROOT)) {
        final Set<String> targets = graph.computeIfAbsent(relative(words[0]), p -> new TreeSet<>());
        if (words[2].startsWith(ROOT)) {
          targets.add(relative(words[2]));
        }
      }
    }
    return graph;
  }

  private static String relative(final String packageName) {
    return ROOT.equals(packageName) ? "" : packageName.substring(ROOT.length() + 1);
  }
}

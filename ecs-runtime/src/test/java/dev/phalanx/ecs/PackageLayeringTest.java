package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The runtime's house rules, read from its compiled classes with the JDK's {@code jdeps}: the core
 * names no feature, features use the core but not each other except as stated, the generated-code
 * package is a leaf, no package cycle, and the module exports every package: the user API plus the
 * generated-code package, with nothing hidden for features to reach around the compiler (see {@link
 * NoBackDoorTest}). A new edge between packages fails here until it is added on purpose, with the
 * reason, to {@link #LAYERS}.
 */
class PackageLayeringTest {

  private static final String CORE = "dev.phalanx.ecs";
  private static final String INTERNAL = CORE + ".internal";
  private static final String COMMAND = CORE + ".command";
  private static final String HIERARCHY = CORE + ".hierarchy";
  private static final String SNAPSHOT = CORE + ".snapshot";
  private static final String CLONE = CORE + ".clone";
  private static final String SCHEDULE = CORE + ".schedule";
  private static final String EVENT = CORE + ".event";
  private static final String RELATION = CORE + ".relation";

  /** Every runtime package and the runtime packages it may use; each edge is also used. */
  private static final Map<String, Set<String>> LAYERS =
      Map.of(
          // Leaf: what generated code and every package share, naming no Phalanx class.
          INTERNAL, Set.of(),
          // The core: sparse sets, storages, registry, signals, views, groups.
          CORE, Set.of(INTERNAL),
          // The hierarchy's node storage is a custom storage of the core's protected API.
          HIERARCHY, Set.of(CORE, INTERNAL),
          // Commands can reparent, detach and destroy trees; they use the core's public API only.
          COMMAND, Set.of(CORE, HIERARCHY, INTERNAL),
          // Relationship kinds: generated storages on the core's protected API, kept by signals.
          RELATION, Set.of(CORE, INTERNAL),
          // Snapshots carry the hierarchy's links and rebuild its lists after a load, and carry
          // the pairs of non-exclusive relationship kinds (Pairs.toArray, Pairs.restore); a
          // snapshot of chosen entities leaves out a relationship whose target it does not save.
          SNAPSHOT, Set.of(CORE, HIERARCHY, INTERNAL, RELATION),
          // Cloning stages into the core's change sets and copies subtrees with their links; it
          // refuses entities with pairs, which it does not copy (Pairs.find).
          CLONE, Set.of(CORE, HIERARCHY, INTERNAL, RELATION),
          // Systems apply their command buffers at sync points, lock the registry while a wave
          // runs and permit each system its declared structural changes. Its saved state (frame
          // counter, resources) travels as a snapshot's extra blocks, through the snapshot
          // package's public API (SnapshotWriter.extra, ValueCodec, SnapshotFormatException).
          SCHEDULE, Set.of(CORE, COMMAND, SNAPSHOT),
          // Events propagate from an entity to its parents in the hierarchy.
          EVENT, Set.of(CORE, HIERARCHY, INTERNAL));

  @Test
  void everyPackageUsesExactlyTheLayersBelowIt() {
    assertEquals(new TreeMap<>(LAYERS), dependencies());
  }

  @Test
  void noPackageCycle() {
    final Map<String, Set<String>> edges = dependencies();
    for (final String start : edges.keySet()) {
      final List<String> path = new ArrayList<>();
      assertTrue(acyclicFrom(start, edges, path, new TreeSet<>()), "package cycle: " + path);
    }
  }

  @Test
  void theModuleExportsEveryPackage() {
    final ModuleReference module =
        ModuleFinder.of(classes()).findAll().stream().findFirst().orElseThrow();
    final Set<String> exported =
        module.descriptor().exports().stream()
            .filter(export -> !export.isQualified())
            .map(ModuleDescriptor.Exports::source)
            .collect(Collectors.toCollection(TreeSet::new));
    assertEquals(
        new TreeSet<>(
            Set.of(CORE, CLONE, COMMAND, EVENT, HIERARCHY, RELATION, SCHEDULE, SNAPSHOT, INTERNAL)),
        exported);
    assertEquals(
        new TreeSet<>(LAYERS.keySet()), new TreeSet<>(module.descriptor().packages()), "packages");
  }

  private static boolean acyclicFrom(
      final String at,
      final Map<String, Set<String>> edges,
      final List<String> path,
      final Set<String> done) {
    if (path.contains(at)) {
      path.add(at);
      return false;
    }
    if (done.contains(at)) {
      return true;
    }
    path.add(at);
    for (final String next : edges.getOrDefault(at, Set.of())) {
      if (!acyclicFrom(next, edges, path, done)) {
        return false;
      }
    }
    path.remove(path.size() - 1);
    done.add(at);
    return true;
  }

  /** The runtime package edges that {@code jdeps} finds in the compiled main classes. */
  private static Map<String, Set<String>> dependencies() {
    final ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
    final StringWriter out = new StringWriter();
    final int status =
        jdeps.run(
            new PrintWriter(out),
            new PrintWriter(out),
            "-verbose:package",
            "-filter:none",
            classes().toString());
    assertEquals(0, status, out.toString());
    final Map<String, Set<String>> edges = new TreeMap<>();
    for (final String line : out.toString().split("\\R")) {
      final String[] words = line.trim().split("\\s+");
      if (words.length >= 3 && "->".equals(words[1]) && isRuntime(words[0])) {
        final Set<String> uses = edges.computeIfAbsent(words[0], key -> new TreeSet<>());
        if (isRuntime(words[2]) && !words[0].equals(words[2])) {
          uses.add(words[2]);
        }
      }
    }
    return edges;
  }

  private static boolean isRuntime(final String name) {
    return CORE.equals(name) || name.startsWith(CORE + ".");
  }

  private static Path classes() {
    try {
      return Path.of(Registry.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (final URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}

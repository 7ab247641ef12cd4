package dev.phalanx.benchmarks.report;

import java.util.List;

/**
 * The rows of the report, in order. A row appears when the JMH results contain its benchmark class
 * (by simple name), so workloads planned here show up as soon as their class is written; results of
 * classes not listed appear after these rows under their class name.
 *
 * <p>{@code base} names the row whose peer and baseline cells a Phalanx-only row is compared with
 * (for example a group iteration against the peers' iterate2).
 */
public final class Workloads {

  /** One row: the benchmark class's simple name, its title, and the row it is compared with. */
  public record Workload(String className, String title, String base) {}

  /** Every known row, in report order. */
  public static final List<Workload> ALL = List.of(
      // Iteration with views (iteration package).
      new Workload("Iterate1", "iterate1, view", null),
      new Workload("Iterate1Stable", "iterate1, in-place (stable) storage", "Iterate1"),
      new Workload("Iterate2", "iterate2, view", null),
      new Workload("Iterate2RuntimeView", "iterate2, runtime view", "Iterate2"),
      new Workload("Iterate2Half", "iterate2, half the entities match", null),
      new Workload("Iterate2One", "iterate2, one entity matches", null),
      new Workload("Iterate3", "iterate3, view", null),
      new Workload("Iterate5", "iterate5, view", null),
      new Workload("Pathological", "pathological (iterate3 after churn)", "Iterate3"),
      // Phalanx's other iteration forms (groups package): rows appear when the classes exist.
      new Workload("Iterate2NonOwningGroup", "iterate2, non-owning group", "Iterate2"),
      new Workload("Iterate2PartialOwningGroup", "iterate2, partial-owning group", "Iterate2"),
      new Workload("Iterate2FullOwningGroup", "iterate2, full-owning group, per entity", "Iterate2"),
      new Workload("Iterate2FullOwningGroupChunk", "iterate2, full-owning group, chunks", "Iterate2"),
      new Workload("Iterate2FullOwningGroupParallel", "iterate2, full-owning group, parallel chunks", "Iterate2"),
      new Workload("Iterate2Generated", "iterate2, generated loop", "Iterate2"),
      new Workload("Iterate2GeneratedPolluted", "iterate2, generated loop, 5 bodies (profile pollution)", "Iterate2"),
      new Workload("Iterate3FullOwningGroup", "iterate3, full-owning group, per entity", "Iterate3"),
      new Workload("Iterate3FullOwningGroupChunk", "iterate3, full-owning group, chunks", "Iterate3"),
      new Workload("Iterate3Generated", "iterate3, generated loop", "Iterate3"),
      new Workload("Iterate5FullOwningGroupChunk", "iterate5, full-owning group, chunks", "Iterate5"),
      new Workload("Iterate5PartialOwningGroup", "iterate5, partial-owning group (4 of 5 owned)", "Iterate5"),
      new Workload("PathologicalFullOwningGroup", "pathological, full-owning group", "Iterate3"),
      // Random access (access package).
      new Workload("Get1", "get 1 component by entity, registry", null),
      new Workload("Get1Storage", "get 1 component by entity, storage", "Get1"),
      new Workload("Get2", "get 2 components by entity, registry", null),
      // Structural changes (structural package), single shots.
      new Workload("Create", "create", null),
      new Workload("CreateBulk", "create in bulk", "Create"),
      new Workload("CreateWith2", "create with 2 components", null),
      new Workload("Destroy", "destroy (2 components)", null),
      new Workload("Recycle", "create with recycled ids", "Create"),
      new Workload("Remove1", "remove 1 component", null),
      new Workload("Remove2", "remove 2 components", null),
      new Workload("AddRemove", "add then remove 1 component", null),
      new Workload("Sort", "sort 150k by a component field", null));

  /** The implementations, as benchmark method names, in column order, with their display names. */
  public static final List<String[]> IMPLEMENTATIONS = List.of(
      new String[] {"floatArrays", "float[] loop"},
      new String[] {"objects", "objects[]"},
      new String[] {"phalanx", "Phalanx"},
      new String[] {"artemis", "artemis-odb"},
      new String[] {"dominion", "Dominion"},
      new String[] {"ashley", "Ashley"});

  private Workloads() {}
}

package dev.phalanx.benchmarks.report;

import java.util.List;

/**
 * The rows of the report, in order. A row appears when the JMH results contain its benchmark (by
 * key: the class's simple name, then for a benchmark with {@code @Param}s other than {@code lib} a
 * colon and the JMH JSON's values of those parameters in order, comma-separated, for example {@code
 * Iterate:3} or {@code IterateGroup:FullOwning3}; {@code lib} names the column), so workloads
 * planned here show up as soon as their class is written; results not listed appear after these
 * rows under their key.
 *
 * <p>{@code base} names the row whose peer and baseline cells a Phalanx-only row is compared with
 * (for example a group iteration against the peers' iterate2).
 */
public final class Workloads {

  /** One row: the benchmark's key (see above), its title, and the row it is compared with. */
  public record Workload(String className, String title, String base) {}

  /** Every known row, in report order. */
  public static final List<Workload> ALL =
      List.of(
          // Iteration with views (iteration package). "Phalanx" is the generated struct-of-arrays
          // storages.
          new Workload("Iterate:1", "iterate1, view (View1Query.each, cursors)", null),
          new Workload(
              "IterateForms:pages1", "iterate1, storage pages by hand (no view)", "Iterate:1"),
          new Workload(
              "IterateForms:stable1", "iterate1, in-place (stable) storage, view", "Iterate:1"),
          new Workload("Iterate:2", "iterate2, view (View2Query.each, cursors)", null),
          new Workload(
              "IterateForms:pages2", "iterate2, view by hand over page arrays", "Iterate:2"),
          new Workload(
              "IterateForms:objectStorage2",
              "iterate2, view, Phalanx object storage (one object per component)",
              "Iterate:2"),
          new Workload("IterateForms:runtimeView2", "iterate2, runtime view", "Iterate:2"),
          new Workload("IterateForms:runtimeView3", "iterate3, runtime view", "Iterate:3"),
          new Workload("IterateForms:half2", "iterate2, half the entities match", null),
          new Workload(
              "Iterate2Nested",
              "nested: a second query object inside each (1,024 x 1,024 pairs, ns per pair)",
              null),
          new Workload("IterateForms:one2", "iterate2, one entity matches", null),
          new Workload(
              "IterateForms:plain2", "iterate2, every entity also has a Scale", "Iterate:2"),
          new Workload(
              "IterateForms:optional2",
              "iterate2 with Scale as an optional term (every entity has it)",
              "IterateForms:plain2"),
          new Workload("Iterate:3", "iterate3, view (View3Query.each, cursors)", null),
          new Workload("Iterate:5", "iterate5, view (View5Query.each, cursors)", null),
          new Workload(
              "Pathological:View", "pathological, view (iterate3 after churn)", "Iterate:3"),
          new Workload("Pathological:NonOwning", "pathological, non-owning group", "Iterate:3"),
          new Workload(
              "Pathological:PartialOwning",
              "pathological, partial-owning group (1 of 3 owned)",
              "Iterate:3"),
          new Workload(
              "Pathological:FullOwning",
              "pathological, full-owning group, per entity",
              "Iterate:3"),
          new Workload(
              "Pathological:FullOwningChunk",
              "pathological, full-owning group, chunks",
              "Iterate:3"),
          // Groups (groups package), through the generated queries.
          new Workload(
              "IterateGroup:NonOwning1",
              "iterate1, non-owning group (Position alone)",
              "Iterate:1"),
          new Workload("IterateGroup:NonOwning2", "iterate2, non-owning group", "Iterate:2"),
          new Workload(
              "IterateGroup:PartialOwning2",
              "iterate2, partial-owning group (1 of 2 owned)",
              "Iterate:2"),
          new Workload(
              "IterateGroup:FullOwning2",
              "iterate2, full-owning group, per entity (each)",
              "Iterate:2"),
          new Workload(
              "Iterate2GroupPolluted:each",
              "iterate2, full-owning group, each, 5 bodies (profile pollution)",
              "Iterate:2"),
          new Workload(
              "IterateGroup:FullOwningChunk2",
              "iterate2, full-owning group, chunks (eachChunk)",
              "Iterate:2"),
          new Workload(
              "IterateGroup:FullOwningChunkLargePages2",
              "iterate2, full-owning group, chunks, 8192-element pages",
              "Iterate:2"),
          new Workload(
              "Iterate2GroupPolluted:eachChunk",
              "iterate2, full-owning group, chunks, 5 bodies (profile pollution)",
              "Iterate:2"),
          new Workload(
              "IterateGroup:FullOwningParallelChunk2",
              "iterate2, full-owning group, parallel chunks (common pool, 2 threads)",
              "Iterate:2"),
          new Workload("IterateGroup:NonOwning3", "iterate3, non-owning group", "Iterate:3"),
          new Workload(
              "IterateGroup:PartialOwning3",
              "iterate3, partial-owning group (1 of 3 owned)",
              "Iterate:3"),
          new Workload(
              "IterateGroup:FullOwning3",
              "iterate3, full-owning group, per entity (each)",
              "Iterate:3"),
          new Workload(
              "IterateGroup:FullOwningChunk3",
              "iterate3, full-owning group, chunks (eachChunk)",
              "Iterate:3"),
          new Workload(
              "IterateGroup:FullOwningChunkLargePages3",
              "iterate3, full-owning group, chunks, 8192-element pages",
              "Iterate:3"),
          new Workload(
              "IterateGroup:FullOwningParallelChunk3",
              "iterate3, full-owning group, parallel chunks (common pool, 2 threads)",
              "Iterate:3"),
          new Workload("IterateGroup:NonOwning5", "iterate5, non-owning group", "Iterate:5"),
          new Workload(
              "IterateGroup:PartialOwning5",
              "iterate5, partial-owning group (1 of 5 owned)",
              "Iterate:5"),
          new Workload(
              "IterateGroup:PartialOwning3Of5",
              "iterate5, partial-owning group (3 of 5 owned)",
              "Iterate:5"),
          new Workload(
              "IterateGroup:PartialOwning4Of5",
              "iterate5, partial-owning group (4 of 5 owned)",
              "Iterate:5"),
          new Workload(
              "IterateGroup:FullOwning5",
              "iterate5, full-owning group, per entity (each)",
              "Iterate:5"),
          new Workload(
              "IterateGroup:FullOwningChunk5",
              "iterate5, full-owning group, chunks (eachChunk)",
              "Iterate:5"),
          new Workload(
              "IterateGroup:FullOwningParallelChunk5",
              "iterate5, full-owning group, parallel chunks (common pool, 2 threads)",
              "Iterate:5"),
          // Random access (access package).
          new Workload("Get:1", "get 1 component by entity (storage field accessor)", null),
          new Workload(
              "Get1Registry", "get 1 component by entity, registry.get (builds a record)", "Get:1"),
          new Workload("Get:2", "get 2 components by entity (storage field accessors)", null),
          // Structural changes (structural package), single shots.
          new Workload("Create:0", "create", null),
          new Workload("CreateBulk", "create in bulk", "Create:0"),
          new Workload("Create:2", "create with 2 components (typed emplace)", null),
          new Workload("Destroy", "destroy (2 components)", null),
          new Workload(
              "DestroyBatch",
              "destroy (2 components), batch form (registry.destroy(batch, from, to))",
              "Destroy"),
          new Workload("Recycle", "create with recycled ids", "Create:0"),
          new Workload("Remove:1", "remove 1 component", null),
          new Workload("Remove:2", "remove 2 components", null),
          new Workload(
              "ClearPool", "clear a pool (remove 1 component from all at once)", "Remove:1"),
          new Workload("AddRemove", "add then remove 1 component", null),
          new Workload("Sort", "sort 150k by a float field (sortByPosition)", null),
          new Workload("SortAs", "sort 150k: one pool as another (sortAs)", "Sort"),
          new Workload("SortInsertion", "sort 150k almost sorted, insertion sort", "Sort"));

  /** The implementations, as benchmark method names, in column order, with their display names. */
  public static final List<String[]> IMPLEMENTATIONS =
      List.of(
          new String[] {"floatArrays", "float[] loop"},
          new String[] {"objects", "objects[]"},
          new String[] {"phalanx", "Phalanx"},
          new String[] {"phalanxTypedView", "Phalanx typed view"},
          new String[] {"artemis", "artemis-odb"},
          new String[] {"dominion", "Dominion"},
          new String[] {"ashley", "Ashley"});

  private Workloads() {}
}

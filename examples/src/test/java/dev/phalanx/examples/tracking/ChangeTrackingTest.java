package dev.phalanx.examples.tracking;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Registry;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Change tracking on a generated storage: every kind of write stamps the element, queries visit
 * only what changed since a tick, untracked components pay nothing. A seeded model test keeps the
 * expected changed set in a plain HashSet.
 */
class ChangeTrackingTest {

  @Test
  void everyKindOfWriteIsSeenAndNothingElse() {
    final Registry registry = new Registry();
    final Temperature_Storage temperatures = registry.storage(Temperature_Traits.TYPE);
    final Mass_Storage masses = registry.storage(Mass_Traits.TYPE);
    final long[] e = new long[6];
    for (int i = 0; i < e.length; i++) {
      e[i] = registry.create();
      temperatures.emplace(e[i], i);
      masses.emplace(e[i], i);
    }
    assertTrue(temperatures.isTracked());
    assertFalse(masses.isTracked());
    final long seen = registry.advanceChangeTick();
    assertFalse(temperatures.changedSince(e[0], seen));
    temperatures.setCelsius(e[0], 1f);
    temperatures.replace(e[1], 2f);
    temperatures.patch(e[2]);
    registry.replace(e[3], Temperature_Traits.TYPE, new Temperature(4f));
    final Temperature_Cursor cursor = temperatures.cursor();
    cursor.moveToEntity(e[4]);
    cursor.setCelsius(5f);
    masses.setKilograms(e[5], 9f); // untracked: not a change of the temperature
    final Set<Long> changed = new HashSet<>();
    for (final long entity : e) {
      if (temperatures.changedSince(entity, seen)) {
        changed.add(entity);
      }
    }
    assertEquals(Set.of(e[0], e[1], e[2], e[3], e[4]), changed);
  }

  @Test
  void queriesVisitOnlyWhatChangedAndChunksMarkWhatTheyHandOut() {
    final Registry registry = new Registry();
    final CoolingQuery cooling = CoolingQuery.of(registry);
    final WarmQuery warm = WarmQuery.of(registry);
    final List<Long> all = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      final long e = registry.create();
      cooling.temperatureStorage().emplace(e, 20f);
      cooling.massStorage().emplace(e, 1f);
      all.add(e);
    }
    long seen = registry.advanceChangeTick();
    final Set<Long> visited = new HashSet<>();
    cooling.eachChangedSince(seen, (e, t, m) -> visited.add(e));
    assertEquals(Set.of(), visited, "nothing written since");
    cooling.temperatureStorage().setCelsius(all.get(7), 30f);
    cooling.temperatureStorage().setCelsius(all.get(9_000), 30f);
    cooling.eachChangedSince(seen, (e, t, m) -> visited.add(e));
    assertEquals(Set.of(all.get(7), all.get(9_000)), visited);
    visited.clear();
    warm.eachChangedSince(seen, (e, m, t) -> visited.add(e));
    assertEquals(Set.of(all.get(7), all.get(9_000)), visited, "views filter the same way");
    seen = registry.advanceChangeTick();
    cooling.eachChunk(
        (from, to, celsius, kilograms) -> {
          for (int i = from; i < to; i++) {
            celsius[i] -= 1f;
          }
        });
    visited.clear();
    cooling.eachChangedSince(seen, (e, t, m) -> visited.add(e));
    assertEquals(10_000, visited.size(), "the chunk form marks what it hands out");
  }

  @Test
  void aQueryThatReadsATrackedComponentNeverStampsIt() {
    final Registry registry = new Registry();
    final GaugesQuery gauges = GaugesQuery.of(registry);
    final Temperature_Storage temperatures = gauges.temperatureStorage();
    final List<Long> all = new ArrayList<>();
    for (int i = 0; i < 5_000; i++) {
      final long e = registry.create();
      temperatures.emplace(e, i);
      gauges.massStorage().emplace(e, 1f);
      all.add(e);
    }
    final long seen = registry.advanceChangeTick();
    final double[] sum = {0};
    // The plain chunk form: Temperature is read-only, so it is not stamped; Mass may be written.
    gauges.eachChunk(
        (from, to, celsius, kilograms) -> {
          for (int i = from; i < to; i++) {
            sum[0] += celsius[i];
            kilograms[i] += 1f;
          }
        });
    gauges.eachChunk(
        (entities, pageStart, from, to, celsius, kilograms) -> {
          for (int i = from; i < to; i++) {
            sum[0] += celsius[i];
          }
        });
    final java.util.concurrent.ForkJoinPool pool = new java.util.concurrent.ForkJoinPool(2);
    final java.util.concurrent.atomic.AtomicInteger runs =
        new java.util.concurrent.atomic.AtomicInteger();
    try {
      gauges.parallelEachChunk(pool, (from, to, celsius, kilograms) -> runs.addAndGet(1));
    } finally {
      pool.shutdown();
    }
    assertTrue(runs.get() > 0);
    // The visitor reads through a read-only cursor and writes the mass through its cursor.
    final Temperature_ReadCursor[] reader = {null};
    gauges.each(
        (final long e, final Temperature_ReadCursor t, final Mass_Cursor m) -> {
          reader[0] = t;
          m.setKilograms(m.kilograms() + t.celsius());
        });
    assertTrue(sum[0] > 0);
    assertTrue(reader[0] instanceof Temperature_Cursor, "the query's own cursor, typed read-only");
    for (final long e : all) {
      assertFalse(temperatures.changedSince(e, seen), "no pass stamps a read-only component");
    }
    final Set<Long> visited = new HashSet<>();
    gauges.eachChangedSince(seen, (e, t, m) -> visited.add(e));
    assertEquals(Set.of(), visited);
  }

  @Test
  void aReadOnlyChunkPassLeavesChangedSinceFalse() {
    final Registry registry = new Registry();
    final CoolingQuery cooling = CoolingQuery.of(registry);
    final Temperature_Storage temperatures = cooling.temperatureStorage();
    final List<Long> all = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      final long e = registry.create();
      temperatures.emplace(e, i);
      cooling.massStorage().emplace(e, 1f);
      all.add(e);
    }
    final long seen = registry.advanceChangeTick();
    final double[] sum = {0};
    cooling.eachChunkReadOnly(
        (from, to, celsius, kilograms) -> {
          for (int i = from; i < to; i++) {
            sum[0] += celsius[i] * kilograms[i];
          }
        });
    cooling.eachChunkReadOnly(
        (entities, pageStart, from, to, celsius, kilograms) -> {
          for (int i = from; i < to; i++) {
            sum[0] += celsius[i];
          }
        });
    final java.util.concurrent.ForkJoinPool pool = new java.util.concurrent.ForkJoinPool(2);
    try {
      final java.util.concurrent.atomic.AtomicInteger runs =
          new java.util.concurrent.atomic.AtomicInteger();
      cooling.parallelEachChunkReadOnly(pool, (from, to, celsius, kilograms) -> runs.addAndGet(1));
      cooling.parallelEachChunkReadOnly(
          pool, (entities, pageStart, from, to, celsius, kilograms) -> runs.addAndGet(1));
      assertTrue(runs.get() >= 4, "the automatic grain splits 10,000 elements: " + runs);
      for (final long e : all) {
        assertFalse(temperatures.changedSince(e, seen), "a read-only pass stamps nothing");
      }
      final Set<Long> visited = new HashSet<>();
      cooling.eachChangedSince(seen, (e, t, m) -> visited.add(e));
      assertEquals(Set.of(), visited);
      assertTrue(sum[0] > 0);
      // A grain per call: tasks of 1,024 positions, one run each.
      runs.set(0);
      cooling.parallelEachChunk(pool, 1_000, (from, to, celsius, kilograms) -> runs.addAndGet(1));
      assertEquals(10, runs.get());
    } finally {
      pool.shutdown();
    }
    // The writing form stamps what it hands out: the check above could fail.
    for (final long e : all) {
      assertTrue(temperatures.changedSince(e, seen), "parallelEachChunk stamped every run");
    }
  }

  /** The guide's snippet: a system that visits what changed since it last ran. */
  private long seen;

  @Test
  void aSystemSeesEachWriteOnce() {
    final Registry registry = new Registry();
    final CoolingQuery cooling = CoolingQuery.of(registry);
    final long hot = registry.create();
    cooling.temperatureStorage().emplace(hot, 1f);
    cooling.massStorage().emplace(hot, 1f);
    for (int frame = 0; frame < 3; frame++) {
      final List<Long> changedNow = new ArrayList<>();
      // tag::change-tracking[]
      final long since = seen; // what this system saw last time
      seen = registry.advanceChangeTick(); // writes from now on are newer
      cooling.eachChangedSince(since, (e, temperature, mass) -> changedNow.add(e));
      // end::change-tracking[]
      assertEquals(
          0 == frame || 2 == frame ? List.of(hot) : List.of(), changedNow, "frame " + frame);
      if (1 == frame) {
        cooling.temperatureStorage().setCelsius(hot, 5f);
      }
    }
  }

  @Test
  void aNestedLoopOnOneQueryObjectIsRefusedAndASecondQueryWorks() {
    final Registry registry = new Registry();
    final CoolingQuery cooling = CoolingQuery.of(registry);
    for (int i = 0; i < 3; i++) {
      final long e = registry.create();
      cooling.temperatureStorage().emplace(e, i);
      cooling.massStorage().emplace(e, 1f);
    }
    final IllegalStateException error =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalStateException.class,
            () -> cooling.each((e, t, m) -> cooling.each((f, u, n) -> {})));
    assertTrue(error.getMessage().contains("CoolingQuery.of(registry)"), error.getMessage());
    final CoolingQuery inner = CoolingQuery.of(registry);
    final int[] pairs = {0};
    cooling.each((e, t, m) -> inner.each((f, u, n) -> pairs[0]++));
    assertEquals(9, pairs[0], "a second query object nests");
    cooling.each((e, t, m) -> {}); // the flag was reset after the failure
  }

  @Test
  void aReactiveStorageIsAMemberOfAGeneratedQuery() {
    final Registry registry = new Registry();
    final dev.phalanx.ecs.Reactive replaced =
        dev.phalanx.ecs.Reactive.collect(registry, Moved_Traits.TYPE)
            .onUpdate(Temperature_Traits.TYPE);
    final ReheatedQuery reheated = ReheatedQuery.of(registry);
    final Temperature_Storage temperatures = registry.storage(Temperature_Traits.TYPE);
    final List<Long> all = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      final long e = registry.create();
      temperatures.emplace(e, i);
      all.add(e);
    }
    temperatures.replace(all.get(3), 30f);
    registry.replace(all.get(7), Temperature_Traits.TYPE, new Temperature(70f));
    final Set<Long> visited = new HashSet<>();
    reheated.each((e, temperature) -> visited.add(e));
    assertEquals(Set.of(all.get(3), all.get(7)), visited);
    replaced.clear();
    visited.clear();
    reheated.each((e, temperature) -> visited.add(e));
    assertEquals(Set.of(), visited, "processed and cleared");
  }

  @Test
  void groupQueriesSortThroughTheirGroup() {
    final Registry registry = new Registry();
    final CoolingQuery cooling = CoolingQuery.of(registry);
    for (int i = 0; i < 50; i++) {
      final long e = registry.create();
      cooling.temperatureStorage().emplace(e, (i * 37) % 50);
      cooling.massStorage().emplace(e, i);
    }
    final Temperature_Storage temperatures = cooling.temperatureStorage();
    cooling.sortByPosition(
        (l, r) -> Float.compare(temperatures.celsiusAt(l), temperatures.celsiusAt(r)));
    for (int p = 1; p < cooling.size(); p++) {
      assertTrue(temperatures.celsiusAt(p - 1) <= temperatures.celsiusAt(p));
    }
    cooling.sort(Long::compare);
    for (int p = 1; p < cooling.size(); p++) {
      assertTrue(cooling.group().entityAt(p - 1) < cooling.group().entityAt(p));
    }
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void generatedQueriesTellEntriesAndExits() {
    final Registry registry = new Registry();
    final CoolingQuery cooling = CoolingQuery.of(registry);
    final WarmQuery warm = WarmQuery.of(registry);
    final List<String> events = new ArrayList<>();
    cooling.onEnter().connect((r, e) -> events.add("group+" + e));
    cooling.onLeave().connect((r, e) -> events.add("group-" + e));
    warm.onEnter().connect((r, e) -> events.add("view+" + e));
    warm.onLeave().connect((r, e) -> events.add("view-" + e));
    final long e = registry.create();
    cooling.temperatureStorage().emplace(e, 1f);
    assertEquals(List.of(), events);
    cooling.massStorage().emplace(e, 1f);
    assertEquals(List.of("group+" + e, "view+" + e), events);
    events.clear();
    registry.destroy(e);
    assertEquals(Set.of("group-" + e, "view-" + e), new HashSet<>(events));
    assertEquals(2, events.size());
  }

  @Test
  void aSeededProgramMatchesAModelOfChangedEntities() {
    for (long seed = 1; seed <= 5; seed++) {
      final Random random = new Random(seed);
      final Registry registry = new Registry();
      final CoolingQuery cooling = CoolingQuery.of(registry);
      final Temperature_Storage temperatures = cooling.temperatureStorage();
      final List<Long> live = new ArrayList<>();
      final Set<Long> changed = new HashSet<>();
      long seen = registry.advanceChangeTick();
      for (int step = 0; step < 20_000; step++) {
        switch (random.nextInt(8)) {
          case 0, 1 -> {
            final long e = registry.create();
            temperatures.emplace(e, step);
            cooling.massStorage().emplace(e, 1f);
            live.add(e);
            changed.add(e); // an addition counts
          }
          case 2 -> {
            if (!live.isEmpty()) {
              final long e = live.remove(random.nextInt(live.size()));
              registry.destroy(e);
              changed.remove(e);
            }
          }
          case 3, 4 -> {
            if (!live.isEmpty()) {
              final long e = live.get(random.nextInt(live.size()));
              temperatures.setCelsius(e, step);
              changed.add(e);
            }
          }
          case 5 -> {
            if (!live.isEmpty()) {
              final long e = live.get(random.nextInt(live.size()));
              cooling.massStorage().setKilograms(e, step); // untracked
            }
          }
          case 6 -> {
            final Set<Long> visited = new HashSet<>();
            cooling.eachChangedSince(seen, (e, t, m) -> visited.add(e));
            assertEquals(changed, visited, "seed " + seed + " step " + step);
            seen = registry.advanceChangeTick();
            changed.clear();
          }
          default -> {
            // Sorting moves elements: their ticks must move with them.
            cooling
                .group()
                .sortByPosition(
                    (l, r) -> Float.compare(temperatures.celsiusAt(l), temperatures.celsiusAt(r)));
          }
        }
      }
      assertEquals(List.of(), registry.verify());
    }
  }
}

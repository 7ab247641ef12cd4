package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.CursorFixtures.IntCursor;
import dev.phalanx.ecs.CursorFixtures.IntStorage;
import dev.phalanx.ecs.CursorFixtures.Valued;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/**
 * Every form of a view's iteration against a plain reference over random worlds: the typed views of
 * every arity ({@link View1} to {@link View4}), {@link View#each}, {@link RuntimeView#each} in both
 * forms. The reference walks the leading set's packed array from its last position down, skipping
 * holes, and keeps the entities that every included set holds and no excluded set does: the order
 * each of them documents. The worlds mix storages of one page size filled in one order (the typed
 * views' aligned runs), storages of other page sizes, in-place storages with holes, sorted storages
 * and removals, leaders chosen by size or by {@link View#leadBy}, and exclusions.
 */
class ViewReferenceTest {

  private static final int WORLDS = 300;

  // In-place storages, to leave holes: two of the page size of CursorFixtures' E to H (8), and
  // others of sizes no other storage has.
  record I1(int value) implements Valued {}

  record I2(int value) implements Valued {}

  record I3(int value) implements Valued {}

  record I4(int value) implements Valued {}

  private static <T extends Valued> ComponentType<T, IntStorage<T>> inPlace(
      final Class<T> javaClass, final int pageSize, final IntFunction<T> make) {
    return ComponentType.define(
        javaClass,
        new ComponentTraits(pageSize, DeletionPolicy.IN_PLACE, false),
        type -> new IntStorage<>(type, make));
  }

  private static final ComponentType<I1, IntStorage<I1>> TI1 = inPlace(I1.class, 8, I1::new);
  private static final ComponentType<I2, IntStorage<I2>> TI2 = inPlace(I2.class, 8, I2::new);
  private static final ComponentType<I3, IntStorage<I3>> TI3 = inPlace(I3.class, 16, I3::new);
  private static final ComponentType<I4, IntStorage<I4>> TI4 = inPlace(I4.class, 1, I4::new);

  /** A component type with the constructor of its records. */
  private record Kind(ComponentType<?, ?> type, IntFunction<? extends Valued> make) {
    @SuppressWarnings({"unchecked", "rawtypes"})
    void give(final Registry registry, final long entity, final int value) {
      if (!registry.has(entity, type)) {
        registry.emplace(entity, (ComponentType) type, make.apply(value));
      }
    }
  }

  /** The component types a world picks from: one page size, or mixed sizes and policies. */
  private static final List<Kind> SAME_PAGE =
      List.of(
          new Kind(CursorFixtures.TE, CursorFixtures.E::new),
          new Kind(CursorFixtures.TF, CursorFixtures.F::new),
          new Kind(CursorFixtures.TG, CursorFixtures.G::new),
          new Kind(TI1, I1::new),
          new Kind(TI2, I2::new),
          new Kind(CursorFixtures.TH, CursorFixtures.H::new));

  private static final List<Kind> MIXED =
      List.of(
          new Kind(CursorFixtures.TA, CursorFixtures.A::new),
          new Kind(CursorFixtures.TB, CursorFixtures.B::new),
          new Kind(CursorFixtures.TC, CursorFixtures.C::new),
          new Kind(CursorFixtures.TD, CursorFixtures.D::new),
          new Kind(CursorFixtures.TP, CursorFixtures.P::new),
          new Kind(CursorFixtures.TH, CursorFixtures.H::new),
          new Kind(TI3, I3::new),
          new Kind(TI4, I4::new));

  /** One random world, with the sets a view over it includes and excludes and its leader. */
  private static final class World {
    final Registry registry = new Registry();
    final List<IntStorage<?>> include = new ArrayList<>();
    final List<SparseSet> exclude = new ArrayList<>();
    final String description;
    final SparseSet leadBy;

    World(final Random random) {
      final List<Kind> kinds = new ArrayList<>(random.nextBoolean() ? SAME_PAGE : MIXED);
      Collections.shuffle(kinds, random);
      final int arity = 1 + random.nextInt(4);
      final int excluded = random.nextInt(3);
      // Most worlds give every entity all included components, in creation order: long aligned
      // runs, broken by the removals and sorts below.
      final double density = 0 == random.nextInt(3) ? 0.5 + random.nextDouble() / 2 : 1.0;
      final int entities = 0 == random.nextInt(4) ? random.nextInt(20) : random.nextInt(400);
      final List<Long> created = new ArrayList<>();
      for (int i = 0; i < entities; i++) {
        final long e = registry.create();
        created.add(e);
        for (int t = 0; t < arity + excluded; t++) {
          if (t < arity ? random.nextDouble() < density : 0 == random.nextInt(6)) {
            kinds.get(t).give(registry, e, i);
          }
        }
      }
      // Removals leave holes in in-place storages; later additions fill some of them.
      final int changes = random.nextInt(1 + entities / 3);
      for (int c = 0; c < changes; c++) {
        final long e = created.get(random.nextInt(created.size()));
        if (!registry.valid(e)) {
          continue;
        }
        switch (random.nextInt(4)) {
          case 0 -> registry.destroy(e);
          case 1, 2 -> registry.remove(e, kinds.get(random.nextInt(arity + excluded)).type());
          default -> {
            final long fresh = registry.create();
            created.add(fresh);
            for (int t = 0; t < arity; t++) {
              kinds.get(t).give(registry, fresh, c);
            }
          }
        }
      }
      final StringBuilder text = new StringBuilder();
      for (int t = 0; t < arity + excluded; t++) {
        final IntStorage<?> storage = (IntStorage<?>) registry.storage(kinds.get(t).type());
        if (t < arity) {
          include.add(storage);
        } else {
          exclude.add(storage);
        }
        if (0 == random.nextInt(8)) {
          // A sorted storage no longer holds the others' entities at their positions (an
          // in-place one is compacted first, which also moves its elements).
          storage.compact();
          storage.sort(random.nextBoolean() ? Long::compare : (l, r) -> Long.compare(r, l));
        }
        text.append(t < arity ? " +" : " -").append(storage.describe());
      }
      leadBy = random.nextBoolean() ? null : include.get(random.nextInt(arity));
      description = text + (null == leadBy ? "" : " led by " + leadBy.describe());
    }

    View view() {
      final View shape =
          View.of(include.toArray(new SparseSet[0]), exclude.toArray(new SparseSet[0]));
      return null == leadBy ? shape : shape.leadBy(leadBy);
    }

    /** The entities to visit, in order: the leader's, last position first, that match. */
    List<Long> reference() {
      final SparseSet lead = view().leader();
      final List<Long> visits = new ArrayList<>();
      for (int position = lead.size() - 1; position >= 0; position--) {
        final long e = lead.packed()[position];
        if (Entity.isTombstone(e)) {
          continue;
        }
        boolean in = true;
        for (final SparseSet set : include) {
          in &= set.contains(e);
        }
        for (final SparseSet set : exclude) {
          in &= !set.contains(e);
        }
        if (in) {
          visits.add(e);
        }
      }
      return visits;
    }

    /** Checks that {@code cursor}, the {@code n}-th, points at {@code entity}'s element. */
    void assertOn(final int n, final Cursor cursor, final long entity) {
      final IntStorage<?> storage = include.get(n);
      assertEquals(storage.indexOf(entity), cursor.currentPosition(), description);
      assertEquals(entity, ((IntCursor) cursor).entity(), description);
    }
  }

  @Test
  void everyFormVisitsWhatTheReferenceDoesInItsOrder() {
    final Random random = new Random(0x5eed_2026L);
    int aligned = 0;
    for (int w = 0; w < WORLDS; w++) {
      final World world = new World(random);
      final List<Long> expected = world.reference();
      final View view = world.view();
      final List<Long> visits = new ArrayList<>();
      view.each((long e) -> visits.add(e));
      assertEquals(expected, visits, "View.each:" + world.description);
      assertEquals(expected, typed(world), "typed view:" + world.description);
      if (null == world.leadBy) {
        // A runtime view is led by its smallest set, as a view without leadBy.
        final RuntimeView runtime = new RuntimeView();
        world.include.forEach(runtime::iterate);
        world.exclude.forEach(runtime::exclude);
        final List<Long> runtimeVisits = new ArrayList<>();
        runtime.each((long e) -> runtimeVisits.add(e));
        assertEquals(expected, runtimeVisits, "RuntimeView.each:" + world.description);
        final List<Long> positionVisits = new ArrayList<>();
        runtime.each(
            (long e, int[] at) -> {
              for (int n = 0; n < at.length; n++) {
                assertEquals(world.include.get(n).indexOf(e), at[n], world.description);
              }
              positionVisits.add(e);
            });
        assertEquals(expected, positionVisits, "RuntimeView positions:" + world.description);
      }
      if (expected.size() > 8 && alignedRun(world, view.leader())) {
        aligned++;
      }
    }
    // The worlds do exercise the aligned runs, not only the per-entity tests.
    assertTrue(aligned > WORLDS / 10, "worlds with aligned runs: " + aligned);
  }

  /** Whether every included set holds the leader's first page at its positions. */
  private static boolean alignedRun(final World world, final SparseSet lead) {
    final int to = Math.min(lead.size(), 8);
    for (final SparseSet set : world.include) {
      if (!lead.samePositions(set, 0, to)) {
        return false;
      }
    }
    return world.include.size() > 1;
  }

  /** The entities the typed view of the world's arity visits, its cursors checked on each. */
  private static List<Long> typed(final World world) {
    final View shape = world.view();
    final List<IntStorage<?>> sets = world.include;
    final List<Long> visits = new ArrayList<>();
    switch (sets.size()) {
      case 1 ->
          new View1<>(shape, sets.get(0))
              .each(
                  (e, a) -> {
                    world.assertOn(0, a, e);
                    visits.add(e);
                  });
      case 2 ->
          new View2<>(shape, sets.get(0), sets.get(1))
              .each(
                  (e, a, b) -> {
                    world.assertOn(0, a, e);
                    world.assertOn(1, b, e);
                    visits.add(e);
                  });
      case 3 ->
          new View3<>(shape, sets.get(0), sets.get(1), sets.get(2))
              .each(
                  (e, a, b, c) -> {
                    world.assertOn(0, a, e);
                    world.assertOn(1, b, e);
                    world.assertOn(2, c, e);
                    visits.add(e);
                  });
      default ->
          new View4<>(shape, sets.get(0), sets.get(1), sets.get(2), sets.get(3))
              .each(
                  (e, a, b, c, d) -> {
                    world.assertOn(0, a, e);
                    world.assertOn(1, b, e);
                    world.assertOn(2, c, e);
                    world.assertOn(3, d, e);
                    visits.add(e);
                  });
    }
    return visits;
  }
}

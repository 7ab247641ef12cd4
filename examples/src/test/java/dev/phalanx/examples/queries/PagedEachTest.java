package dev.phalanx.examples.queries;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.View2;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The per-entity loops walk their leading storage page by page, a cursor keeping its page for a
 * whole run. Seeded random worlds of several pages, scrambled by destroys and re-creations, against
 * a plain model: while the loop runs, the visitor writes through its cursors, and sometimes removes
 * the visited entity's velocity or destroys it (both allowed, and both move another element into
 * the visited position under swap-and-pop). Every entity that matched when the loop began is
 * visited exactly once, with cursors on its own elements, and every value ends as the model says.
 * Run for the owning group's query, the runtime typed view led by either storage, and a generated
 * view over an in-place storage.
 */
class PagedEachTest {

  /** Three pages of the default 4,096 elements and a partial fourth. */
  private static final int N = 3 * 4096 + 123;

  private final Registry registry = new Registry();
  private final Position_Storage positions = registry.storage(Position_Traits.TYPE);
  private final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
  private final Anchor_Storage anchors = registry.storage(Anchor_Traits.TYPE);
  private final Frozen_Storage frozen = registry.storage(Frozen_Traits.TYPE);

  // The model: what each live entity holds.
  private final Map<Long, float[]> position = new HashMap<>();
  private final Map<Long, float[]> velocity = new HashMap<>();
  private final Map<Long, Integer> anchor = new HashMap<>();
  private final Set<Long> frozenSet = new HashSet<>();

  private void populate(final Random random) {
    final List<Long> alive = new ArrayList<>();
    for (int i = 0; i < N; i++) {
      alive.add(create(random));
    }
    // Destroy and re-create a tenth, so that storages are no longer in creation order.
    for (int i = 0; i < N / 10; i++) {
      final long victim = alive.remove(random.nextInt(alive.size()));
      registry.destroy(victim);
      forget(victim);
      alive.add(create(random));
    }
  }

  private long create(final Random random) {
    final long e = registry.create();
    final float x = random.nextInt(1000);
    final float y = random.nextInt(1000);
    positions.emplace(e, x, y);
    position.put(e, new float[] {x, y});
    if (random.nextInt(5) != 0) {
      final float vx = random.nextInt(9) - 4;
      final float vy = random.nextInt(9) - 4;
      velocities.emplace(e, vx, vy);
      velocity.put(e, new float[] {vx, vy});
    }
    if (random.nextInt(4) == 0) {
      final int id = random.nextInt(100);
      anchors.emplace(e, id);
      anchor.put(e, id);
    }
    if (random.nextInt(11) == 0) {
      frozen.emplace(e);
      frozenSet.add(e);
    }
    return e;
  }

  private void forget(final long e) {
    position.remove(e);
    velocity.remove(e);
    anchor.remove(e);
    frozenSet.remove(e);
  }

  /** What the visitor does after moving the visited entity: nothing, or one allowed change. */
  private void mutate(final long e, final Random random) {
    final int roll = random.nextInt(20);
    if (roll == 0) {
      registry.destroy(e);
      forget(e);
    } else if (roll == 1) {
      velocities.remove(e);
      velocity.remove(e);
    }
  }

  private Set<Long> movers() {
    final Set<Long> expected = new HashSet<>();
    for (final Long e : velocity.keySet()) {
      if (!frozenSet.contains(e)) {
        expected.add(e);
      }
    }
    return expected;
  }

  private Set<Long> anchored() {
    final Set<Long> expected = new HashSet<>();
    for (final Long e : anchor.keySet()) {
      if (!frozenSet.contains(e)) {
        expected.add(e);
      }
    }
    return expected;
  }

  private void move(final long e) {
    final float[] p = position.get(e);
    final float[] v = velocity.get(e);
    p[0] += v[0];
    p[1] += v[1];
  }

  private void assertModel() {
    assertEquals(position.size(), registry.alive());
    for (final Map.Entry<Long, float[]> entry : position.entrySet()) {
      final long e = entry.getKey();
      assertEquals(entry.getValue()[0], positions.x(e), () -> "x of " + e);
      assertEquals(entry.getValue()[1], positions.y(e), () -> "y of " + e);
    }
    assertTrue(registry.verify().isEmpty(), registry.verify().toString());
  }

  @Test
  void theOwningGroupsEachVisitsEveryMemberOnceAcrossPages() {
    for (int seed = 0; seed < 4; seed++) {
      final Random random = new Random(seed);
      final MoversQuery query = MoversQuery.of(registry);
      populate(random);
      for (int pass = 0; pass < 3; pass++) {
        final Set<Long> expected = movers();
        final Set<Long> seen = new HashSet<>();
        query.each(
            (e, p, v) -> {
              assertTrue(seen.add(e), () -> "visited twice: " + e);
              assertEquals(e, p.currentEntity());
              assertEquals(e, v.currentEntity());
              p.setX(p.x() + v.x());
              p.setY(p.y() + v.y());
              move(e);
              mutate(e, random);
            });
        assertEquals(expected, seen, "seed " + seed + ", pass " + pass);
        assertModel();
      }
      registry.clear();
      forgetAll();
    }
  }

  @Test
  void theTypedViewVisitsEveryMatchOnceAcrossPagesWhicheverStorageLeads() {
    for (int seed = 0; seed < 4; seed++) {
      final Random random = new Random(100 + seed);
      populate(random);
      for (int pass = 0; pass < 4; pass++) {
        final View2<Position_Cursor, Velocity_Cursor> view =
            registry
                .typedView(Position_Traits.TYPE, Velocity_Traits.TYPE)
                .exclude(frozen)
                .leadBy(pass % 2 == 0 ? positions : velocities);
        final Set<Long> expected = movers();
        final Set<Long> seen = new HashSet<>();
        view.each(
            (e, p, v) -> {
              assertTrue(seen.add(e), () -> "visited twice: " + e);
              assertEquals(e, p.currentEntity());
              assertEquals(e, v.currentEntity());
              p.setX(p.x() + v.x());
              p.setY(p.y() + v.y());
              move(e);
              mutate(e, random);
            });
        assertEquals(expected, seen, "seed " + seed + ", pass " + pass);
        assertModel();
      }
      registry.clear();
      forgetAll();
    }
  }

  @Test
  void aGeneratedViewOverAnInPlaceStorageVisitsEveryMatchOnceAcrossPages() {
    for (int seed = 0; seed < 4; seed++) {
      final Random random = new Random(200 + seed);
      populate(random);
      final AnchoredQuery query = AnchoredQuery.of(registry);
      for (int pass = 0; pass < 3; pass++) {
        final Set<Long> expected = anchored();
        final Set<Long> seen = new HashSet<>();
        query.each(
            (e, p, a) -> {
              assertTrue(seen.add(e), () -> "visited twice: " + e);
              assertEquals(e, p.currentEntity());
              assertEquals(e, a.currentEntity());
              assertEquals(anchor.get(e), a.id());
              p.setX(p.x() + a.id());
              position.get(e)[0] += anchor.get(e);
              mutate(e, random);
            });
        assertEquals(expected, seen, "seed " + seed + ", pass " + pass);
        assertModel();
      }
      registry.clear();
      forgetAll();
    }
  }

  @Test
  void moreLoopBodiesThanLoopCopiesAllVisitEveryMember() {
    populate(new Random(300));
    final MoversQuery query = MoversQuery.of(registry);
    final Set<Long> expected = movers();
    // Ten lambda expressions, ten classes: more than the query's eight loop copies, so the last
    // ones share a copy (and other tests of this class may have taken copies already).
    final List<Set<Long>> seen = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      seen.add(new HashSet<>());
    }
    query.each((e, p, v) -> seen.get(0).add(e));
    query.each((e, p, v) -> seen.get(1).add(e));
    query.each((e, p, v) -> seen.get(2).add(e));
    query.each((e, p, v) -> seen.get(3).add(e));
    query.each((e, p, v) -> seen.get(4).add(e));
    query.each((e, p, v) -> seen.get(5).add(e));
    query.each((e, p, v) -> seen.get(6).add(e));
    query.each((e, p, v) -> seen.get(7).add(e));
    query.each((e, p, v) -> seen.get(8).add(e));
    query.each((e, p, v) -> seen.get(9).add(e));
    for (int i = 0; i < 10; i++) {
      assertEquals(expected, seen.get(i), "body " + i);
    }
  }

  private void forgetAll() {
    position.clear();
    velocity.clear();
    anchor.clear();
    frozenSet.clear();
  }
}

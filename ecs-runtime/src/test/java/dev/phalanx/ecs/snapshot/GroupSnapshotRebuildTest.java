package dev.phalanx.ecs.snapshot;

import static dev.phalanx.ecs.GroupTypes.NONE;
import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static dev.phalanx.ecs.GroupTypes.TC;
import static dev.phalanx.ecs.GroupTypes.TS;
import static dev.phalanx.ecs.GroupTypes.types;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Group;
import dev.phalanx.ecs.GroupTypes;
import dev.phalanx.ecs.GroupTypes.A;
import dev.phalanx.ecs.GroupTypes.B;
import dev.phalanx.ecs.GroupTypes.C;
import dev.phalanx.ecs.GroupTypes.S;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Storage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Groups after a snapshot is loaded: rebuilt from the loaded storages, exact, and (when the saved
 * registry had the same groups) with every element where it was saved.
 */
class GroupSnapshotRebuildTest {

  /** Writes and reads a record of the group tests as its int. */
  private static <T extends GroupTypes.Valued> ValueCodec<T> codec(final IntFunction<T> make) {
    return new ValueCodec<>() {
      @Override
      public void write(final T value, final DataOutput out) throws IOException {
        out.writeInt(value.value());
      }

      @Override
      public T read(final DataInput in) throws IOException {
        return make.apply(in.readInt());
      }
    };
  }

  /** Creates the groups, inner first or outer first. */
  private static List<Group> groups(final Registry registry, final boolean innerFirst) {
    final Group inner;
    final Group outer;
    if (innerFirst) {
      inner = registry.owningGroup(types(TA, TB), types(TC), NONE);
      outer = registry.owningGroup(types(TA), types(TC), NONE);
    } else {
      outer = registry.owningGroup(types(TA), types(TC), NONE);
      inner = registry.owningGroup(types(TA, TB), types(TC), NONE);
    }
    final Group plain = registry.nonOwningGroup(types(TB), types(TC));
    return List.of(outer, inner, plain);
  }

  /** A registry with random components; C, smaller than A, lists its entities in another order. */
  private static Registry populated(final boolean withGroups) {
    final Registry registry = new Registry();
    registry.storage(TA);
    registry.storage(TB);
    registry.storage(TC);
    if (withGroups) {
      groups(registry, false);
    }
    final Random random = new Random(11);
    final long[] entities = new long[60];
    registry.create(entities);
    for (int i = entities.length - 1; i >= 0; i--) {
      if (random.nextInt(3) == 0) {
        registry.emplace(entities[i], TC, new C(i));
      }
    }
    for (int i = 0; i < entities.length; i++) {
      if (random.nextInt(4) != 0) {
        registry.emplace(entities[i], TA, new A(i));
      }
      if (random.nextBoolean()) {
        registry.emplace(entities[i], TB, new B(i));
      }
    }
    return registry;
  }

  private static Registry roundTrip(final Registry saved, final boolean innerFirst)
      throws IOException {
    return roundTrip(
        saved,
        loaded -> {
          loaded.storage(TA);
          loaded.storage(TB);
          loaded.storage(TC);
          groups(loaded, innerFirst);
        });
  }

  /**
   * Saves {@code saved} and loads it into a fresh registry that {@code prepare} readies (its
   * storages and groups) first.
   */
  private static Registry roundTrip(final Registry saved, final Consumer<Registry> prepare)
      throws IOException {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    new SnapshotWriter(saved)
        .codec(A.class, codec(A::new))
        .codec(B.class, codec(B::new))
        .codec(C.class, codec(C::new))
        .codec(S.class, codec(S::new))
        .write(out);
    final Registry loaded = new Registry();
    prepare.accept(loaded);
    new SnapshotLoader(loaded)
        .codec(A.class, codec(A::new))
        .codec(B.class, codec(B::new))
        .codec(C.class, codec(C::new))
        .codec(S.class, codec(S::new))
        .load(new ByteArrayInputStream(out.toByteArray()));
    return loaded;
  }

  private static long[] packed(final Registry registry, final ComponentType<?, ?> type) {
    final Storage<?> storage = registry.storage(type);
    return Arrays.copyOf(storage.packed(), storage.size());
  }

  @Test
  void groupsSavedWithTheRegistryComeBackWithEveryElementInPlace() throws IOException {
    // Rule: loading a snapshot of a registry that had the same groups rebuilds them exactly and
    // moves no element: the saved owned prefixes are found in front, whatever order the loading
    // registry created its groups in.
    final Registry saved = populated(true);
    final List<Group> savedGroups = List.of(saved.groups().get(0), saved.groups().get(1));
    for (final boolean innerFirst : new boolean[] {false, true}) {
      final Registry loaded = roundTrip(saved, innerFirst);
      assertEquals(List.of(), loaded.verify());
      assertArrayEquals(packed(saved, TA), packed(loaded, TA));
      assertArrayEquals(packed(saved, TB), packed(loaded, TB));
      final List<Group> loadedGroups = groups(loaded, innerFirst);
      assertEquals(savedGroups.get(0).size(), loadedGroups.get(0).size());
      assertEquals(savedGroups.get(1).size(), loadedGroups.get(1).size());
      assertTrue(loadedGroups.get(1).size() > 0);
      assertEquals(saved.groups().get(2).size(), loadedGroups.get(2).size());
      assertTrue(loadedGroups.get(2).size() > 0);
    }
  }

  @Test
  void groupsTheSavedRegistryLackedAreArrangedFromTheLoadedStorages() throws IOException {
    // Rule: groups the saved registry did not have are arranged from scratch on load, exact and
    // nested, with the same members a registry arranging them directly would have.
    final Registry saved = populated(false);
    final Registry direct = populated(true);
    for (final boolean innerFirst : new boolean[] {false, true}) {
      final Registry loaded = roundTrip(saved, innerFirst);
      assertEquals(List.of(), loaded.verify());
      final List<Group> loadedGroups = groups(loaded, innerFirst);
      for (int i = 0; i < 3; i++) {
        assertEquals(direct.groups().get(i).size(), loadedGroups.get(i).size(), "group " + i);
      }
    }
  }

  /**
   * A registry of A, B and {@code excluded} (C, or S, whose in-place storage keeps holes; filled in
   * shuffled order), with the group {@code <A, B> exclude excluded} if {@code withGroup}, and some
   * entities destroyed. The excluded storage is often no larger than the owned storages' tail,
   * which the rebuild then walks to skip excluded entities without looking them up.
   */
  private static Registry excluding(
      final long seed, final ComponentType<?, ?> excluded, final boolean withGroup) {
    final Random random = new Random(seed);
    final Registry registry = new Registry();
    registry.storage(TA);
    registry.storage(TB);
    registry.storage(excluded);
    if (withGroup) {
      registry.owningGroup(types(TA, TB), NONE, types(excluded));
    }
    final long[] entities = new long[40 + random.nextInt(200)];
    registry.create(entities);
    final int aPercent = 50 + random.nextInt(51);
    final int bPercent = 50 + random.nextInt(51);
    final int excludedPercent = random.nextInt(60);
    final long[] shuffled = entities.clone();
    for (int i = shuffled.length - 1; i > 0; i--) {
      final int j = random.nextInt(i + 1);
      final long swap = shuffled[i];
      shuffled[i] = shuffled[j];
      shuffled[j] = swap;
    }
    for (int i = 0; i < entities.length; i++) {
      if (random.nextInt(100) < aPercent) {
        registry.emplace(entities[i], TA, new A(i));
      }
      if (random.nextInt(100) < bPercent) {
        registry.emplace(entities[i], TB, new B(i));
      }
      if (random.nextInt(100) < excludedPercent) {
        emplace(registry, shuffled[i], excluded, i);
      }
    }
    for (int i = 0; i < entities.length; i += 1 + random.nextInt(9)) {
      registry.destroy(entities[i]);
    }
    return registry;
  }

  private static <T> void emplace(
      final Registry registry, final long entity, final ComponentType<T, ?> type, final int value) {
    registry.emplace(entity, type, GroupTypes.value(type, value));
  }

  /** The group's members, sorted. */
  private static long[] members(final Group group) {
    final long[] members = new long[group.size()];
    for (int i = 0; i < members.length; i++) {
      members[i] = group.entityAt(i);
    }
    Arrays.sort(members);
    return members;
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void anExcludedStorageNoLargerThanTheTailLeavesExactlyItsEntitiesOut(final boolean inPlace)
      throws IOException {
    // Rule: an owning group with an excluded storage is rebuilt exactly, whether the saved registry
    // had the group (members in front, excluded entities scattered in the tail) or not, and whether
    // the excluded storage is walked (no larger than the owned storages' tail) or looked up, and
    // whether it keeps holes (in place) or not.
    final ComponentType<?, ?> excluded = inPlace ? TS : TC;
    int walked = 0;
    for (long seed = 0; seed < 200; seed++) {
      for (final boolean withGroup : new boolean[] {false, true}) {
        final Registry saved = excluding(seed, excluded, withGroup);
        final Registry direct = withGroup ? saved : excluding(seed, excluded, true);
        final Group expected = direct.groups().get(0);
        final Registry loaded =
            roundTrip(
                saved,
                into -> {
                  into.storage(TA);
                  into.storage(TB);
                  into.storage(excluded);
                  into.owningGroup(types(TA, TB), NONE, types(excluded));
                });
        final Group rebuilt = loaded.groups().get(0);
        final String where = "seed " + seed + (withGroup ? ", saved with the group" : "");
        assertEquals(List.of(), loaded.verify(), where);
        assertArrayEquals(members(expected), members(rebuilt), where);
        if (withGroup) {
          assertArrayEquals(packed(saved, TA), packed(loaded, TA), where);
          assertArrayEquals(packed(saved, TB), packed(loaded, TB), where);
        }
        final int tail =
            Math.min(loaded.storage(TA).size(), loaded.storage(TB).size()) - expected.size();
        walked += loaded.storage(excluded).size() <= tail ? 1 : 0;
      }
    }
    // Both ways of excluding are exercised (a tail at least as large, and a smaller one).
    assertTrue(walked > 40 && walked < 360, walked + " of 400 rebuilds walked " + excluded);
  }

  /**
   * A registry without groups whose A and B hold {@code e0..e3} in the same order, and whose C
   * lists {@code first} first, then {@code e4..e(3 + more)}, which have neither A nor B.
   */
  private static Registry aligned(final long[] entities, final int first, final int more) {
    final Registry registry = new Registry();
    registry.storage(TA);
    registry.storage(TB);
    registry.storage(TC);
    registry.create(entities);
    for (int i = 0; i < 4; i++) {
      registry.emplace(entities[i], TA, new A(i));
      registry.emplace(entities[i], TB, new B(i));
    }
    registry.emplace(entities[first], TC, new C(first));
    for (int i = 4; i < 4 + more; i++) {
      registry.emplace(entities[i], TC, new C(i));
    }
    return registry;
  }

  @Test
  void anExcludedEntityAtTheFrontOfAStorageIsLeftOutOfTheAlignedPrefix() throws IOException {
    // Rule: the aligned front of the owned storages is adopted only up to the first excluded
    // entity, also when that entity is the very first one: first of the owned storages (the
    // excluded storage, small, is walked), or first of the excluded storage (large: looked up).
    final long[] entities = new long[10];
    final int[][] cases = {{0, 0}, {2, 6}, {0, 6}, {2, 0}};
    for (final int[] c : cases) {
      final Registry saved = aligned(entities, c[0], c[1]);
      final Registry loaded =
          roundTrip(
              saved,
              into -> {
                into.storage(TA);
                into.storage(TB);
                into.storage(TC);
                into.owningGroup(types(TA, TB), NONE, types(TC));
              });
      final Group group = loaded.groups().get(0);
      final String where = "C lists e" + c[0] + " first, then " + c[1] + " others";
      assertEquals(List.of(), loaded.verify(), where);
      assertEquals(3, group.size(), where);
      assertTrue(!group.contains(entities[c[0]]), where);
      for (int i = 0; i < 4; i++) {
        assertEquals(i != c[0], group.contains(entities[i]), where + ": e" + i);
      }
    }
  }

  /** Loads {@code saved} into a registry with {@code <A> !C} and {@code <A, B> !C}. */
  private static Registry nestedExcluding(final Registry saved, final boolean innerFirst)
      throws IOException {
    return roundTrip(
        saved,
        into -> {
          into.storage(TA);
          into.storage(TB);
          into.storage(TC);
          if (innerFirst) {
            into.owningGroup(types(TA, TB), NONE, types(TC));
            into.owningGroup(types(TA), NONE, types(TC));
          } else {
            into.owningGroup(types(TA), NONE, types(TC));
            into.owningGroup(types(TA, TB), NONE, types(TC));
          }
        });
  }

  @Test
  void aLoadArrangesTheStoragesAlikeWhateverOrderTheGroupsWereCreatedIn() throws IOException {
    // Rule: the groups are rebuilt from the less restrictive to the more restrictive, not in
    // creation order, so two registries with the same groups load a snapshot into the same element
    // order (a replica set up in another order stays in step), each exact.
    int moved = 0;
    for (long seed = 0; seed < 100; seed++) {
      final Registry saved = excluding(seed, TC, false);
      final Registry outerFirst = nestedExcluding(saved, false);
      final Registry innerFirst = nestedExcluding(saved, true);
      final String where = "seed " + seed;
      assertEquals(List.of(), outerFirst.verify(), where);
      assertEquals(List.of(), innerFirst.verify(), where);
      assertArrayEquals(packed(outerFirst, TA), packed(innerFirst, TA), where);
      assertArrayEquals(packed(outerFirst, TB), packed(innerFirst, TB), where);
      moved += Arrays.equals(packed(saved, TA), packed(innerFirst, TA)) ? 0 : 1;
    }
    assertTrue(moved > 50, moved + " of 100 loads rearranged A");
  }
}

package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static dev.phalanx.ecs.GroupTypes.TX;
import static dev.phalanx.ecs.GroupTypes.types;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.GroupTypes.A;
import dev.phalanx.ecs.GroupTypes.B;
import dev.phalanx.ecs.GroupTypes.X;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.ConcurrentModificationException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Key-based and insertion sorts of non-owning groups and storages, and the two iteration
 * directions, against a plain model: a list of the members in position order, sorted with the JDK's
 * stable List.sort.
 */
class GroupOrderTest {

  private static final int[] SIZES = {0, 1, 2, 7, 31, 32, 33, 100, 1_000, 5_000};

  private Registry registry = new Registry();
  private final Map<Long, Long> longKeys = new HashMap<>();
  private final Map<Long, Float> floatKeys = new HashMap<>();

  /** The kinds of sort under test; each sorts {@code group} and the model the same way. */
  enum Kind {
    LONG_KEY,
    FLOAT_KEY,
    INSERTION_LONG_KEY,
    INSERTION_FLOAT_KEY,
    INSERTION_COMPARATOR,
    COMPARATOR
  }

  /** Members of a non-owning group over A and B, excluding X; some entities do not match. */
  private NonOwningGroup populate(final Random random, final int members) {
    final NonOwningGroup group = registry.nonOwningGroup(types(TA, TB), types(TX));
    while (group.size() < members) {
      final long e = registry.create();
      registry.emplace(e, TA, new A(random.nextInt()));
      if (random.nextInt(8) != 0) {
        registry.emplace(e, TB, new B(0));
      }
      if (random.nextInt(16) == 0) {
        registry.emplace(e, TX, new X(0));
      }
    }
    return group;
  }

  /** Random keys: wide, narrow (many duplicates), negative, the special floats, all equal. */
  private void assignKeys(final Random random, final Group group, final int shape) {
    for (int p = 0; p < group.size(); p++) {
      final long e = group.entityAt(p);
      final long key =
          switch (shape) {
            case 0 -> random.nextLong();
            case 1 -> random.nextInt(5) - 2;
            case 2 -> random.nextInt(1 << 20);
            case 3 -> Long.MIN_VALUE + random.nextInt(3) * (Long.MAX_VALUE / 2);
            default -> 42;
          };
      longKeys.put(e, key);
      final float[] specials = {
        Float.NaN, -0.0f, 0.0f, Float.NEGATIVE_INFINITY, Float.POSITIVE_INFINITY, Float.MIN_VALUE
      };
      final float value =
          switch (shape) {
            case 0 -> (random.nextFloat() - 0.5f) * 1e6f;
            case 1 -> random.nextInt(4) - 1.5f;
            case 2 -> specials[random.nextInt(specials.length)];
            case 3 -> -random.nextFloat();
            default -> -0.5f;
          };
      floatKeys.put(e, value);
    }
  }

  private List<Long> positions(final Group group) {
    final List<Long> order = new ArrayList<>();
    for (int p = 0; p < group.size(); p++) {
      order.add(group.entityAt(p));
    }
    return order;
  }

  private long longKey(final long e) {
    return longKeys.get(e);
  }

  private float floatKey(final long e) {
    return floatKeys.get(e);
  }

  private int byLongKey(final long l, final long r) {
    return Long.compare(longKey(l), longKey(r));
  }

  private void sort(final NonOwningGroup group, final Kind kind) {
    switch (kind) {
      case LONG_KEY -> group.sortByLongKey(this::longKey);
      case FLOAT_KEY -> group.sortByFloatKey(this::floatKey);
      case INSERTION_LONG_KEY -> group.insertionSortByLongKey(this::longKey);
      case INSERTION_FLOAT_KEY -> group.insertionSortByFloatKey(this::floatKey);
      case INSERTION_COMPARATOR -> group.insertionSort(this::byLongKey);
      case COMPARATOR -> group.sort(this::byLongKey);
    }
  }

  private Comparator<Long> modelOrder(final Kind kind) {
    return switch (kind) {
      case FLOAT_KEY, INSERTION_FLOAT_KEY -> (l, r) -> Float.compare(floatKey(l), floatKey(r));
      default -> Comparator.comparingLong(this::longKey);
    };
  }

  private static boolean stable(final Kind kind) {
    return Kind.COMPARATOR != kind;
  }

  @Test
  void keySortsMatchAStableModelSortOnRandomAndNearlySortedInput() {
    final Random random = new Random(33);
    for (final Kind kind : Kind.values()) {
      for (final int size : SIZES) {
        if (Kind.INSERTION_COMPARATOR == kind && size > 1_000) {
          continue; // quadratic on random input
        }
        for (int shape = 0; shape < 5; shape++) {
          final Registry fresh = new Registry();
          final GroupOrderTest world = world(fresh);
          final NonOwningGroup group = world.populate(random, size);
          world.assignKeys(random, group, shape);
          world.checkSort(group, kind, "random " + kind + " n=" + size + " shape " + shape);
          // Nearly sorted: a few members get new keys; the insertion forms are made for this.
          for (int i = 0; i < Math.max(1, size / 50); i++) {
            if (0 != size) {
              final long e = group.entityAt(random.nextInt(size));
              world.longKeys.merge(e, (long) random.nextInt(3) - 1, Long::sum);
              world.floatKeys.merge(e, random.nextFloat() - 0.5f, Float::sum);
            }
          }
          world.checkSort(group, kind, "nearly sorted " + kind + " n=" + size);
          assertEquals(List.of(), fresh.verify());
        }
      }
    }
  }

  /** A second world of the same shape, on {@code registry}. */
  private static GroupOrderTest world(final Registry registry) {
    final GroupOrderTest world = new GroupOrderTest();
    world.registry = registry;
    return world;
  }

  private void checkSort(final NonOwningGroup group, final Kind kind, final String what) {
    final List<Long> model = positions(group);
    model.sort(modelOrder(kind));
    sort(group, kind);
    final List<Long> sorted = positions(group);
    if (stable(kind)) {
      assertEquals(model, sorted, what);
    } else {
      // Not stable: the keys must be in order and the members the same.
      final List<Long> keys = new ArrayList<>();
      final List<Long> expected = new ArrayList<>();
      for (int i = 0; i < model.size(); i++) {
        keys.add(longKey(sorted.get(i)));
        expected.add(longKey(model.get(i)));
      }
      assertEquals(expected, keys, what);
      final List<Long> a = new ArrayList<>(model);
      final List<Long> b = new ArrayList<>(sorted);
      Collections.sort(a);
      Collections.sort(b);
      assertEquals(a, b, what);
    }
    // Both directions: eachInOrder walks position 0 first, each the last first.
    final List<Long> forward = new ArrayList<>();
    group.eachInOrder(forward::add);
    assertEquals(sorted, forward, what + " in order");
    final List<Long> backward = new ArrayList<>();
    group.each(backward::add);
    Collections.reverse(backward);
    assertEquals(sorted, backward, what + " each walks backwards");
    for (final long e : sorted) {
      assertTrue(group.contains(e));
    }
  }

  @Test
  void storagesSortByKeyAndAViewLedByThemFollows() {
    final Random random = new Random(7);
    final ObjectStorage<A> as = registry.storage(TA);
    final List<Long> model = new ArrayList<>();
    for (int i = 0; i < 3_000; i++) {
      final long e = registry.create();
      registry.emplace(e, TA, new A(random.nextInt(1000) - 500));
      model.add(e);
    }
    as.sortByLongKey(e -> as.get(e).value());
    model.sort(Comparator.comparingInt(e -> as.get(e).value()));
    final List<Long> sorted = new ArrayList<>();
    for (int p = 0; p < as.size(); p++) {
      sorted.add(as.at(p));
    }
    assertEquals(model, sorted);
    final int largest = as.get(model.get(model.size() - 1)).value();
    as.sortByFloatKey(e -> -as.get(e).value());
    assertEquals(largest, as.get(as.at(0)).value(), "negated keys: the largest value first");
    as.insertionSortByLongKey(e -> as.get(e).value());
    assertTrue(as.get(as.at(0)).value() <= as.get(as.at(1)).value());
    as.insertionSortByFloatKey(e -> as.get(e).value());
    as.insertionSort((l, r) -> Integer.compare(as.get(l).value(), as.get(r).value()));
    // A view over A alone walks A from its last position: the largest value first.
    final List<Long> visited = new ArrayList<>();
    registry.view(TA).each(visited::add);
    assertEquals(as.at(as.size() - 1), visited.get(0));
    assertEquals(largest, as.get(visited.get(0)).value());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aThrowingKeyOrComparatorLeavesTheOldOrderAtEveryCall() {
    // Fault injection: the user function throws at its k-th call, for every k; the group keeps
    // its old order, every lock is released and the registry is consistent.
    for (final Kind kind : Kind.values()) {
      for (final int size : new int[] {5, 40}) {
        final Registry fresh = new Registry();
        final GroupOrderTest world = world(fresh);
        final NonOwningGroup group = world.populate(new Random(size), size);
        world.assignKeys(new Random(size), group, 0);
        final int[] calls = {0};
        world.sort(group, kind);
        world.longKeys.replaceAll((e, k) -> -k);
        world.floatKeys.replaceAll((e, k) -> -k);
        final int total;
        {
          final List<Long> before = world.positions(group);
          final ThrowingWorld counting = new ThrowingWorld(world, Integer.MAX_VALUE, calls);
          counting.sort(group, kind);
          total = calls[0];
          assertTrue(total >= size - 1, kind + ": " + total + " calls");
          // Restore the order the fault runs start from.
          final Map<Long, Integer> rank = new HashMap<>();
          for (int i = 0; i < before.size(); i++) {
            rank.put(before.get(i), i);
          }
          group.sortByLongKey(rank::get);
        }
        for (int k = 1; k <= total; k++) {
          final List<Long> before = world.positions(group);
          calls[0] = 0;
          final ThrowingWorld faulty = new ThrowingWorld(world, k, calls);
          final IllegalStateException thrown =
              assertThrows(IllegalStateException.class, () -> faulty.sort(group, kind));
          assertEquals("call " + k, thrown.getMessage());
          assertEquals(before, world.positions(group), kind + " throwing at call " + k);
          assertEquals(List.of(), fresh.verify(), kind + " at call " + k);
          for (int i = 0; i < group.getCount(); i++) {
            assertFalse(group.get(i).isLocked());
          }
          assertFalse(group.members().isLocked());
        }
        // And the group still sorts.
        world.checkSort(group, kind, kind + " after the faults");
      }
    }
  }

  /** A world whose key functions and comparator throw at call {@code failAt}. */
  private static final class ThrowingWorld {
    private final GroupOrderTest world;
    private final int failAt;
    private final int[] calls;

    ThrowingWorld(final GroupOrderTest world, final int failAt, final int[] calls) {
      this.world = world;
      this.failAt = failAt;
      this.calls = calls;
    }

    private void tick() {
      if (++calls[0] == failAt) {
        throw new IllegalStateException("call " + failAt);
      }
    }

    void sort(final NonOwningGroup group, final Kind kind) {
      final EntityLongKey longKey =
          e -> {
            tick();
            return world.longKey(e);
          };
      final EntityFloatKey floatKey =
          e -> {
            tick();
            return world.floatKey(e);
          };
      final EntityComparator comparator =
          (l, r) -> {
            tick();
            return world.byLongKey(l, r);
          };
      switch (kind) {
        case LONG_KEY -> group.sortByLongKey(longKey);
        case FLOAT_KEY -> group.sortByFloatKey(floatKey);
        case INSERTION_LONG_KEY -> group.insertionSortByLongKey(longKey);
        case INSERTION_FLOAT_KEY -> group.insertionSortByFloatKey(floatKey);
        case INSERTION_COMPARATOR -> group.insertionSort(comparator);
        case COMPARATOR -> group.sort(comparator);
      }
    }
  }

  @Test
  void keyFunctionsAndInOrderBodiesMayNotChangeTheStructure() {
    final NonOwningGroup group = populate(new Random(3), 50);
    final List<Long> before = positions(group);
    final long member = group.entityAt(0);
    final ConcurrentModificationException refused =
        assertThrows(
            ConcurrentModificationException.class,
            () ->
                group.sortByLongKey(
                    e -> {
                      registry.remove(member, TB);
                      return 0;
                    }));
    assertTrue(refused.getMessage().contains("key function"), refused.getMessage());
    assertEquals(before, positions(group));
    assertThrows(
        ConcurrentModificationException.class,
        () -> group.eachInOrder(e -> registry.destroy(e)),
        "structural changes are refused during an in-order walk");
    assertThrows(
        ConcurrentModificationException.class,
        () -> group.eachInOrder(e -> group.sortByLongKey(x -> x)),
        "and so is a sort of the group");
    final RuntimeException boom = new IllegalStateException("boom");
    assertSame(
        boom,
        assertThrows(
            IllegalStateException.class,
            () ->
                group.eachInOrder(
                    e -> {
                      throw boom;
                    })));
    assertEquals(before, positions(group));
    assertFalse(group.members().isLocked());
    registry.destroy(member); // unlocked again
    assertFalse(group.contains(member));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void owningGroupsWalkInOrderToo() {
    final OwningGroup group = registry.owningGroup(TA);
    for (int i = 0; i < 100; i++) {
      registry.emplace(registry.create(), TA, new A(i % 7));
    }
    final ObjectStorage<A> as = registry.storage(TA);
    group.sortByPosition((l, r) -> Integer.compare(as.valueAt(l).value(), as.valueAt(r).value()));
    final List<Integer> values = new ArrayList<>();
    group.eachInOrder(e -> values.add(as.get(e).value()));
    final List<Integer> expected = new ArrayList<>(values);
    Collections.sort(expected);
    assertEquals(expected, values, "position 0 first: the sort's order");
    final List<Integer> reversed = new ArrayList<>();
    group.each(e -> reversed.add(as.get(e).value()));
    Collections.reverse(reversed);
    assertEquals(expected, reversed);
    assertThrows(
        ConcurrentModificationException.class, () -> group.eachInOrder(e -> registry.destroy(e)));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void keySortsAndInOrderWalksAllocateNothingOnceWarm() {
    final NonOwningGroup group = populate(new Random(5), 20_000);
    assignKeys(new Random(5), group, 0);
    final long[] keyOf = new long[1 << 16];
    final float[] floatOf = new float[1 << 16];
    for (int p = 0; p < group.size(); p++) {
      final int index = Entity.index(group.entityAt(p));
      keyOf[index] = longKey(group.entityAt(p));
      floatOf[index] = floatKey(group.entityAt(p));
    }
    final EntityLongKey byLong = e -> keyOf[Entity.index(e)];
    final EntityLongKey reversed = e -> -keyOf[Entity.index(e)];
    final EntityFloatKey byFloat = e -> floatOf[Entity.index(e)];
    final long[] sum = {0};
    final java.util.function.LongConsumer add = e -> sum[0] += e;
    final com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
    final long id = Thread.currentThread().getId();
    long least = Long.MAX_VALUE;
    for (int round = 0; round < 20; round++) {
      final long start = threads.getThreadAllocatedBytes(id);
      group.sortByLongKey(byLong);
      group.sortByFloatKey(byFloat);
      group.insertionSortByLongKey(byLong);
      group.sortByLongKey(reversed);
      group.eachInOrder(add);
      least = Math.min(least, threads.getThreadAllocatedBytes(id) - start);
    }
    assertEquals(0, least);
    assertTrue(sum[0] != 0);
  }

  @Test
  void theSortableFloatBitsOrderAsFloatCompare() {
    final Random random = new Random(11);
    final float[] values = new float[2_000];
    for (int i = 0; i < values.length; i++) {
      values[i] =
          switch (i % 5) {
            case 0 -> Float.intBitsToFloat(random.nextInt());
            case 1 -> -0.0f;
            case 2 -> Float.NaN;
            default -> random.nextFloat() * (random.nextBoolean() ? -1 : 1);
          };
    }
    for (int i = 1; i < values.length; i++) {
      final float l = values[i - 1];
      final float r = values[i];
      assertEquals(
          Integer.signum(Float.compare(l, r)),
          Long.signum(Long.compare(SetSorter.sortable(l), SetSorter.sortable(r))),
          l + " against " + r);
    }
  }

  @Test
  void aKeySortLeavesTheOtherGroupsAndTheStoragesAlone() {
    final NonOwningGroup group = populate(new Random(9), 200);
    final ObjectStorage<A> as = registry.storage(TA);
    final List<Long> storageOrder = new ArrayList<>();
    for (int p = 0; p < as.size(); p++) {
      storageOrder.add(as.at(p));
    }
    group.sortByLongKey(e -> -Entity.index(e));
    final List<Long> after = new ArrayList<>();
    for (int p = 0; p < as.size(); p++) {
      after.add(as.at(p));
    }
    assertEquals(storageOrder, after, "a group's sort moves its member set only");
    assertEquals(List.of(), registry.verify());
  }
}

package dev.phalanx.ecs.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The shared list kernel against a plain model (one ordered list per owner): random inserts at any
 * place, cuts, orphaning, compaction moves and sort swaps, over small pages so that slots span
 * several; with lasts kept (a relationship's reverse side) and not (the hierarchy's nodes).
 */
class IntrusiveListsModelTest {

  private static final int ENTITIES = 300;

  /** Slots at entity indices shifted by a permutation, as a storage's positions would be. */
  private static final class Lists extends IntrusiveLists {
    final int[] slots = new int[ENTITIES];

    Lists(final boolean keepsLasts) {
      super(3, keepsLasts);
      for (int i = 0; i < ENTITIES; i++) {
        slots[i] = i;
      }
      for (int page = 0; page <= (ENTITIES - 1) >>> 3; page++) {
        ensurePage(page);
      }
    }

    @Override
    protected int slot(final long entity) {
      return slots[(int) entity];
    }
  }

  @Test
  void randomEditsMatchTheModelWithLastsKept() {
    run(true);
  }

  @Test
  void randomEditsMatchTheModelWithoutLasts() {
    run(false);
  }

  private static void run(final boolean keepsLasts) {
    for (int seed = 0; seed < 6; seed++) {
      final SplittableRandom random = new SplittableRandom(seed);
      final Lists lists = new Lists(keepsLasts);
      final Map<Long, List<Long>> model = new HashMap<>();
      final long[] owner = new long[ENTITIES];
      java.util.Arrays.fill(owner, IntrusiveLists.NULL);
      for (int step = 0; step < 1_000; step++) {
        final long member = random.nextInt(ENTITIES);
        final String at = "seed " + seed + " step " + step;
        switch (random.nextInt(5)) {
          case 0, 1 -> {
            final long target = random.nextInt(ENTITIES);
            if (target != member && IntrusiveLists.NULL == owner[(int) member]) {
              final List<Long> list = model.computeIfAbsent(target, t -> new ArrayList<>());
              final int place = random.nextInt(list.size() + 1);
              lists.insertAfter(
                  member, target, 0 == place ? IntrusiveLists.NULL : list.get(place - 1));
              list.add(place, member);
              owner[(int) member] = target;
            }
          }
          case 2 -> {
            if (IntrusiveLists.NULL != owner[(int) member]) {
              lists.cut(member);
              model.get(owner[(int) member]).remove(member);
              owner[(int) member] = IntrusiveLists.NULL;
            }
          }
          case 3 -> {
            final List<Long> list = model.remove(member);
            lists.orphanAt(lists.slot(member));
            if (null != list) {
              for (final long m : list) {
                owner[(int) m] = IntrusiveLists.NULL;
              }
            }
          }
          default -> swapSlots(lists, random.nextInt(ENTITIES), random.nextInt(ENTITIES));
        }
        check(lists, model, owner, keepsLasts, at);
      }
    }
  }

  /** Swaps where two entities' links live, as sorting a storage does. */
  private static void swapSlots(final Lists lists, final int a, final int b) {
    lists.swap(lists.slots[a], lists.slots[b]);
    final int slot = lists.slots[a];
    lists.slots[a] = lists.slots[b];
    lists.slots[b] = slot;
  }

  private static void check(
      final Lists lists,
      final Map<Long, List<Long>> model,
      final long[] owner,
      final boolean keepsLasts,
      final String at) {
    for (long entity = 0; entity < ENTITIES; entity++) {
      final int slot = lists.slot(entity);
      assertEquals(owner[(int) entity], lists.ownerAt(slot), at + " owner of " + entity);
      final List<Long> expected = model.getOrDefault(entity, List.of());
      final List<Long> forward = new ArrayList<>();
      long previous = IntrusiveLists.NULL;
      for (long m = lists.firstAt(slot);
          IntrusiveLists.NULL != m;
          m = lists.nextAt(lists.slot(m))) {
        assertEquals(previous, lists.previousAt(lists.slot(m)), at + " previous of " + m);
        forward.add(m);
        previous = m;
        if (forward.size() > ENTITIES) {
          break;
        }
      }
      assertEquals(expected, forward, at + " members of " + entity);
      assertEquals(expected.size(), lists.countAt(slot), at + " count of " + entity);
      assertEquals(keepsLasts ? previous : IntrusiveLists.NULL, lists.lastAt(slot), at + " last");
    }
  }
}

package dev.phalanx.ecs.relation;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The consistency check of one relationship kind behind {@link Relation#verify()}: reads the kind's
 * storage and its reverse side, changes nothing, and names every broken invariant in words. Walks
 * are bounded, so corrupted lists or chains end the walk rather than the thread.
 */
final class RelationCheck {

  private RelationCheck() {}

  static void verify(
      final Registry registry,
      final RelationshipStorage<?> storage,
      final SourceLists lists,
      final List<String> problems) {
    final String kind = storage.type().name();
    final long[] packed = storage.packed();
    final Set<Long> targets = new HashSet<>();
    int sources = 0;
    for (int position = 0, size = storage.size(); position < size; position++) {
      final long source = packed[position];
      if (Entity.isTombstone(source)) {
        continue;
      }
      sources++;
      final long target = storage.targetAt(position);
      if (!registry.valid(target)) {
        problems.add(
            Entity.toString(source)
                + "'s "
                + kind
                + " names "
                + Entity.toString(target)
                + ", which is not a live entity");
      }
      final long linked = lists.targetOf(source);
      if (linked != target) {
        problems.add(
            "the reverse side of "
                + kind
                + " lists "
                + Entity.toString(source)
                + " under "
                + Entity.toString(linked)
                + ", but it names "
                + Entity.toString(target));
      }
      targets.add(target);
    }
    if (lists.linked() != sources) {
      problems.add(
          "the reverse side of "
              + kind
              + " links "
              + lists.linked()
              + " sources, but the storage holds "
              + sources);
    }
    for (final long target : targets) {
      verifyList(storage, lists, kind, target, problems);
    }
    if (storage.acyclic()) {
      verifyAcyclic(storage, lists, kind, problems);
    }
  }

  /**
   * Checks {@code target}'s list: every member names it, links are symmetric, the count is right.
   */
  private static void verifyList(
      final RelationshipStorage<?> storage,
      final SourceLists lists,
      final String kind,
      final long target,
      final List<String> problems) {
    int count = 0;
    long previous = Entity.NULL;
    final int bound = lists.linked() + 1;
    for (long source = lists.firstOf(target); !Entity.isNull(source) && count <= bound; ) {
      count++;
      if (!storage.contains(source) || lists.targetOf(source) != target) {
        problems.add(
            "the reverse side of "
                + kind
                + " lists "
                + Entity.toString(source)
                + " among the sources of "
                + Entity.toString(target)
                + ", which it does not name");
      }
      if (lists.previousOf(source) != previous) {
        problems.add(
            "the reverse side of "
                + kind
                + " has asymmetric links at "
                + Entity.toString(source)
                + " in the sources of "
                + Entity.toString(target));
      }
      previous = source;
      source = lists.nextOf(source);
    }
    if (lists.lastOf(target) != previous) {
      problems.add(
          "the reverse side of "
              + kind
              + " ends the sources of "
              + Entity.toString(target)
              + " wrongly");
    }
    if (lists.countOf(target) != count) {
      problems.add(
          "the reverse side of "
              + kind
              + " counts "
              + lists.countOf(target)
              + " sources of "
              + Entity.toString(target)
              + ", but lists "
              + count);
    }
  }

  /** Checks that no chain of an acyclic kind comes back to its start. */
  private static void verifyAcyclic(
      final RelationshipStorage<?> storage,
      final SourceLists lists,
      final String kind,
      final List<String> problems) {
    // 1: on the chain being walked; 2: known to end.
    final Map<Long, Integer> state = new HashMap<>();
    final long[] packed = storage.packed();
    for (int position = 0, size = storage.size(); position < size; position++) {
      final long start = packed[position];
      if (Entity.isTombstone(start) || state.containsKey(start)) {
        continue;
      }
      long step = start;
      while (!Entity.isNull(step) && storage.contains(step) && !state.containsKey(step)) {
        state.put(step, 1);
        step = lists.targetOf(step);
      }
      if (!Entity.isNull(step) && Integer.valueOf(1).equals(state.get(step))) {
        problems.add(Entity.toString(step) + " is on a cycle of " + kind + ", which is acyclic");
      }
      for (long done = start;
          !Entity.isNull(done) && Integer.valueOf(1).equals(state.get(done)); ) {
        state.put(done, 2);
        done = lists.targetOf(done);
      }
    }
  }
}

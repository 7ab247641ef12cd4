package dev.phalanx.ecs;

import dev.phalanx.ecs.internal.LongLongMap;
import java.util.Arrays;

/**
 * The relationship part of a {@link ChangeSet}'s check: every target an insertion, a value write or
 * a copy stages for a relationship kind ({@link Storage#entityLinks()}) obeys the kind's rules
 * before anything changes, as {@code RelationshipStorage} checks a target written directly.
 *
 * <p>The rules, for the world as the commit's apply step leaves it (every insertion and value write
 * made; the set's removals and destroys come after, so they close no gap):
 *
 * <ul>
 *   <li>The target is live, or a staged handle of this set; a handle of another set, a dead entity
 *       and {@link Entity#NULL} are refused.
 *   <li>The target is not being destroyed (a commit from a destroy listener), and the set does not
 *       destroy it: the relationship would name a dead entity, or its kind's policy would have to
 *       act within the commit.
 *   <li>For an acyclic kind, the chain from the target does not come back to the source, following
 *       the targets the set stages where it stages one, and the world's elsewhere.
 * </ul>
 *
 * <p>What it records: per staged relationship, its change, source and target, and a map from (kind,
 * source) to its target for the chain walks. Nothing is recorded for a set that stages no
 * relationship, and nothing is allocated once the arrays have grown.
 */
final class LinkCheck {

  private final ChangeSet changes;
  private final Registry registry;

  // The staged relationships, in staging order.
  private int[] linkChanges = new int[8];
  private long[] linkSources = new long[8];
  private long[] linkTargets = new long[8];
  private int count;
  // (type id, entity key) to the target staged for that source.
  private final LongLongMap staged = new LongLongMap(16);

  LinkCheck(final ChangeSet changes, final Registry registry) {
    this.changes = changes;
    this.registry = registry;
  }

  /**
   * Notes the targets {@code change} stages, if its storage is a relationship kind's: the target of
   * an inserted or written value, or of each copy (after the change's mapping). Reads the value
   * through the storage's staging, which runs the instance's accessors.
   */
  void note(final int change, final Storage<?> storage) {
    if (null == storage || null == storage.entityLinks()) {
      return;
    }
    final byte kind = changes.kinds[change];
    if (ChangeSet.EMPLACE == kind || ChangeSet.REPLACE == kind) {
      stageValue(storage, changes.values[change]);
      add(change, changes.targets[change], storage.stagedTarget());
    } else if (ChangeSet.COPY == kind) {
      noteCopies(change, storage);
    }
  }

  private void noteCopies(final int change, final Storage<?> storage) {
    final Storage<?> source = (Storage<?>) changes.values[change];
    stageCopy(storage, source, source.indexOf(changes.sources[change]));
    final long reference = storage.stagedTarget();
    final ChangeSet.References map = changes.maps[change];
    final long target = changes.targets[change];
    if (!Entity.isNull(target)) {
      add(change, target, mapped(map, 0, reference));
      return;
    }
    final int start = changes.rangeStarts[change];
    final int copies = changes.rangeCounts[change];
    for (int i = 0; i < copies; i++) {
      final long copy =
          start < 0 ? changes.handle(-1 - start + i) : changes.rangeTargets[start + i];
      add(change, copy, mapped(map, i, reference));
    }
  }

  /** {@return what a copy's field holds: {@code reference} through the change's mapping, if any} */
  private static long mapped(final ChangeSet.References map, final int copy, final long reference) {
    return null == map || Entity.isNull(reference) ? reference : map.map(copy, reference);
  }

  private void add(final int change, final long source, final long target) {
    if (count == linkChanges.length) {
      final int grown = count * 2;
      linkChanges = Arrays.copyOf(linkChanges, grown);
      linkSources = Arrays.copyOf(linkSources, grown);
      linkTargets = Arrays.copyOf(linkTargets, grown);
    }
    linkChanges[count] = change;
    linkSources[count] = source;
    linkTargets[count] = target;
    count++;
    staged.put(key(changes.types[change].id(), source), target);
  }

  /**
   * Refuses the first staged relationship that breaks its kind's rules; {@code check} answers which
   * entities the set destroys. Runs once every change is checked.
   */
  void run(final ChangeCheck check) {
    for (int i = 0; i < count; i++) {
      final int change = linkChanges[i];
      final long source = linkSources[i];
      final long target = linkTargets[i];
      checkTarget(check, change, source, target);
      final Storage<?> storage = check.storage(change);
      if (storage.entityLinks().acyclic()) {
        checkAcyclic(change, storage, source, target);
      }
    }
  }

  private void checkTarget(
      final ChangeCheck check, final int change, final long source, final long target) {
    if (ChangeSet.isStaged(target) && !changes.isStagedHere(target)) {
      throw refused(change, source, target, "is a staged handle of another change set");
    }
    if (!ChangeSet.isStaged(target) && !registry.valid(target)) {
      throw refused(
          change, source, target, "is not a live entity; a relationship names a live target");
    }
    if (registry.isBeingDestroyed(target)) {
      throw refused(
          change,
          source,
          target,
          "is being destroyed (a destroy listener commits); a relationship names a target that"
              + " stays");
    }
    if (check.destroys(target)) {
      throw refused(
          change,
          source,
          target,
          "is destroyed by this change set; a relationship names a target that stays");
    }
  }

  /**
   * Refuses a relationship of an acyclic kind whose chain, from its target, comes back to its
   * source. A bounded walk: every step is a distinct source of the kind unless it loops.
   */
  private void checkAcyclic(
      final int change, final Storage<?> storage, final long source, final long target) {
    final EntityLinks links = storage.entityLinks();
    final int id = changes.types[change].id();
    final int bound = storage.size() + count;
    long step = target;
    for (int hops = 0; hops <= bound && !Entity.isNull(step); hops++) {
      if (step == source) {
        throw refused(
            change,
            source,
            target,
            (source == target
                    ? "is the source itself"
                    : "has a chain that comes back to the source")
                + ", and "
                + changes.types[change].name()
                + " is acyclic (@Relationship(acyclic = true))");
      }
      final long key = key(id, step);
      if (staged.containsKey(key)) {
        step = staged.get(key, Entity.NULL);
      } else {
        step = ChangeSet.isStaged(step) ? Entity.NULL : links.target(step);
      }
    }
  }

  private IllegalArgumentException refused(
      final int change, final long source, final long target, final String rule) {
    return ChangeRefusals.refusal(
        changes, change, source, "its target " + Entity.toString(target) + " " + rule);
  }

  /** A key for a source of the kind of type {@code id}: the id above the entity's key. */
  private static long key(final int id, final long entity) {
    return (long) id << 33 | ChangeCheck.entityKey(entity);
  }

  /** Forgets the relationships recorded. */
  void forget() {
    if (0 != count) {
      count = 0;
      staged.clear();
    }
  }

  @SuppressWarnings("unchecked")
  private static <T> void stageValue(final Storage<T> storage, final Object value) {
    storage.stage((T) value);
  }

  @SuppressWarnings("unchecked")
  private static <T> void stageCopy(
      final Storage<T> storage, final Storage<?> source, final int at) {
    storage.stageFrom((Storage<T>) source, at);
  }
}

package dev.phalanx.ecs.relation;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.EntityLinks;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.RuntimeView;
import dev.phalanx.ecs.SparseSet;
import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.internal.Failures;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.LongConsumer;

/**
 * One relationship kind in one registry: the kind's storage holds each source's target (the forward
 * side, the truth), and the relation keeps each target's sources (the reverse side) exactly in step
 * with it. Get it with {@link #of}; the registry creates it with the kind's storage.
 *
 * <p>How it stays in step: it listens first to the storage's construct and update signals, and cuts
 * a source as its element leaves, through the storage's removal hook (so every listener of the user
 * sees both sides agree: a destroy listener still finds the source linked, as its element is still
 * there), follows in-place writes announced to the storage (a change set's rows, {@code patch}),
 * and is rebuilt from the storage by {@link #rebuildAll} after raw writes (the snapshot and delta
 * loaders call it). {@link Registry#verify()} checks both sides against each other.
 *
 * <h2>Costs</h2>
 *
 * <p>{@link #target}, {@link #sourceCount}, {@link #firstSource} and {@link #nextSource} are O(1);
 * adding and replacing a relationship cost a signal and O(1) list surgery, removing one the list
 * surgery alone, plus O(length of the target's chain) for an acyclic kind's cycle check; destroying
 * a target costs O(its sources) under every policy; {@link #verify} and {@link #rebuildAll} are
 * O(relationships).
 *
 * @param <T> the relationship's component class
 */
public final class Relation<T> extends TargetedKind implements EntityLinks {

  private final Registry registry;
  private final RelationshipStorage<T> storage;
  private final SourceLists lists = new SourceLists();
  // Bumped by every change of the reverse side, so that a Cascade knows when to arrange again.
  private long changes;

  Relation(final Registry registry, final RelationshipStorage<T> storage) {
    this.registry = registry;
    this.storage = storage;
    // A construct may follow a raw write of the same row (a change set's), already linked: relink
    // links only what is not linked yet.
    storage.onConstruct().connectFirst((r, entity) -> relink(entity));
    storage.onUpdate().connectFirst((r, entity) -> relink(entity));
    registry.addCheck(storage.type().name() + " relationship", this::verify);
  }

  /**
   * {@return the relation of {@code kind} in {@code registry}, creating the kind's storage if need
   * be}
   *
   * @param <T> the relationship's component class
   * @param registry the registry
   * @param kind the relationship kind, a component declared with {@code @Relationship}
   */
  public static <T> Relation<T> of(
      final Registry registry, final ComponentType<T, ? extends RelationshipStorage<T>> kind) {
    return registry.storage(kind).relation();
  }

  /**
   * Rebuilds the reverse side of every relationship kind of {@code registry} from the kinds'
   * storages: for code that wrote the storages' pages raw (loaders). O(relationships). Does nothing
   * in a registry without relationship kinds.
   *
   * @param registry the registry
   */
  public static void rebuildAll(final Registry registry) {
    final Relations relations = registry.context().find(Relations.class);
    if (null != relations) {
      relations.rebuild();
    }
  }

  /** {@return the kind's storage, the forward side} */
  public RelationshipStorage<T> storage() {
    return storage;
  }

  /** {@return whether a chain of this kind may not come back to where it started} */
  @Override
  public boolean acyclic() {
    return storage.acyclic();
  }

  /** {@return what happens to the sources when a target is destroyed} */
  @Override
  public OnTargetDestroyed onTargetDestroyed() {
    return storage.onTargetDestroyed();
  }

  /**
   * {@return the target {@code source} names, or {@link Entity#NULL} if it has no relationship of
   * this kind} O(1).
   *
   * @param source any handle
   */
  @Override
  public long target(final long source) {
    return storage.contains(source) ? lists.targetOf(source) : Entity.NULL;
  }

  /**
   * {@return how many sources name {@code target}} O(1).
   *
   * @param target any handle; 0 if it is not live
   */
  @Override
  public int sourceCount(final long target) {
    return registry.valid(target) ? lists.countOf(target) : 0;
  }

  /**
   * {@return the first source naming {@code target}, in the order they were linked, or {@link
   * Entity#NULL}} With {@link #nextSource}, walks the sources without allocating; read the next
   * source before changing the current one. O(1).
   *
   * @param target any handle
   */
  @Override
  public long firstSource(final long target) {
    return registry.valid(target) ? lists.firstOf(target) : Entity.NULL;
  }

  /**
   * {@return the source after {@code source} naming the same target, or {@link Entity#NULL}} O(1).
   *
   * @param source a source of this kind
   */
  @Override
  public long nextSource(final long source) {
    return storage.contains(source) ? lists.nextOf(source) : Entity.NULL;
  }

  /**
   * {@return the sources naming {@code target}, in the order they were linked, in a new array}
   * O(sources).
   *
   * @param target any handle
   */
  public long[] sources(final long target) {
    final long[] out = new long[sourceCount(target)];
    int at = 0;
    for (long source = firstSource(target); !Entity.isNull(source); source = lists.nextOf(source)) {
      out[at++] = source;
    }
    return out;
  }

  /**
   * Calls {@code visitor} with each source naming {@code target} that {@code filter} contains, in
   * the order they were linked: a query that fixes the target, {@code (Kind, target)} with other
   * terms. O(sources of the target), one membership test of {@code filter} per source; allocates
   * nothing. The visitor may remove or retarget the relationship of the source it is called for; a
   * walk whose next source was changed otherwise ends there.
   *
   * @param target any handle
   * @param filter the other terms (include the components the sources must have, exclude those they
   *     must not); a view with nothing included contains nothing
   * @param visitor called with each source
   */
  public void eachSource(final long target, final RuntimeView filter, final LongConsumer visitor) {
    for (long source = firstSource(target); !Entity.isNull(source); ) {
      final long next = lists.nextOf(source);
      if (filter.contains(source)) {
        visitor.accept(source);
      }
      source = !Entity.isNull(next) && lists.targetOf(next) == target ? next : Entity.NULL;
    }
  }

  /**
   * {@return the nearest entity up {@code entity}'s chain of this kind (its target, its target's
   * target, and so on) that has a component of {@code type}, or {@link Entity#NULL}} flecs's {@code
   * up} traversal: {@code entity} itself is not looked at. O(chain length), a lookup per step; a
   * chain that comes back to its start ends the walk.
   *
   * @param entity any handle
   * @param type the component looked for
   */
  public long up(final long entity, final ComponentType<?, ?> type) {
    final Storage<?> holders = registry.findStorage(type);
    if (null == holders) {
      return Entity.NULL;
    }
    long step = target(entity);
    for (int hops = 0; hops <= lists.linked() && !Entity.isNull(step); hops++) {
      if (holders.contains(step)) {
        return step;
      }
      step = target(step);
    }
    return Entity.NULL;
  }

  /**
   * Writes every source of this kind into {@code out} breadth first, so that a source whose target
   * is itself a source comes after it (flecs's {@code cascade}): the order in which to propagate a
   * value from targets to sources (a transform from a ship to its turrets) in one pass. Sources on
   * a cycle (in a kind that allows cycles) are left out. O(relationships); allocates nothing.
   *
   * @param out receives the sources; at least {@link #size()} long
   * @return how many were written
   * @throws IndexOutOfBoundsException if {@code out} is shorter than {@link #size()}; {@code out}
   *     is then left unchanged
   */
  public int breadthFirst(final long[] out) {
    Objects.checkFromIndexSize(0, size(), out.length);
    int size = 0;
    // The first level: sources whose target is not a source of this kind.
    final long[] packed = storage.packed();
    for (int position = 0, end = storage.size(); position < end; position++) {
      final long source = packed[position];
      if (!Entity.isTombstone(source) && !storage.contains(storage.targetAt(position))) {
        out[size++] = source;
      }
    }
    // Each later level: the sources of the entities already written, in order.
    for (int head = 0; head < size; head++) {
      for (long s = lists.firstOf(out[head]); !Entity.isNull(s); s = lists.nextOf(s)) {
        out[size++] = s;
      }
    }
    return size;
  }

  /** {@return how many sources this kind has now} O(1). */
  public int size() {
    return lists.linked();
  }

  /**
   * {@return the broken invariants of this kind, in words; empty if both sides agree} Checks that
   * every source names a live target, that each target's list holds exactly the sources naming it
   * with symmetric links and the right count, and for an acyclic kind that no chain comes back to
   * its start. {@link Registry#verify()} runs it. O(relationships); allocates.
   */
  public List<String> verify() {
    final List<String> problems = new ArrayList<>();
    verify(problems);
    return problems;
  }

  private void verify(final List<String> problems) {
    RelationCheck.verify(registry, storage, lists, problems);
  }

  // ---------------------------------------------------------------------------------------------
  // Upkeep: called by the storage's signals and hooks, and by Relations.
  // ---------------------------------------------------------------------------------------------

  /**
   * Refuses, changing nothing, a {@code target} that {@code source} may not name; see {@link
   * RelationshipStorage#checkTarget}.
   */
  void checkTarget(final long source, final long target, final String operation) {
    if (!registry.valid(target)) {
      throw refused(
          operation,
          source,
          ": its target "
              + Entity.toString(target)
              + " is not a live entity; a relationship names a live target");
    }
    if (registry.isBeingDestroyed(target)) {
      throw refused(
          operation,
          source,
          ": its target "
              + Entity.toString(target)
              + " is being destroyed (a destroy listener asked); a relationship names a target"
              + " that stays");
    }
    if (storage.acyclic()) {
      checkAcyclic(source, target, operation);
    }
  }

  private void checkAcyclic(final long source, final long target, final String operation) {
    // A bounded walk: a corrupted chain (raw writes) ends it rather than the thread.
    long step = target;
    for (int hops = 0; hops <= lists.linked() && !Entity.isNull(step); hops++) {
      if (step == source) {
        throw refused(
            operation,
            source,
            " naming "
                + Entity.toString(target)
                + ": "
                + (source == target ? "an entity naming itself" : "the chain from the target")
                + " comes back to "
                + Entity.toString(source)
                + ", and the kind is acyclic (@Relationship(acyclic = true))");
      }
      step = target(step);
    }
  }

  /** The refusal of {@code operation} on {@code source}'s relationship, for the reason given. */
  private IllegalArgumentException refused(
      final String operation, final long source, final String reason) {
    return new IllegalArgumentException(
        "cannot "
            + operation
            + " "
            + storage.type().name()
            + " on "
            + Entity.toString(source)
            + reason);
  }

  /** Follows a construct or an update of {@code source}: relinks it if its target changed. */
  private void relink(final long source) {
    final int position = storage.indexOf(source);
    if (SparseSet.ABSENT == position) {
      return;
    }
    final long target = storage.targetAt(position);
    final long linked = lists.targetOf(source);
    if (target != linked) {
      changes++;
      if (!Entity.isNull(linked)) {
        lists.cut(source);
      }
      if (!Entity.isNull(target)) {
        lists.link(source, target);
      }
    }
  }

  /** Follows an in-place write of the element at {@code position}. */
  void written(final int position) {
    relink(storage.packed()[position]);
  }

  /** Unlinks a source whose element is being removed; for the storage's removal hook. */
  void unlinking(final long source) {
    if (!Entity.isNull(lists.targetOf(source))) {
      lists.cut(source);
      changes++;
    }
  }

  /** {@return a count of the reverse side's changes, for a {@link Cascade} to notice them} */
  long changes() {
    return changes;
  }

  /** {@return the sources of {@code target} as the lists hold them; for Relations} */
  SourceLists lists() {
    return lists;
  }

  @Override
  String name() {
    return storage.type().name();
  }

  @Override
  boolean hasSources(final long target) {
    return 0 != lists.countOf(target);
  }

  @Override
  void checkRemoveSources(final long target) {
    for (long s = lists.firstOf(target); !Entity.isNull(s); s = lists.nextOf(s)) {
      storage.checkRemove(s);
    }
  }

  @Override
  boolean anyLinked() {
    return 0 != lists.linked();
  }

  /** Forgets the reverse side and links every element of the storage again. */
  @Override
  void rebuild() {
    lists.clear();
    changes++;
    final long[] packed = storage.packed();
    for (int position = 0, size = storage.size(); position < size; position++) {
      final long source = packed[position];
      if (!Entity.isTombstone(source)) {
        final long target = storage.targetAt(position);
        if (!Entity.isNull(target)) {
          lists.link(source, target);
        }
      }
    }
  }

  /**
   * Removes the relationship from every source of {@code target}, in the order they were linked;
   * returns {@code failure} or the first exception a removal's listener threw. A removal refused (a
   * locked storage) ends the loop, and is returned.
   */
  @Override
  Throwable removeSources(final long target, Throwable failure) {
    for (long source = lists.firstOf(target); !Entity.isNull(source); ) {
      try {
        storage.remove(source);
      } catch (final RuntimeException thrown) {
        failure = Failures.add(failure, thrown);
      }
      final long next = lists.firstOf(target);
      if (next == source) {
        return failure;
      }
      source = next;
    }
    return failure;
  }

  /** Appends the sources of {@code target} to {@code queue}, in link order. */
  @Override
  void appendSources(final long target, final EntityQueue queue) {
    for (long source = lists.firstOf(target);
        !Entity.isNull(source);
        source = lists.nextOf(source)) {
      queue.add(source);
    }
  }

  @Override
  public String toString() {
    return "Relation(" + storage.type().name() + ", " + lists.linked() + " relationships)";
  }
}

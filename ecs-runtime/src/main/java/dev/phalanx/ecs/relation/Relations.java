package dev.phalanx.ecs.relation;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.DestroyCheck;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.internal.Failures;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The relationship kinds of one registry, kept in its context: what a destroy does to the kinds'
 * sources ({@link OnTargetDestroyed}), and the rule that refuses a destroy before anything changes.
 *
 * <p>Invariants kept:
 *
 * <ul>
 *   <li>After a target's destroy no source of any kind names it: under {@code REMOVE} (and under
 *       {@code REFUSE}, whose remaining sources are being destroyed with it) each source's
 *       relationship is removed before the destroy returns; under {@code DESTROY_SOURCES} each
 *       source is destroyed before the outermost destroy returns.
 *   <li>Linked destroys run from a queue, breadth first, not by recursion: a chain of any length
 *       costs no stack.
 *   <li>A destroy that would leave a source of a {@code REFUSE} kind naming a dead target is
 *       refused before anything changes: the rule follows every {@code DESTROY_SOURCES} link from
 *       the destroyed entities, and allows a source that goes with them.
 *   <li>While something is iterated or locked, a destroy is refused before anything changes if a
 *       lock or an iteration would refuse one of the changes its policies make: a linked destroy,
 *       or the removal of a {@code REMOVE} kind's relationship. So a cascade never stops midway.
 * </ul>
 */
final class Relations {

  private final Registry registry;
  private TargetedKind[] kinds = new TargetedKind[0];
  private boolean refusing;
  private boolean ruled;
  // The linked destroys to make (DESTROY_SOURCES), drained by the outermost destroy.
  private final EntityQueue pending = new EntityQueue();
  private boolean draining;
  // The destroy rule's scratch: the entities going (a queue), marked by index with an epoch.
  private final EntityQueue going = new EntityQueue();
  // The sources of one target, as the destroy rule reads them.
  private final EntityQueue named = new EntityQueue();
  private int[] marks = new int[0];
  private int epoch;

  private Relations(final Registry registry) {
    this.registry = registry;
    registry.onDestroy().connect((r, entity) -> targetDestroyed(entity));
  }

  /** {@return the relationship kinds of {@code registry}, created on first use} */
  static Relations of(final Registry registry) {
    final Relations existing = registry.context().find(Relations.class);
    return null != existing
        ? existing
        : registry.context().emplace(Relations.class, new Relations(registry));
  }

  /** Creates the relation of a kind's storage, which just joined the registry. */
  <T> Relation<T> attach(final RelationshipStorage<T> storage) {
    return add(new Relation<>(registry, storage));
  }

  /** Adds a pair kind just declared. */
  <T> Pairs<T> attach(final Pairs<T> pairs) {
    return add(pairs);
  }

  private <K extends TargetedKind> K add(final K kind) {
    kinds = Arrays.copyOf(kinds, kinds.length + 1);
    kinds[kinds.length - 1] = kind;
    refusing |= OnTargetDestroyed.REFUSE == kind.onTargetDestroyed();
    if (!ruled) {
      ruled = true;
      registry.addDestroyCheck(new DestroyRule());
    }
    return kind;
  }

  /** {@return the pair kind of tag {@code type}, or null if it was not declared} */
  @SuppressWarnings("unchecked") // declare() keys each kind by its own tag type
  <T> Pairs<T> pairs(final ComponentType<T, ?> type) {
    for (final TargetedKind kind : kinds) {
      if (kind instanceof Pairs<?> pairs && pairs.type() == type) {
        return (Pairs<T>) pairs;
      }
    }
    return null;
  }

  /** {@return the pair kinds declared, in declaration order} */
  List<Pairs<?>> pairKinds() {
    final List<Pairs<?>> out = new ArrayList<>();
    for (final TargetedKind kind : kinds) {
      if (kind instanceof Pairs<?> pairs) {
        out.add(pairs);
      }
    }
    return out;
  }

  /** Rebuilds every kind's reverse side; see {@link Relation#rebuildAll}. */
  void rebuild() {
    for (final TargetedKind kind : kinds) {
      kind.rebuild();
    }
  }

  /** Applies each kind's policy to the sources of {@code target}, which is being destroyed. */
  private void targetDestroyed(final long target) {
    Throwable failure = null;
    final TargetedKind[] all = kinds;
    for (final TargetedKind kind : all) {
      if (!kind.hasSources(target)) {
        continue;
      }
      if (OnTargetDestroyed.DESTROY_SOURCES == kind.onTargetDestroyed()) {
        kind.appendSources(target, pending);
      } else {
        failure = kind.removeSources(target, failure);
      }
    }
    if (!draining && pending.hasNext()) {
      failure = drain(failure);
    }
    Failures.rethrow(failure);
  }

  /** Destroys the queued sources, and those their destroys queue, breadth first. */
  private Throwable drain(Throwable failure) {
    draining = true;
    try {
      while (pending.hasNext()) {
        final long source = pending.next();
        if (registry.valid(source)) {
          try {
            registry.destroy(source);
          } catch (final RuntimeException thrown) {
            failure = Failures.add(failure, thrown);
          }
        }
      }
    } finally {
      draining = false;
      pending.clear();
    }
    return failure;
  }

  /**
   * The destroy rule: the {@code REFUSE} kinds' refusal, and, while something is iterated or
   * locked, the check of every change the policies will make; see the class comment. It finds the
   * entities going (the batch, then every {@code DESTROY_SOURCES} source of one going, breadth
   * first) only when one of the two may refuse.
   */
  private final class DestroyRule implements DestroyCheck {

    @Override
    public void check(final Registry owner, final long[] batch, final int from, final int to) {
      if (draining) {
        // A linked destroy of the drain: the outermost destroy's check covered it.
        return;
      }
      final boolean guarded = registry.isIteratedOrLocked();
      if (!(refusing && anyRefusingLink()) && !(guarded && anyLink())) {
        return;
      }
      final int batchGoing = findGoing(batch, from, to);
      for (int at = 0; at < going.size(); at++) {
        final long entity = going.get(at);
        if (refusing) {
          checkKept(entity);
        }
        if (guarded) {
          checkChanges(entity, at >= batchGoing);
        }
      }
    }

    /**
     * Queues and marks the entities going: those of the batch, then the sources their {@code
     * DESTROY_SOURCES} links take along. Returns how many came from the batch (they come first).
     */
    private int findGoing(final long[] batch, final int from, final int to) {
      if (++epoch == 0) {
        Arrays.fill(marks, 0);
        epoch = 1;
      }
      going.clear();
      for (int i = from; i < to; i++) {
        markGoing(batch[i]);
      }
      final int batchGoing = going.size();
      while (going.hasNext()) {
        final long entity = going.next();
        for (final TargetedKind kind : kinds) {
          if (OnTargetDestroyed.DESTROY_SOURCES == kind.onTargetDestroyed()) {
            named.clear();
            kind.appendSources(entity, named);
            for (int at = 0; at < named.size(); at++) {
              markGoing(named.get(at));
            }
          }
        }
      }
      return batchGoing;
    }

    /**
     * Throws if a lock or an iteration would refuse a change that the destroy of {@code entity}
     * makes beyond its own removals (which the registry checks for the batch): its destroy, if a
     * link takes it along, and the removal of every relationship naming it that is not a linked
     * destroy ({@code REMOVE} and {@code REFUSE} kinds).
     */
    private void checkChanges(final long entity, final boolean linked) {
      if (linked) {
        registry.checkDestroy(entity);
      }
      for (final TargetedKind kind : kinds) {
        // REFUSE kinds remove theirs too: their sources that name a going entity are going.
        if (OnTargetDestroyed.DESTROY_SOURCES != kind.onTargetDestroyed()) {
          kind.checkRemoveSources(entity);
        }
      }
    }

    private boolean anyLink() {
      for (final TargetedKind kind : kinds) {
        if (kind.anyLinked()) {
          return true;
        }
      }
      return false;
    }

    private boolean anyRefusingLink() {
      for (final TargetedKind kind : kinds) {
        if (OnTargetDestroyed.REFUSE == kind.onTargetDestroyed() && kind.anyLinked()) {
          return true;
        }
      }
      return false;
    }

    /** Marks {@code entity} as going and queues it, unless it is marked already. */
    private void markGoing(final long entity) {
      final int index = Entity.index(entity);
      if (index >= marks.length) {
        marks = Arrays.copyOf(marks, Math.max(index + 1, marks.length * 2));
      }
      if (epoch != marks[index]) {
        marks[index] = epoch;
        going.add(entity);
      }
    }

    /** Throws if a source of a {@code REFUSE} kind names {@code target} and stays. */
    private void checkKept(final long target) {
      for (final TargetedKind kind : kinds) {
        if (OnTargetDestroyed.REFUSE != kind.onTargetDestroyed()) {
          continue;
        }
        named.clear();
        kind.appendSources(target, named);
        for (int at = 0; at < named.size(); at++) {
          final long s = named.get(at);
          final int index = Entity.index(s);
          if (index >= marks.length || epoch != marks[index]) {
            final String name = kind.name();
            throw new IllegalStateException(
                "cannot destroy "
                    + Entity.toString(target)
                    + ": "
                    + Entity.toString(s)
                    + " names it as its "
                    + name
                    + " target, and "
                    + name
                    + " refuses the destroy of a target (@Relationship(onTargetDestroyed ="
                    + " REFUSE)); remove "
                    + name
                    + " from "
                    + Entity.toString(s)
                    + " first, or destroy both in one batch");
          }
        }
      }
    }
  }
}

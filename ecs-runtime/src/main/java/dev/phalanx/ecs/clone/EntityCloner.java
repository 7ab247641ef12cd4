package dev.phalanx.ecs.clone;

import dev.phalanx.ecs.ChangeSet;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.SparseSet;
import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import dev.phalanx.ecs.internal.Failures;
import dev.phalanx.ecs.internal.LongLongMap;
import java.util.Arrays;
import java.util.Objects;
import java.util.function.LongConsumer;

/**
 * Copies entities, with every component they have, to new or existing entities of the same registry
 * or of another (EnTT's pool-by-pool copy, Bevy's entity cloning, flecs' {@code ecs_clone}), one
 * call per entity or per subtree.
 *
 * <h2>What is copied</h2>
 *
 * <ul>
 *   <li>Every component of the source entity, whatever its storage, except the types passed to
 *       {@link #skip} and the hierarchy's nodes (links are copied as links, below). A
 *       struct-of-arrays storage copies field by field from page to page (generated {@code
 *       stageFrom}: no instance, no boxing, no reflection); an object storage copies the reference,
 *       so the clone and its source share one instance (a <em>shallow</em> copy; give the clone its
 *       own instance with {@code replace} if it must differ); a tag is just added. Tracked
 *       components of the clone are stamped with the current change tick: they are new.
 *   <li>{@code @EntityRef} fields: a reference to an entity of the cloned set (the entity itself,
 *       or a member of the cloned subtree) is rewritten to that entity's clone; a reference to any
 *       other entity is kept as it is within one registry, and becomes {@link Entity#NULL} across
 *       registries (a handle of the source registry means nothing in the destination, as with
 *       snapshot loading).
 *   <li>Hierarchy links ({@link Hierarchy}): {@link #cloneTree} copies the subtree with its links
 *       and its children's order. A clone made within one registry is attached to the parent of its
 *       source (a copy of a turret stays on its tower); across registries the clone is a root.
 *       {@link #cloneInto} copies components only: the target keeps its place.
 * </ul>
 *
 * <h2>One change</h2>
 *
 * <p>A clone is one {@link ChangeSet}: every copy is staged, then committed, so everything is
 * checked before anything changes. The source entity must be live, an existing target live and
 * without any component to be copied (a clone never overwrites), and the destination must accept
 * every insertion now (nothing cleared, destroyed, locked or iterated in its way); if not, the call
 * throws and nothing changes (a destination registry that lacked a storage keeps the empty storage
 * created for it). Then every element is inserted, with nothing announced, then the whole clone is
 * announced (creation, group entries and construction: a listener sees every component of the
 * clone), then links are made. A listener that throws stops nothing: the clone is complete and
 * linked, and the first exception is rethrown at the end.
 *
 * <h2>Re-entrancy</h2>
 *
 * <p>A cloner may be used again by the listeners its own call runs (a construct listener that
 * clones what it hears): each call has its own working state, the outermost call reuses the
 * cloner's, a nested one allocates its own.
 *
 * <h2>Costs</h2>
 *
 * <p>O(p × m) to find the components of m entities among the source registry's p storages, then per
 * component one checked insertion (as {@code emplace}) and, for a type with {@code @EntityRef}
 * fields, one pass over its columns. A warm clone of an entity whose components are all
 * struct-of-arrays into an existing entity allocates nothing (a test proves it); the cloner's
 * scratch arrays grow to the largest subtree cloned and are kept. Not thread-safe: one cloner per
 * thread.
 */
public final class EntityCloner {

  private static final ComponentType<?, ?>[] NONE = new ComponentType<?, ?>[0];

  private final Registry source;
  private final Registry destination;
  private final boolean sameRegistry;
  private ComponentType<?, ?>[] skipped = NONE;
  // The working state of the outermost call, kept between calls; null while that call runs.
  private CloneRun idle;
  // The clone (or target) of the last call whose changes were made; see lastClone().
  private long lastClone = Entity.NULL;

  private EntityCloner(final Registry source, final Registry destination) {
    this.source = Objects.requireNonNull(source, "source");
    this.destination = Objects.requireNonNull(destination, "destination");
    this.sameRegistry = source == destination;
    this.idle = new CloneRun();
  }

  /**
   * {@return a cloner that copies entities of {@code registry} into {@code registry}}
   *
   * @param registry the registry whose entities are cloned
   */
  public static EntityCloner within(final Registry registry) {
    return new EntityCloner(registry, registry);
  }

  /**
   * {@return a cloner that copies entities of {@code source} into {@code destination}}
   *
   * @param source the registry the cloned entities live in
   * @param destination the registry that receives the clones (may be {@code source})
   */
  public static EntityCloner between(final Registry source, final Registry destination) {
    return new EntityCloner(source, destination);
  }

  /** {@return the registry the cloned entities live in} */
  public Registry source() {
    return source;
  }

  /** {@return the registry that receives the clones} */
  public Registry destination() {
    return destination;
  }

  /**
   * Leaves components of {@code type} out of every later clone (for example a selection tag or a
   * reactive storage's target).
   *
   * @param type the component type not to copy
   * @return this cloner
   */
  public EntityCloner skip(final ComponentType<?, ?> type) {
    Objects.requireNonNull(type, "type");
    if (!isSkipped(type)) {
      skipped = Arrays.copyOf(skipped, skipped.length + 1);
      skipped[skipped.length - 1] = type;
    }
    return this;
  }

  /**
   * Creates an entity in the destination with a copy of every component of {@code entity}; within
   * one registry, the clone is attached to {@code entity}'s parent.
   *
   * @param entity the entity to copy, live in the source registry
   * @return the clone
   * @throws IllegalArgumentException if {@code entity} is not valid in the source registry
   * @throws IllegalStateException if the destination is being cleared or has no identifier left
   * @throws java.util.ConcurrentModificationException if an insertion would break an iteration;
   *     nothing changes
   */
  public long clone(final long entity) {
    return run(entity, false, Entity.NULL);
  }

  /**
   * Clones {@code root} and every descendant ({@link Hierarchy}), with their links and their
   * children's order; {@code @EntityRef} fields that name members of the subtree name their clones.
   * Within one registry the new root is attached to {@code root}'s parent.
   *
   * @param root the root of the subtree to copy (it need not be a root of the forest)
   * @return the clone of {@code root}
   * @throws IllegalArgumentException if {@code root} is not valid in the source registry
   * @throws IllegalStateException as {@link #clone}
   */
  public long cloneTree(final long root) {
    return run(root, true, Entity.NULL);
  }

  /**
   * Adds to {@code target}, an existing entity of the destination, a copy of every component of
   * {@code entity}. Links are not copied: the target keeps its place in the hierarchy.
   *
   * @param entity the entity to copy, live in the source registry
   * @param target the entity that receives the copies, live in the destination
   * @throws IllegalArgumentException if either entity is not valid, or {@code target} already has
   *     one of the components (a clone never overwrites: remove it first); nothing is copied
   * @throws IllegalStateException if the target is being destroyed or the destination cleared
   */
  public void cloneInto(final long entity, final long target) {
    if (!destination.valid(target)) {
      throw new IllegalArgumentException(
          "cannot clone "
              + Entity.toString(entity)
              + " into "
              + Entity.toString(target)
              + ": the target is not valid in the destination registry (destroyed or never"
              + " created)");
    }
    run(entity, false, target);
  }

  /**
   * {@return the clone made by the last call of this cloner that made one, or {@link Entity#NULL}
   * before any} For {@link #cloneInto}, the target. A listener that throws during a call does not
   * undo the clone (see the class comment), and the call then rethrows instead of returning it:
   * this names it. A call that was refused made nothing and leaves this as it was; a nested call
   * (from a listener) sets it before the outer call sets it again at its end.
   */
  public long lastClone() {
    return lastClone;
  }

  private long run(final long root, final boolean tree, final long target) {
    if (!source.valid(root)) {
      throw new IllegalArgumentException(
          "cannot clone "
              + Entity.toString(root)
              + ": the entity is not valid in the source registry (destroyed or never created)");
    }
    final CloneRun run = null != idle ? idle : new CloneRun();
    final boolean outermost = run == idle;
    idle = null;
    try {
      return run.clone(root, tree, target);
    } finally {
      if (outermost) {
        idle = run;
      }
    }
  }

  private boolean isSkipped(final ComponentType<?, ?> type) {
    for (final ComponentType<?, ?> skip : skipped) {
      if (skip == type) {
        return true;
      }
    }
    return false;
  }

  /** One call's working state: the cloned set, its clones' handles and the change set. */
  private final class CloneRun {
    // The cloned set, parents first, and each member's parent among them (-1 if none).
    private long[] members = new long[4];
    private int[] parents = new int[4];
    private int memberCount;
    // Each member's clone: a staged handle until the commit, then the entity.
    private long[] clones = new long[4];
    private final LongLongMap memberIndex = new LongLongMap(16);
    private final LongConsumer collector = this::collect;
    private final ChangeSet changes = new ChangeSet(destination);
    private final ChangeSet.References references = this::map;
    // The existing entity cloneInto copies into (NULL otherwise), for the staging.
    private long target;
    private final Runnable staging = this::stageCopies;

    long clone(final long root, final boolean tree, final long target) {
      final Hierarchy links = Copier.hierarchyOf(source);
      collectMembers(root, tree, links);
      final boolean existing = !Entity.isNull(target);
      if (existing) {
        clones[0] = target;
      } else {
        changes.create(clones, 0, memberCount);
      }
      this.target = target;
      Throwable failure = Copier.commit(changes, staging);
      if (!existing) {
        for (int i = 0; i < memberCount; i++) {
          clones[i] = changes.entityOf(clones[i]);
        }
        if (null != links) {
          failure = link(links, root, failure);
        }
      }
      lastClone = clones[0];
      Failures.rethrow(failure);
      return clones[0];
    }

    /** Fills {@link #members} with the cloned set, parents first, and their parents' indices. */
    private void collectMembers(final long root, final boolean tree, final Hierarchy links) {
      memberCount = 0;
      memberIndex.clear();
      if (tree && null != links) {
        links.depthFirst(root, collector);
      } else {
        collect(root);
      }
      if (clones.length < memberCount) {
        clones = new long[members.length];
      }
      for (int i = 0; i < memberCount; i++) {
        parents[i] =
            0 == i || null == links ? -1 : (int) memberIndex.get(links.parent(members[i]), -1L);
      }
    }

    private void collect(final long entity) {
      if (memberCount == members.length) {
        members = Arrays.copyOf(members, memberCount * 2);
        parents = Arrays.copyOf(parents, memberCount * 2);
      }
      memberIndex.put(entity, memberCount);
      members[memberCount++] = entity;
    }

    /** Stages a copy of every component of every member (not links, not skipped types). */
    private void stageCopies() {
      final int count = source.storageCount();
      for (int m = 0; m < memberCount; m++) {
        final long member = members[m];
        for (int s = 0; s < count; s++) {
          final Storage<?> from = source.storageAt(s);
          if (SparseSet.ABSENT == from.indexOf(member)
              || Copier.isHierarchy(from)
              || isSkipped(from.type())) {
            continue;
          }
          Copier.refusePairTag(source, from, member, "clone");
          if (!Entity.isNull(target)) {
            checkTarget(member, target, from.type());
          }
          changes.copy(clones[m], from, member, references);
        }
      }
    }

    private void checkTarget(final long member, final long target, final ComponentType<?, ?> type) {
      final Storage<?> to = destination.findStorage(type);
      if (null != to && to.contains(target)) {
        throw new IllegalArgumentException(
            "cannot clone "
                + type.name()
                + " of "
                + Entity.toString(member)
                + " into "
                + Entity.toString(target)
                + ": the target already has one, and a clone never overwrites (remove it first)");
      }
    }

    /** A reference to a member names its clone; any other stays, or is dropped across worlds. */
    private long map(final int copy, final long reference) {
      final long member = memberIndex.get(reference, -1L);
      if (member >= 0) {
        return clones[(int) member];
      }
      return sameRegistry ? reference : Entity.NULL;
    }

    /**
     * Links the clones as their sources are linked (children attached last sibling first, so that
     * the order is kept); within one registry, attaches the clone of the root to the root's parent.
     * Every link is attempted; returns {@code failure} with what an attach threw.
     */
    private Throwable link(final Hierarchy links, final long root, Throwable failure) {
      final long rootParent = sameRegistry ? links.parent(root) : Entity.NULL;
      if (memberCount < 2 && Entity.isNull(rootParent)) {
        return failure;
      }
      final Hierarchy into = sameRegistry ? links : Hierarchy.of(destination);
      for (int i = memberCount - 1; i >= 1; i--) {
        failure = attach(into, clones[i], clones[parents[i]], failure);
      }
      if (!Entity.isNull(rootParent)) {
        failure = attach(into, clones[0], rootParent, failure);
      }
      return failure;
    }
  }

  private static Throwable attach(
      final Hierarchy into, final long child, final long parent, final Throwable failure) {
    try {
      into.attach(child, parent);
      return failure;
    } catch (final RuntimeException | Error thrown) {
      return Failures.add(failure, thrown);
    }
  }
}

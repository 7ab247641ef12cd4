package dev.phalanx.ecs.clone;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.SparseSet;
import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.bridge.CoreHooks;
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
 * <h2>All or nothing</h2>
 *
 * <p>Everything is checked first: the source entity is live, an existing target is live and lacks
 * every component to be copied (a clone never overwrites), the target may receive components now
 * (not being destroyed, the registry not cleared). A destination registry that lacks a storage gets
 * one, created through the type's traits ({@code registry.storage(type)}: an empty storage, which
 * stays even if the clone then fails). Then every element is inserted through the storages' checked
 * insertion path, with nothing announced, then the whole change is announced (group entries and
 * construct signals, last inserted first: a listener sees every component of the clone), then links
 * are made. If anything throws, a listener included, the change is undone: the entities created are
 * destroyed (their listeners hear the destruction of what they heard constructed) or, for {@link
 * #cloneInto}, the components added are removed, and the first exception is rethrown with later
 * ones suppressed. The world is then as before the call, but for recycled identifiers' versions and
 * what listeners did themselves.
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
  private final Copier copier = new Copier();
  private ComponentType<?, ?>[] skipped = NONE;

  // The cloned set, parents first, and each member's parent among them (-1 if none).
  private long[] members = new long[4];
  private int[] parents = new int[4];
  private int memberCount;
  private long[] clones = new long[4];
  private final LongLongMap memberIndex = new LongLongMap(16);
  private final LongConsumer collector = this::collect;

  // The plan: one entry per component to copy.
  private Storage<?>[] planSources = new Storage<?>[8];
  private Storage<?>[] planDestinations = new Storage<?>[8];
  private int[] planMembers = new int[8];
  private boolean[] planRefs = new boolean[8];
  private int planSize;

  private EntityCloner(final Registry source, final Registry destination) {
    this.source = Objects.requireNonNull(source, "source");
    this.destination = Objects.requireNonNull(destination, "destination");
    this.sameRegistry = source == destination;
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
   *     nothing is left of the clone
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

  private long run(final long root, final boolean tree, final long target) {
    if (!source.valid(root)) {
      throw new IllegalArgumentException(
          "cannot clone "
              + Entity.toString(root)
              + ": the entity is not valid in the source registry (destroyed or never created)");
    }
    final Hierarchy links = Copier.hierarchyOf(source);
    collectMembers(root, tree, links);
    plan(target);
    // Everything is checked: change the world.
    final boolean existing = !Entity.isNull(target);
    if (existing) {
      clones[0] = target;
    } else {
      destination.create(clones, 0, memberCount);
    }
    copier.begin();
    copier.remapWith(memberIndex, clones, 0, !sameRegistry);
    Throwable failure = null;
    try {
      for (int j = 0; j < planSize; j++) {
        final Storage<?> from = planSources[j];
        final int member = planMembers[j];
        copier.copy(
            planDestinations[j], from, from.indexOf(members[member]), clones[member], planRefs[j]);
      }
    } catch (final RuntimeException | Error refused) {
      failure = refused;
    }
    failure = copier.announce(failure);
    if (null == failure && !existing && null != links) {
      failure = link(links, root);
    }
    if (null != failure) {
      failure =
          existing
              ? copier.removeLogged(failure)
              : Copier.destroyCreated(destination, clones, 0, memberCount, failure);
      Arrays.fill(planSources, 0, planSize, null);
      Arrays.fill(planDestinations, 0, planSize, null);
      Failures.rethrow(failure);
    }
    Arrays.fill(planSources, 0, planSize, null);
    Arrays.fill(planDestinations, 0, planSize, null);
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

  /** Lists every component to copy and checks that each may be added. */
  private void plan(final long target) {
    planSize = 0;
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
        final Storage<?> to = sameRegistry ? from : Copier.storageIn(destination, from.type());
        if (!Entity.isNull(target)) {
          checkTarget(member, target, to);
        }
        add(from, to, m);
      }
    }
  }

  private void checkTarget(final long member, final long target, final Storage<?> to) {
    if (to.contains(target)) {
      throw new IllegalArgumentException(
          "cannot clone "
              + to.type().name()
              + " of "
              + Entity.toString(member)
              + " into "
              + Entity.toString(target)
              + ": the target already has one, and a clone never overwrites (remove it first)");
    }
    CoreHooks.checkInsertionState(destination, target, to.type());
    if (to.isLocked()) {
      CoreHooks.checkUnlocked(to, false, to, target);
    }
  }

  private void add(final Storage<?> from, final Storage<?> to, final int member) {
    if (planSize == planMembers.length) {
      final int grown = planSize * 2;
      planSources = Arrays.copyOf(planSources, grown);
      planDestinations = Arrays.copyOf(planDestinations, grown);
      planMembers = Arrays.copyOf(planMembers, grown);
      planRefs = Arrays.copyOf(planRefs, grown);
    }
    planSources[planSize] = from;
    planDestinations[planSize] = to;
    planMembers[planSize] = member;
    planRefs[planSize] = copier.hasRefs(to);
    planSize++;
  }

  /**
   * Links the clones as their sources are linked (children attached last sibling first, so that the
   * order is kept); within one registry, attaches the clone of the root to the root's parent.
   * Returns what an attach threw, or {@code null}.
   */
  private Throwable link(final Hierarchy links, final long root) {
    final long rootParent = sameRegistry ? links.parent(root) : Entity.NULL;
    if (memberCount < 2 && Entity.isNull(rootParent)) {
      return null;
    }
    try {
      final Hierarchy into = sameRegistry ? links : Hierarchy.of(destination);
      for (int i = memberCount - 1; i >= 1; i--) {
        into.attach(clones[i], clones[parents[i]]);
      }
      if (!Entity.isNull(rootParent)) {
        into.attach(clones[0], rootParent);
      }
      return null;
    } catch (final RuntimeException | Error thrown) {
      return thrown;
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
}

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
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A template (one entity, or a small tree of them) captured once and instantiated in bulk: {@code
 * n} copies at a time, each a new entity (or tree) with a copy of every component of the template,
 * at close to the cost of {@link Registry#create(long[])} plus one typed emplace per component
 * (flecs' prefabs, Bevy's scenes spawned many times).
 *
 * <h2>Capture</h2>
 *
 * <p>{@link #of} and {@link #ofTree} copy the template's components into the prefab's own
 * standalone storages (the same copies {@link EntityCloner} makes: field by field for
 * struct-of-arrays storages, the reference for object storages, membership for tags) and record the
 * tree's links. Later changes to the template do not reach the prefab; the template may be
 * destroyed. Object components are shared by every instance (a <em>shallow</em> copy): give an
 * instance its own instance in the initializer if it must differ.
 *
 * <h2>Instances</h2>
 *
 * <p>Each instance gets every captured component; its {@code @EntityRef} fields that named a
 * template member name the instance's own member, other references are kept when instantiating into
 * the template's registry and become {@link Entity#NULL} in another; a tree instance has the
 * template's links and children's order. Instances are roots. An optional {@link Initializer} runs
 * once per instance after everything is in place: the per-instance override (a spawn position, a
 * name), written with typed setters (no signal) or {@code replace} (an update signal).
 *
 * <h2>One change</h2>
 *
 * <p>A call is one {@link ChangeSet}: the instances' creations and every copy are staged, then
 * committed, so everything is checked before anything changes; if the destination refuses (it is
 * cleared, out of identifiers, or an insertion would break an iteration or a lock), the call throws
 * and nothing changes, {@code roots} included (a destination that lacked a storage keeps the empty
 * storage created for it). Then every instance is complete before the first listener runs (a
 * construct listener sees complete instances), then the links are made, then the initializer is
 * called. A listener, an attach or the initializer that throws stops nothing: every instance is
 * complete, linked, named in {@code roots} and initialized (the initializer is called for every
 * instance), and the first exception is rethrown at the end.
 *
 * <h2>Re-entrancy</h2>
 *
 * <p>A prefab may be instantiated again by the listeners and the initializer of its own call: each
 * call has its own working state (the outermost reuses the prefab's, a nested one allocates its
 * own), and each call's {@code roots} names its own instances.
 *
 * <h2>Costs</h2>
 *
 * <p>Per instance: its share of one bulk creation, then per component its share of one bulk
 * insertion of all the copies (the template's element staged once, page runs filled: no instance
 * built, nothing boxed or allocated for struct-of-arrays storages) where announcing would run
 * nothing, else one checked insertion and page-to-page copy; one more pass over the columns of a
 * type with {@code @EntityRef} fields, and one {@code attach} per non-root member of a tree.
 * Measured ({@code benchmarks} {@code PrefabInstantiation}, 100,000 instances of 4 components): see
 * the guide's "Cloning and prefabs". The prefab keeps scratch arrays sized to its largest call
 * (about 20 bytes per element inserted). Not thread-safe: one thread instantiates a prefab at a
 * time.
 */
public final class Prefab {

  /** Receives each instance of a call once it is complete: the per-instance override. */
  @FunctionalInterface
  public interface Initializer {
    /**
     * Called once per instance, in order, after every instance of the call is complete and
     * announced. It may do anything, this prefab's calls included; if it throws, the other
     * instances are initialized all the same and the first exception is rethrown at the end.
     *
     * @param index the instance's index in the call, from 0
     * @param root the instance's root entity
     */
    void initialize(int index, long root);
  }

  private final Registry origin;
  private final int size;
  private final int[] parents;
  private final Storage<?>[] stores;
  private final int[][] memberAt;
  private final LongLongMap memberIndex;
  private final long[] members;
  // The working state of the outermost call, kept between calls; null while that call runs.
  private InstanceRun idle = new InstanceRun();

  private Prefab(
      final Registry origin,
      final long[] members,
      final int[] parents,
      final List<Storage<?>> stores,
      final LongLongMap memberIndex) {
    this.origin = origin;
    this.size = members.length;
    this.parents = parents;
    this.stores = stores.toArray(new Storage<?>[0]);
    this.memberIndex = memberIndex;
    this.memberAt = new int[this.stores.length][];
    this.members = members;
    for (int s = 0; s < this.stores.length; s++) {
      final Storage<?> store = this.stores[s];
      final int[] at = new int[store.size()];
      for (int j = 0; j < at.length; j++) {
        at[j] = (int) memberIndex.get(store.packed()[j], -1L);
      }
      memberAt[s] = at;
    }
  }

  /**
   * Captures {@code template}'s components (not its links) as a one-entity prefab.
   *
   * @param registry the registry {@code template} lives in
   * @param template the entity to capture
   * @return the prefab
   * @throws IllegalArgumentException if {@code template} is not valid in {@code registry}
   */
  public static Prefab of(final Registry registry, final long template) {
    return capture(registry, template, false);
  }

  /**
   * Captures {@code root} and its descendants ({@link Hierarchy}), with their components and links,
   * as a tree prefab; {@code root}'s own parent is not captured.
   *
   * @param registry the registry the tree lives in
   * @param root the root of the template tree
   * @return the prefab
   * @throws IllegalArgumentException if {@code root} is not valid in {@code registry}
   */
  public static Prefab ofTree(final Registry registry, final long root) {
    return capture(registry, root, true);
  }

  private static Prefab capture(final Registry registry, final long root, final boolean tree) {
    if (!registry.valid(root)) {
      throw new IllegalArgumentException(
          "cannot make a prefab of "
              + Entity.toString(root)
              + ": the entity is not valid (destroyed or never created)");
    }
    final Hierarchy links = Copier.hierarchyOf(registry);
    final LongLongMap memberIndex = new LongLongMap(16);
    final List<Long> order = new ArrayList<>();
    if (tree && null != links) {
      links.depthFirst(root, order::add);
    } else {
      order.add(root);
    }
    final long[] members = new long[order.size()];
    for (int i = 0; i < members.length; i++) {
      members[i] = order.get(i);
      memberIndex.put(members[i], i);
    }
    final int[] parents = new int[members.length];
    for (int i = 0; i < members.length; i++) {
      parents[i] = 0 == i ? -1 : (int) memberIndex.get(links.parent(members[i]), -1L);
    }
    final List<Storage<?>> stores = new ArrayList<>();
    for (int s = 0; s < registry.storageCount(); s++) {
      final Storage<?> from = registry.storageAt(s);
      if (Copier.isHierarchy(from)) {
        continue;
      }
      Storage<?> store = null;
      for (final long member : members) {
        final int position = from.indexOf(member);
        if (SparseSet.ABSENT == position) {
          continue;
        }
        Copier.refusePairTag(registry, from, member, "make a prefab of");
        if (null == store) {
          store = standalone(from.type());
          stores.add(store);
        }
        copyElement(store, from, member);
      }
    }
    return new Prefab(registry, members, parents, stores, memberIndex);
  }

  private static <T, S extends Storage<T>> S standalone(final ComponentType<T, S> type) {
    return type.createStorage();
  }

  /** Captures {@code member}'s element of {@code from} into the standalone {@code store}. */
  @SuppressWarnings("unchecked")
  private static <T> void copyElement(
      final Storage<T> store, final Storage<?> from, final long member) {
    store.emplace(member, (T) from.get(member));
  }

  /** {@return the number of entities in one instance: 1, or the template tree's size} */
  public int size() {
    return size;
  }

  /** {@return the registry the template was captured from} */
  public Registry origin() {
    return origin;
  }

  /**
   * {@return whether instances get a component of {@code type}}
   *
   * @param type a component type
   */
  public boolean has(final ComponentType<?, ?> type) {
    for (final Storage<?> store : stores) {
      if (store.type() == type) {
        return true;
      }
    }
    return false;
  }

  /**
   * Creates one instance in {@code destination}.
   *
   * @param destination the registry that receives the instance
   * @return the instance's root
   * @throws IllegalStateException if the destination is being cleared or has no identifier left
   */
  public long instantiate(final Registry destination) {
    final long[] root = new long[1];
    instantiate(destination, root, 0, 1, null);
    return root[0];
  }

  /**
   * Creates {@code roots.length} instances in {@code destination}, their roots into {@code roots}.
   *
   * @param destination the registry that receives the instances
   * @param roots receives the instances' roots
   * @throws IllegalStateException as {@link #instantiate(Registry)}
   */
  public void instantiate(final Registry destination, final long[] roots) {
    instantiate(destination, roots, 0, roots.length, null);
  }

  /**
   * Creates {@code count} instances in {@code destination}, their roots into {@code roots[from,
   * from + count)}, and hands each to {@code initializer}. One change: refused before anything
   * changes, {@code roots} included, or made whole; see the class comment.
   *
   * @param destination the registry that receives the instances
   * @param roots receives the instances' roots
   * @param from where in {@code roots} the first root goes
   * @param count how many instances to create
   * @param initializer called once per instance after all are complete, or {@code null}
   * @throws IndexOutOfBoundsException if the range does not fit {@code roots}
   * @throws IllegalStateException if the destination is being cleared or has no identifier left
   * @throws java.util.ConcurrentModificationException if an insertion would break an iteration
   */
  public void instantiate(
      final Registry destination,
      final long[] roots,
      final int from,
      final int count,
      final Initializer initializer) {
    Objects.requireNonNull(destination, "destination");
    Objects.checkFromIndexSize(from, count, roots.length);
    if (0 == count) {
      return;
    }
    final InstanceRun run = null != idle ? idle : new InstanceRun();
    final boolean outermost = run == idle;
    if (outermost) {
      idle = null;
    }
    try {
      run.instantiate(destination, roots, from, count, initializer);
    } finally {
      if (outermost) {
        idle = run;
      }
    }
  }

  /**
   * One call's working state: the instances' handles and the change set. The handles are kept
   * member by member ({@code created[member * count + instance]}), so each member's creations are
   * one run, staged as one {@link ChangeSet#copyToCreations} per captured element.
   */
  private final class InstanceRun {
    private ChangeSet changes;
    // Every member of every instance, member by member: staged handles until the commit, then
    // entities.
    private long[] created = new long[0];
    private boolean dropOutside;
    private final ChangeSet.References references = this::map;
    // The number of instances the call makes, for the staging.
    private int count;
    private final Runnable staging = this::stageCopies;

    void instantiate(
        final Registry destination,
        final long[] roots,
        final int from,
        final int count,
        final Initializer initializer) {
      if (null == changes || changes.registry() != destination) {
        changes = new ChangeSet(destination);
      }
      dropOutside = destination != origin;
      final int total = Math.multiplyExact(count, size);
      if (created.length < total) {
        created = new long[Math.max(total, created.length * 2)];
      }
      changes.create(created, 0, total);
      this.count = count;
      Throwable failure = Copier.commit(changes, staging);
      changes.entitiesOf(created, 0, total);
      System.arraycopy(created, 0, roots, from, count);
      if (size > 1) {
        failure = link(destination, count, failure);
      }
      if (null != initializer) {
        for (int i = 0; i < count; i++) {
          try {
            initializer.initialize(i, created[i]);
          } catch (final RuntimeException | Error thrown) {
            failure = Failures.add(failure, thrown);
          }
        }
      }
      Failures.rethrow(failure);
    }

    /** Stages, per captured element, its copy into every instance (one bulk copy each). */
    private void stageCopies() {
      if (0 == count) {
        return;
      }
      for (int s = 0; s < stores.length; s++) {
        final Storage<?> store = stores[s];
        for (final int member : memberAt[s]) {
          changes.copyToCreations(
              created[member * count], count, store, members[member], references);
        }
      }
    }

    /** A reference to a template member names the same member of copy {@code copy}'s instance. */
    private long map(final int copy, final long reference) {
      final long member = memberIndex.get(reference, -1L);
      if (member >= 0) {
        return created[(int) member * count + copy];
      }
      return dropOutside ? Entity.NULL : reference;
    }

    /** Links every tree instance as the template; every link is attempted. */
    private Throwable link(final Registry destination, final int count, Throwable failure) {
      final Hierarchy into = Hierarchy.of(destination);
      for (int i = 0; i < count; i++) {
        for (int m = size - 1; m >= 1; m--) {
          try {
            into.attach(created[m * count + i], created[parents[m] * count + i]);
          } catch (final RuntimeException | Error thrown) {
            failure = Failures.add(failure, thrown);
          }
        }
      }
      return failure;
    }
  }
}

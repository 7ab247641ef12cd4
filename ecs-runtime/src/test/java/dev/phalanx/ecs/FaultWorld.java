package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.NONE;
import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static dev.phalanx.ecs.GroupTypes.TC;
import static dev.phalanx.ecs.GroupTypes.TD;
import static dev.phalanx.ecs.GroupTypes.TE;
import static dev.phalanx.ecs.GroupTypes.TF;
import static dev.phalanx.ecs.GroupTypes.TS;
import static dev.phalanx.ecs.GroupTypes.TX;
import static dev.phalanx.ecs.GroupTypes.TY;
import static dev.phalanx.ecs.GroupTypes.types;
import static dev.phalanx.ecs.GroupTypes.value;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A small, deterministic world for fault injection: nine storages (one in-place), a nested family
 * of owning groups with an excluded type, a partial-owning group with an in-place get type and an
 * excluded type, and a non-owning group with an in-place type and an excluded type. Every storage
 * has two construct, two update and two destroy listeners that count their calls, optionally change
 * the world, and then call {@link Fault#tick}, which throws at the armed call(s).
 *
 * <p>Two worlds built with the same seed are equal call for call: entity handles, layouts and
 * listener calls, so that a faulted run can be compared with a clean run or a replay.
 */
public final class FaultWorld {

  /** The storages, in creation order (destroy and clear walk them last first). */
  public static final ComponentType<?, ?>[] TYPES = types(TA, TB, TC, TD, TE, TF, TX, TY, TS);

  /** What kind of user callback a tick comes from: it decides the documented outcome. */
  public enum Kind {
    CONSTRUCT,
    UPDATE,
    DESTROY,
    CONSUMER,
    SUPPLIER,
    VISITOR,
    CHUNK,
    COMPARATOR,
    ACCESSOR
  }

  /** The exception the injected faults throw; {@code call} is the number of the callback call. */
  public static final class Injected extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int call;

    Injected(final int call) {
      super("injected fault at call " + call, null, true, false);
      this.call = call;
    }
  }

  /** Counts user callback calls and throws at the armed one ({@code once}) or from it on. */
  public static final class Fault {
    private int armedAt;
    private boolean fromThenOn;
    int calls;
    final List<Kind> kinds = new ArrayList<>();
    final List<Injected> thrown = new ArrayList<>();

    /** Creates a fault that is not armed: every callback passes until {@code arm}. */
    Fault() {}

    void arm(final int k, final boolean fromOn) {
      armedAt = k;
      fromThenOn = fromOn;
      calls = 0;
      kinds.clear();
      thrown.clear();
    }

    void disarm() {
      armedAt = 0;
    }

    synchronized void tick(final Kind kind) {
      calls++;
      kinds.add(kind);
      if (armedAt > 0 && (calls == armedAt || (fromThenOn && calls > armedAt))) {
        final Injected fault = new Injected(calls);
        thrown.add(fault);
        throw fault;
      }
    }
  }

  public final Registry registry = new Registry();
  public final Fault fault = new Fault();
  public final OwningGroup ab;
  public final OwningGroup abcNoX;
  public final OwningGroup efGetSNoX;
  public final NonOwningGroup dsNoY;
  public final List<Long> created = new ArrayList<>();

  /** Listener calls per (storage, kind, listener): index {@code storage * 6 + kind * 2 + n}. */
  public final int[] listenerCalls = new int[TYPES.length * 6];

  /** Whether the listeners change the world before they tick (see {@link #connectListeners}). */
  public final boolean worldChanging;

  /** Builds the world: storages, groups, {@code count} entities, then the listeners. */
  public FaultWorld(final long seed, final int count, final boolean worldChanging) {
    this.worldChanging = worldChanging;
    for (final ComponentType<?, ?> type : TYPES) {
      registry.storage(type);
    }
    ab = registry.owningGroup(TA, TB);
    abcNoX = registry.owningGroup(types(TA, TB, TC), NONE, types(TX));
    efGetSNoX = registry.owningGroup(types(TE, TF), types(TS), types(TX));
    dsNoY = registry.nonOwningGroup(types(TD, TS), types(TY));
    final Random random = new Random(seed);
    for (int i = 0; i < count; i++) {
      final long e = registry.create();
      created.add(e);
      for (int t = 0; t < TYPES.length; t++) {
        final int percent = TYPES[t] == TX || TYPES[t] == TY ? 25 : 65;
        if (random.nextInt(100) < percent) {
          put(e, TYPES[t], i * 10 + t);
        }
      }
    }
    // Recycled identifiers with versions, and holes in the in-place storage.
    for (int i = 0; i < count; i += 7) {
      registry.destroy(created.get(i));
    }
    for (int i = 0; i < count / 4; i++) {
      final long e = registry.create();
      created.add(e);
      put(e, TA, 1000 + i);
      put(e, TB, 1000 + i);
      if (i % 2 == 0) {
        put(e, TC, 1000 + i);
      }
      put(e, TS, 1000 + i);
      put(e, TD, 1000 + i);
    }
    for (int i = 3; i < count; i += 5) {
      final long e = created.get(i);
      if (registry.valid(e)) {
        registry.remove(e, TS);
      }
    }
    connectListeners();
  }

  private <T> void put(final long e, final ComponentType<T, ?> type, final int v) {
    registry.emplace(e, type, value(type, v));
  }

  private void connectListeners() {
    for (int t = 0; t < TYPES.length; t++) {
      final Storage<?> storage = registry.storage(TYPES[t]);
      final ComponentType<?, ?> type = TYPES[t];
      for (int n = 0; n < 2; n++) {
        final int base = t * 6 + n;
        final boolean first = 0 == n;
        storage
            .onConstruct()
            .connect(
                (r, e) -> {
                  listenerCalls[base]++;
                  if (worldChanging && first) {
                    onConstructAction(type, e);
                  }
                  fault.tick(Kind.CONSTRUCT);
                });
        storage
            .onUpdate()
            .connect(
                (r, e) -> {
                  listenerCalls[base + 2]++;
                  fault.tick(Kind.UPDATE);
                });
        storage
            .onDestroy()
            .connect(
                (r, e) -> {
                  listenerCalls[base + 4]++;
                  if (!storage.contains(e)) {
                    throw new AssertionError(
                        "destroy listener of " + type.name() + ": the component is gone");
                  }
                  storage.get(e); // still readable
                  if (worldChanging && first) {
                    onDestroyAction(type, e);
                  }
                  fault.tick(Kind.DESTROY);
                });
      }
    }
  }

  /** Construct listeners of a world-changing world: adding A also adds D (or replaces it). */
  private void onConstructAction(final ComponentType<?, ?> type, final long e) {
    if (type == TA) {
      registry.emplaceOrReplace(e, TD, value(TD, -(int) e));
    }
  }

  /** Destroy listeners of a world-changing world: losing B also loses C, losing X adds Y. */
  private void onDestroyAction(final ComponentType<?, ?> type, final long e) {
    if (type == TB) {
      registry.remove(e, TC);
    } else if (type == TX
        && !registry.has(e, TY)
        && !registry.isBeingDestroyed(e)
        && !registry.isClearing()) {
      // Only when the entity survives: while it is being destroyed or cleared, additions are
      // refused.
      registry.emplace(e, TY, value(TY, 7));
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Picking entities (deterministic: depends only on the state).
  // ---------------------------------------------------------------------------------------------

  /** The live entities, in creation order. */
  public List<Long> live() {
    final List<Long> result = new ArrayList<>();
    for (final long e : created) {
      if (registry.valid(e)) {
        result.add(e);
      }
    }
    return result;
  }

  /**
   * The n-th live entity (creation order) that has every type of {@code with} and none of {@code
   * without}.
   */
  public long pick(
      final int n, final ComponentType<?, ?>[] with, final ComponentType<?, ?>[] without) {
    int seen = 0;
    for (final long e : live()) {
      boolean ok = true;
      for (final ComponentType<?, ?> t : with) {
        ok &= registry.has(e, t);
      }
      for (final ComponentType<?, ?> t : without) {
        ok &= !registry.has(e, t);
      }
      if (ok && seen++ == n) {
        return e;
      }
    }
    throw new AssertionError(
        "the world has no entity #" + n + " with " + names(with) + " without " + names(without));
  }

  private static String names(final ComponentType<?, ?>[] types) {
    final List<String> names = new ArrayList<>();
    for (final ComponentType<?, ?> t : types) {
      names.add(t.name());
    }
    return names.toString();
  }

  // ---------------------------------------------------------------------------------------------
  // Snapshots.
  // ---------------------------------------------------------------------------------------------

  /**
   * What the documented outcomes talk about: every storage's entity-to-value contents, group
   * memberships, entity validity and versions, storage count and listener calls.
   */
  public record State(
      Map<String, Map<Long, Object>> components,
      Map<String, Set<Long>> groups,
      List<Long> handles,
      int alive,
      int storageCount,
      List<Integer> listenerCalls) {}

  /** Positions as well: packed arrays of every storage and member order of every group. */
  public record Layout(
      State state, Map<String, List<Long>> packed, Map<String, List<Long>> groupOrder) {}

  public State state() {
    final Map<String, Map<Long, Object>> components = new LinkedHashMap<>();
    for (int i = 0; i < registry.storageCount(); i++) {
      final Storage<?> storage = registry.storageAt(i);
      final Map<Long, Object> contents = new TreeMap<>();
      for (int p = 0; p < storage.size(); p++) {
        final long e = storage.packed()[p];
        if (!Entity.isTombstone(e)) {
          contents.put(e, storage.get(e));
        }
      }
      components.put(storage.describe(), contents);
    }
    final Map<String, Set<Long>> groups = new LinkedHashMap<>();
    for (int g = 0; g < registry.groups().size(); g++) {
      final Group group = registry.groups().get(g);
      final Set<Long> members = new TreeSet<>();
      for (int p = 0; p < group.size(); p++) {
        members.add(group.entityAt(p));
      }
      groups.put(group.toString(), members);
    }
    final List<Long> handles = new ArrayList<>();
    for (int i = 0; i < registry.entities().size(); i++) {
      handles.add(registry.entities().current(i));
    }
    final List<Integer> calls = new ArrayList<>();
    for (final int c : listenerCalls) {
      calls.add(c);
    }
    return new State(components, groups, handles, registry.alive(), registry.storageCount(), calls);
  }

  public Layout layout() {
    final Map<String, List<Long>> packed = new LinkedHashMap<>();
    for (int i = 0; i < registry.storageCount(); i++) {
      final Storage<?> storage = registry.storageAt(i);
      final List<Long> order = new ArrayList<>();
      for (int p = 0; p < storage.size(); p++) {
        order.add(storage.packed()[p]);
      }
      packed.put(storage.describe(), order);
    }
    final Map<String, List<Long>> groupOrder = new LinkedHashMap<>();
    for (int g = 0; g < registry.groups().size(); g++) {
      final Group group = registry.groups().get(g);
      final List<Long> order = new ArrayList<>();
      for (int p = 0; p < group.size(); p++) {
        order.add(group.entityAt(p));
      }
      groupOrder.put(group.toString(), order);
    }
    return new Layout(state(), packed, groupOrder);
  }

  /** Whether any storage or member set is still locked or iterated. */
  public boolean anyLockOrIteration() {
    for (int i = 0; i < registry.storageCount(); i++) {
      final Storage<?> storage = registry.storageAt(i);
      if (storage.isLocked() || storage.isIterated()) {
        return true;
      }
    }
    return dsNoY.members().isLocked() || dsNoY.members().isIterated();
  }

  /** Every exception reachable from {@code top} through suppressed exceptions and causes. */
  public static Set<Throwable> reachable(final Throwable top) {
    final Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
    final List<Throwable> work = new ArrayList<>(List.of(top));
    while (!work.isEmpty()) {
      final Throwable t = work.remove(work.size() - 1);
      if (null != t && seen.add(t)) {
        work.addAll(List.of(t.getSuppressed()));
        work.add(t.getCause());
      }
    }
    return seen;
  }

  /** The set of live entities that match a group's lists, computed from the storages. */
  public static Set<Long> expectedMembers(final Registry registry, final Group group) {
    final Set<Long> result = new LinkedHashSet<>();
    registry
        .entities()
        .each(
            e -> {
              if (group.matches(e)) {
                result.add(e);
              }
            });
    return result;
  }
}

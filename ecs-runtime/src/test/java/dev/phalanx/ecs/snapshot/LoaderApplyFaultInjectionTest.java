package dev.phalanx.ecs.snapshot;

import static dev.phalanx.ecs.snapshot.LoaderWorlds.CHARS;
import static dev.phalanx.ecs.snapshot.LoaderWorlds.INTS;
import static dev.phalanx.ecs.snapshot.LoaderWorlds.MIXED;
import static dev.phalanx.ecs.snapshot.LoaderWorlds.TYPES;
import static dev.phalanx.ecs.snapshot.LoaderWorlds.live;
import static dev.phalanx.ecs.snapshot.LoaderWorlds.save;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Group;
import dev.phalanx.ecs.PrimitiveColumnsStorageA.Row;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Fault injection into the apply of {@link ContinuousLoader} and {@link DeltaLoader}, each of which
 * commits a whole snapshot or delta as one change set: on a replica with listeners on creation and
 * destruction, on construct, update and destroy of every loaded storage and of the hierarchy's
 * nodes, and on an owning group's enter and leave, the listener call number k throws (only call k,
 * or every call from k on), for every k of a clean run of a stream of loads that create, destroy,
 * add, write, remove, reference and reparent (the replica attaching entities of its own under
 * mirrored ones between loads, so that the hierarchy's rebuild matters). After every load: the
 * first exception comes out (the later ones suppressed), the replica mirrors the remote state
 * exactly (values, references, hierarchy links and the stream's children order, the local children
 * after), {@code verify()} is empty, every entity of the replica but its own is mapped (none
 * created and left unmapped), and the next load of the stream applies as well.
 */
class LoaderApplyFaultInjectionTest {

  /** Thrown by the injected listeners. */
  static final class Injected extends RuntimeException {
    private static final long serialVersionUID = 1L;
    final int call;

    Injected(final int call) {
      super("injected at call " + call);
      this.call = call;
    }
  }

  /** Counts the listeners' calls and throws at call {@code at} (or from it on); never at 0. */
  static final class Faults {
    final int at;
    final boolean fromOn;
    final List<Injected> thrown = new ArrayList<>();
    int calls;
    boolean enabled = true;

    Faults(final int at, final boolean fromOn) {
      this.at = at;
      this.fromOn = fromOn;
    }

    void hit(final Registry registry, final long entity) {
      if (!enabled) {
        return;
      }
      calls++;
      if (0 != at && (calls == at || (fromOn && calls > at))) {
        final Injected injected = new Injected(calls);
        thrown.add(injected);
        throw injected;
      }
    }

    /** Connects it to every signal a load raises on {@code replica}. */
    void connect(final Registry replica) {
      replica.onCreate().connect(this::hit);
      replica.onDestroy().connect(this::hit);
      final List<ComponentType<?, ?>> types = new ArrayList<>(Arrays.asList(TYPES));
      types.add(Hierarchy.TYPE);
      for (final ComponentType<?, ?> type : types) {
        final Storage<?> storage = replica.storage(type);
        storage.onConstruct().connect(this::hit);
        storage.onUpdate().connect(this::hit);
        storage.onDestroy().connect(this::hit);
      }
      final Group group = replica.owningGroup(INTS, CHARS);
      group.onEnter().connect(this::hit);
      group.onLeave().connect(this::hit);
    }
  }

  /** The remote world's states: a copy of each, its snapshot, and the delta that led to it. */
  static final class Stream {
    final List<Registry> copies = new ArrayList<>();
    final List<byte[]> snapshots = new ArrayList<>();
    final List<byte[]> deltas = new ArrayList<>();
  }

  private static Stream stream() throws IOException {
    final Stream stream = new Stream();
    final Registry remote = LoaderWorlds.intsAndChars(10);
    final Hierarchy tree = Hierarchy.of(remote);
    final DeltaWriter writer =
        new DeltaWriter(remote).everyValue(INTS, CHARS, MIXED, Hierarchy.TYPE);
    final SplittableRandom random = new SplittableRandom(11);
    for (int state = 0; state < 5; state++) {
      if (state > 0) {
        LoaderWorlds.churn(remote, random, 8);
      }
      final long[] entities = live(remote);
      for (int i = 0; i < 3; i++) {
        LoaderWorlds.mix(remote, entities[random.nextInt(entities.length)], entities, random);
      }
      reshape(remote, tree, random, 6);
      final byte[] snapshot = save(remote);
      stream.snapshots.add(snapshot);
      final int length = writer.write();
      stream.deltas.add(Arrays.copyOf(writer.bytes(), length));
      final Registry copy = new Registry();
      new SnapshotLoader(copy).types(TYPES).load(ByteBuffer.wrap(snapshot));
      stream.copies.add(copy);
    }
    return stream;
  }

  /** Attaches, reparents, detaches and destroys subtrees at random. */
  private static void reshape(
      final Registry remote, final Hierarchy tree, final SplittableRandom random, final int steps) {
    for (int step = 0; step < steps; step++) {
      final long[] entities = live(remote);
      if (entities.length < 3) {
        return;
      }
      final long child = entities[random.nextInt(entities.length)];
      final long parent = entities[random.nextInt(entities.length)];
      switch (random.nextInt(6)) {
        case 0, 1, 2 -> {
          if (child != parent && !tree.isAncestor(child, parent)) {
            tree.reparent(child, parent);
          }
        }
        case 3 -> tree.detach(child);
        case 4 -> remote.destroy(child);
        default -> {
          if (random.nextBoolean()) {
            tree.destroyTree(child);
          }
        }
      }
    }
  }

  /** One replica and its loader, of either kind. */
  interface Replica {
    Registry registry();

    void load(int state) throws IOException;

    long map(long remote);

    int size();
  }

  private static Replica continuous(final Stream stream) {
    final Registry registry = new Registry();
    final ContinuousLoader loader = new ContinuousLoader(registry).types(TYPES);
    return new Replica() {
      @Override
      public Registry registry() {
        return registry;
      }

      @Override
      public void load(final int state) throws IOException {
        loader.load(ByteBuffer.wrap(stream.snapshots.get(state)));
      }

      @Override
      public long map(final long remote) {
        return loader.map(remote);
      }

      @Override
      public int size() {
        return loader.size();
      }
    };
  }

  private static Replica delta(final Stream stream) {
    final Registry registry = new Registry();
    final DeltaLoader loader = new DeltaLoader(registry).types(TYPES);
    return new Replica() {
      @Override
      public Registry registry() {
        return registry;
      }

      @Override
      public void load(final int state) throws SnapshotFormatException {
        final byte[] delta = stream.deltas.get(state);
        loader.load(delta, delta.length);
      }

      @Override
      public long map(final long remote) {
        return loader.map(remote);
      }

      @Override
      public int size() {
        return loader.size();
      }
    };
  }

  private static Replica replica(final boolean deltas, final Stream stream) {
    return deltas ? delta(stream) : continuous(stream);
  }

  /** The listener calls of a run in which nothing throws. */
  private static int cleanCalls(final boolean deltas, final Stream stream) throws IOException {
    final Replica replica = replica(deltas, stream);
    final Faults counter = new Faults(0, false);
    counter.connect(replica.registry());
    final Set<Long> locals = new HashSet<>();
    for (int state = 0; state < stream.copies.size(); state++) {
      replica.load(state);
      assertMirrors(stream.copies.get(state), replica, locals, "clean run, state " + state);
      counter.enabled = false;
      addLocalChild(stream.copies.get(state), replica, locals, state);
      counter.enabled = true;
    }
    return counter.calls;
  }

  /** Attaches an entity of the replica's own under a mirrored one. */
  private static void addLocalChild(
      final Registry remote, final Replica replica, final Set<Long> locals, final int state) {
    final long[] entities = live(remote);
    final long parent = replica.map(entities[(3 * state + 1) % entities.length]);
    final Registry local = replica.registry();
    final long own = local.create();
    Hierarchy.of(local).attach(own, parent);
    locals.add(own);
  }

  @ParameterizedTest(name = "deltas: {0}")
  @ValueSource(booleans = {false, true})
  void aListenerThrowingAtCallKStopsNoLoad(final boolean deltas) throws IOException {
    final Stream stream = stream();
    final int calls = cleanCalls(deltas, stream);
    assertTrue(calls > 100, "too few listener calls to inject into: " + calls);
    for (final boolean fromOn : new boolean[] {false, true}) {
      for (int k = 1; k <= calls; k++) {
        final String run = "k=" + k + (fromOn ? " and on" : "");
        final Replica replica = replica(deltas, stream);
        final Faults faults = new Faults(k, fromOn);
        faults.connect(replica.registry());
        final Set<Long> locals = new HashSet<>();
        int loadsThatThrew = 0;
        for (int state = 0; state < stream.copies.size(); state++) {
          final String where = run + ", state " + state;
          final int before = faults.thrown.size();
          Injected thrown = null;
          try {
            replica.load(state);
          } catch (final Injected injected) {
            thrown = injected;
          }
          if (faults.thrown.size() > before) {
            loadsThatThrew++;
            assertNotNull(thrown, where + ": the fault was swallowed");
            assertSame(faults.thrown.get(before), thrown, where + ": not the first exception");
            final Set<Throwable> reachable = reachable(thrown);
            for (final Injected injected : faults.thrown.subList(before, faults.thrown.size())) {
              assertTrue(reachable.contains(injected), where + ": " + injected + " lost");
            }
          } else {
            assertEquals(null, thrown, where);
          }
          assertMirrors(stream.copies.get(state), replica, locals, where);
          // The replica's own changes are not loads: the listeners are quiet meanwhile.
          faults.enabled = false;
          addLocalChild(stream.copies.get(state), replica, locals, state);
          faults.enabled = true;
        }
        assertTrue(loadsThatThrew >= 1, run + ": nothing was thrown");
        if (!fromOn) {
          assertEquals(1, loadsThatThrew, run);
          assertEquals(1, faults.thrown.size(), run);
        }
      }
    }
  }

  /** Every throwable reachable from {@code thrown} through suppression. */
  private static Set<Throwable> reachable(final Throwable thrown) {
    final Set<Throwable> all = new HashSet<>();
    final List<Throwable> pending = new ArrayList<>(List.of(thrown));
    while (!pending.isEmpty()) {
      final Throwable next = pending.remove(pending.size() - 1);
      if (all.add(next)) {
        pending.addAll(Arrays.asList(next.getSuppressed()));
      }
    }
    return all;
  }

  /**
   * The replica holds exactly the remote state: every remote entity mapped to a live local one and
   * every local entity mapped, the same components and values (references mapped), the same parent
   * links and children in the same order, and {@code verify()} empty.
   */
  private static void assertMirrors(
      final Registry remote, final Replica replica, final Set<Long> locals, final String where) {
    final Registry local = replica.registry();
    assertEquals(List.of(), local.verify(), where);
    final long[] entities = live(remote);
    assertEquals(entities.length, replica.size(), where + ": mapped entities");
    for (final long own : locals) {
      assertTrue(local.valid(own), where + ": the replica's own entity was destroyed");
    }
    assertEquals(
        entities.length + locals.size(), local.alive(), where + ": an entity is left unmapped");
    final LongUnaryOperator map = replica::map;
    for (final long entity : entities) {
      final long mine = map.applyAsLong(entity);
      assertTrue(local.valid(mine), where + ": " + Entity.toString(entity) + " has no live entity");
      for (final ComponentType<Row, ?> type : List.of(INTS, CHARS, MIXED)) {
        final Row theirs = remote.tryGet(entity, type);
        final Row ours = null == local.findStorage(type) ? null : local.tryGet(mine, type);
        final Row expected =
            null == theirs || MIXED != type
                ? theirs
                : Row.of(
                    theirs.get(0),
                    theirs.get(1),
                    theirs.get(2),
                    map.applyAsLong((Long) theirs.get(3)));
        assertEquals(expected, ours, where + ": " + type.name() + " of " + Entity.toString(entity));
      }
    }
    final Hierarchy theirs = Hierarchy.of(remote);
    final Hierarchy ours = Hierarchy.of(local);
    for (final long entity : entities) {
      final long mine = map.applyAsLong(entity);
      final String name = where + ": " + Entity.toString(entity);
      assertEquals(map.applyAsLong(theirs.parent(entity)), ours.parent(mine), name + "'s parent");
      final List<Long> expected = new ArrayList<>();
      for (long c = theirs.firstChild(entity); !Entity.isNull(c); c = theirs.nextSibling(c)) {
        expected.add(map.applyAsLong(c));
      }
      final List<Long> actual = new ArrayList<>();
      final List<Long> own = new ArrayList<>();
      for (long c = ours.firstChild(mine); !Entity.isNull(c); c = ours.nextSibling(c)) {
        (locals.contains(c) ? own : actual).add(c);
      }
      assertEquals(expected, actual, name + "'s children");
      assertEquals(
          expected, listed(ours, mine).subList(0, expected.size()), name + ": stream's first");
    }
    for (final long own : locals) {
      final long parent = ours.parent(own);
      assertTrue(
          Entity.isNull(parent) || (local.valid(parent) && !locals.contains(parent)),
          where + ": " + Entity.toString(own) + "'s parent");
    }
  }

  private static List<Long> listed(final Hierarchy tree, final long parent) {
    final List<Long> children = new ArrayList<>();
    for (long c = tree.firstChild(parent); !Entity.isNull(c); c = tree.nextSibling(c)) {
      children.add(c);
    }
    return children;
  }
}

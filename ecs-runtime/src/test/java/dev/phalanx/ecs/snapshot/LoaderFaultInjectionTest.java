package dev.phalanx.ecs.snapshot;

import static dev.phalanx.ecs.snapshot.LoaderWorlds.CHARS;
import static dev.phalanx.ecs.snapshot.LoaderWorlds.INTS;
import static dev.phalanx.ecs.snapshot.LoaderWorlds.TYPES;
import static dev.phalanx.ecs.snapshot.LoaderWorlds.assertMirrors;
import static dev.phalanx.ecs.snapshot.LoaderWorlds.live;
import static dev.phalanx.ecs.snapshot.LoaderWorlds.save;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Group;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Storage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Listeners on the target that throw at their k-th call, for every k, or change the world there,
 * during loads. Documented rule: a load applies in full whatever listeners throw (the first
 * exception rethrown at its end), so after each load the mirror equals the remote world; a listener
 * that changes the world leaves a world {@code verify()} finds sound, and the next load mirrors the
 * remote world again.
 */
class LoaderFaultInjectionTest {

  /** Thrown by the injected listeners. */
  static final class Injected extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Injected(final int call) {
      super("injected at call " + call, null, false, false);
    }
  }

  /** How a faulty listener misbehaves at its k-th call. */
  enum Fault {
    THROW,
    CHANGE_WORLD
  }

  /** Counts the listeners' calls and misbehaves at call {@code at} (never when 0). */
  static final class Faults {
    final int at;
    final Fault fault;
    final SplittableRandom random;
    int calls;
    boolean enabled = true;

    Faults(final int at, final Fault fault, final long seed) {
      this.at = at;
      this.fault = fault;
      this.random = new SplittableRandom(seed);
    }

    void hit(final Registry registry, final long entity) {
      if (!enabled || ++calls != at) {
        return;
      }
      if (Fault.THROW == fault) {
        throw new Injected(calls);
      }
      // Change the world: destroy an entity, remove a component, add an entity of its own.
      final long[] alive = live(registry);
      if (alive.length > 0) {
        registry.destroy(alive[random.nextInt(alive.length)]);
      }
      if (registry.valid(entity)) {
        registry.remove(entity, CHARS);
      }
      registry.create();
    }

    /** Connects it to construct, update and destroy of every saved type, and to a group's enter. */
    void connect(final Registry local) {
      for (final ComponentType<?, ?> type : TYPES) {
        final Storage<?> storage = local.storage(type);
        storage.onConstruct().connect(this::hit);
        storage.onUpdate().connect(this::hit);
        storage.onDestroy().connect(this::hit);
      }
    }
  }

  /** The remote world's states, one snapshot each, with every kind of change between them. */
  private static List<byte[]> remoteStates(final List<Registry> copies) throws IOException {
    final Registry remote = LoaderWorlds.intsAndChars(16);
    final SplittableRandom random = new SplittableRandom(5);
    final List<byte[]> states = new ArrayList<>();
    for (int state = 0; state < 4; state++) {
      LoaderWorlds.churn(remote, random, 12);
      final long[] entities = live(remote);
      LoaderWorlds.mix(remote, entities[random.nextInt(entities.length)], entities, random);
      final byte[] bytes = save(remote);
      states.add(bytes);
      final Registry copy = new Registry();
      new SnapshotLoader(copy).types(TYPES).load(ByteBuffer.wrap(bytes));
      copies.add(copy);
    }
    return states;
  }

  private static int callsOfACleanRun(final List<byte[]> states) throws IOException {
    final Registry local = new Registry();
    final ContinuousLoader loader = new ContinuousLoader(local).types(TYPES);
    final Faults counter = new Faults(0, Fault.THROW, 0);
    counter.connect(local);
    for (final byte[] state : states) {
      loader.load(ByteBuffer.wrap(state));
    }
    return counter.calls;
  }

  @Test
  void aContinuousLoadCompletesWhateverCallAListenerThrowsAt() throws IOException {
    final List<Registry> remotes = new ArrayList<>();
    final List<byte[]> states = remoteStates(remotes);
    final int calls = callsOfACleanRun(states);
    assertTrue(calls > 30, calls + " calls");
    for (int k = 1; k <= calls; k++) {
      final Registry local = new Registry();
      local.create(); // a local entity of its own
      final ContinuousLoader loader = new ContinuousLoader(local).types(TYPES);
      final Faults faults = new Faults(k, Fault.THROW, k);
      faults.connect(local);
      int thrown = 0;
      for (int s = 0; s < states.size(); s++) {
        try {
          loader.load(ByteBuffer.wrap(states.get(s)));
        } catch (final Injected expected) {
          thrown++;
        }
        assertMirrors(remotes.get(s), local, loader);
      }
      assertEquals(1, thrown, "k=" + k);
    }
  }

  @Test
  void aListenerChangingTheWorldDuringAContinuousLoadLeavesItSound() throws IOException {
    final List<Registry> remotes = new ArrayList<>();
    final List<byte[]> states = remoteStates(remotes);
    final int calls = callsOfACleanRun(states);
    for (int k = 1; k <= calls; k++) {
      final Registry local = new Registry();
      final ContinuousLoader loader = new ContinuousLoader(local).types(TYPES);
      final Faults faults = new Faults(k, Fault.CHANGE_WORLD, k);
      faults.connect(local);
      for (int s = 0; s < states.size(); s++) {
        loader.load(ByteBuffer.wrap(states.get(s)));
        assertEquals(List.of(), local.verify(), "k=" + k + ", state " + s);
        for (final long remote : live(remotes.get(s))) {
          final long mine = loader.map(remote);
          assertTrue(
              Entity.isNull(mine) || local.valid(mine), "mapped to a live entity or unmapped");
        }
      }
      // Once the listener is quiet, the next load mirrors the remote world again.
      faults.enabled = false;
      final int last = states.size() - 1;
      loader.load(ByteBuffer.wrap(states.get(last)));
      assertMirrors(remotes.get(last), local, loader);
    }
  }

  @Test
  void aWholeLoadCompletesWhateverCallAListenerThrowsAtOrChangesTheWorld() throws IOException {
    final List<Registry> remotes = new ArrayList<>();
    final byte[] bytes = remoteStates(remotes).get(3);
    final Registry remote = remotes.get(3);
    int calls = 0;
    for (int k = 1; k <= calls + 1; k++) {
      for (final Fault fault : Fault.values()) {
        final Registry target = new Registry();
        final Group group = target.owningGroup(INTS, CHARS);
        final Faults faults = new Faults(k, fault, k);
        faults.connect(target);
        group.onEnter().connect(faults::hit);
        try {
          new SnapshotLoader(target).types(TYPES).load(ByteBuffer.wrap(bytes));
        } catch (final Injected expected) {
          assertEquals(Fault.THROW, fault);
        }
        assertEquals(List.of(), target.verify(), "k=" + k + ", " + fault);
        if (Fault.THROW == fault) {
          LoaderWorlds.assertSameWorld(remote, target);
          // Counted once, in a run that threw nothing.
          calls = Math.max(calls, faults.calls);
        }
      }
    }
    assertTrue(calls > 5, calls + " calls");
  }
}

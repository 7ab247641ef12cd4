package dev.phalanx.ecs.command;

import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.GroupTypes.A;
import dev.phalanx.ecs.GroupTypes.B;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.command.CommandBufferTypedRecordingTest.Cell;
import dev.phalanx.ecs.command.CommandBufferTypedRecordingTest.CellStorage;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Seeded random command programs against a plain reference model (a list of maps and a queue), with
 * listeners that record and reserve during apply, and faults injected at every listener call.
 *
 * <p>Types: TA and TB (object storages, low ids in any JVM) and a typed cell type whose id is at
 * least 20 (defined fresh), so that the outcome does not depend on the order tests run in.
 *
 * <p>The rule checked: apply applies what was recorded before it in order, then what listeners
 * recorded during it, in the order they recorded it; a handle reserved during apply becomes its own
 * entity. A listener that throws does not stop anything: the world equals the fault-free one, and
 * the first injected exception is the one rethrown.
 */
class CommandBufferModelTest {

  private static final ComponentType<Cell, CellStorage> CELL =
      CommandBufferTypedRecordingTest.typeWithIdAtLeast(20);

  // Model components by name; a command of the program.
  private static final String[] NAMES = {"A", "B", "C"};

  /** One abstract command: op, target (model entity index, or -1 - reservation), type, value. */
  private record Op(int op, int target, int type, int value) {}

  private static final int EMPLACE = 0;
  private static final int IF_ABSENT = 1;
  private static final int REPLACE = 2;
  private static final int REMOVE = 3;
  private static final int ERASE = 4;
  private static final int DESTROY = 5;
  private static final int REMOVE_ALL = 6;
  private static final int QUEUE = 7;
  private static final int OPS = 8;

  /** The reference: entities as maps (null when dead), commands as a queue. */
  private static final class Model {
    final List<TreeMap<String, Integer>> entities = new ArrayList<>();
    final ArrayDeque<Op> queue = new ArrayDeque<>();
    int reservations;
    final List<Integer> reservedAs = new ArrayList<>();

    int index(final int target) {
      if (target >= 0) {
        return target;
      }
      final int n = -1 - target;
      while (reservedAs.size() <= n) {
        reservedAs.add(-1);
      }
      if (reservedAs.get(n) < 0) {
        reservedAs.set(n, entities.size());
        entities.add(new TreeMap<>());
      }
      return reservedAs.get(n);
    }

    void apply() {
      // Reservations made before the apply are created first, in order.
      for (int n = 0; n < reservations; n++) {
        index(-1 - n);
      }
      while (!queue.isEmpty()) {
        final Op op = queue.poll();
        final int at = index(op.target());
        final TreeMap<String, Integer> e = at < entities.size() ? entities.get(at) : null;
        if (null == e && QUEUE != op.op()) {
          continue;
        }
        final String name = NAMES[op.type()];
        switch (op.op()) {
          case EMPLACE -> put(at, name, op.value());
          case IF_ABSENT -> {
            if (!e.containsKey(name)) {
              put(at, name, op.value());
            }
          }
          case REPLACE -> {
            if (e.containsKey(name)) {
              e.put(name, op.value());
            }
          }
          case REMOVE, ERASE -> e.remove(name);
          case DESTROY -> entities.set(at, null);
          case REMOVE_ALL -> e.clear();
          case QUEUE -> {
            if (null != e) {
              put(at, "A", op.value());
            }
          }
          default -> throw new AssertionError(op);
        }
      }
      reservations = 0;
      reservedAs.clear();
    }

    /** Adds or replaces; a construct of A with a value divisible by 5 records (see the test). */
    void put(final int at, final String name, final int value) {
      final boolean constructed = !entities.get(at).containsKey(name);
      entities.get(at).put(name, value);
      if (constructed && "A".equals(name) && 0 == value % 5) {
        if (0 == value % 10) {
          final int n = reservations++;
          queue.add(new Op(EMPLACE, -1 - n, 1, value + 1));
        } else {
          queue.add(new Op(EMPLACE, at, 1, value + 1));
        }
      }
    }

    List<String> signature() {
      final List<String> out = new ArrayList<>();
      for (final TreeMap<String, Integer> e : entities) {
        if (null != e) {
          out.add(e.toString());
        }
      }
      Collections.sort(out);
      return out;
    }
  }

  /** The world under test, with the recording listener and a fault counter. */
  private static final class World {
    final Registry registry = new Registry();
    final CommandBuffer commands = new CommandBuffer(registry);
    final CellStorage cells = registry.storage(CELL);
    final List<Long> entities = new ArrayList<>();
    final List<Long> handles = new ArrayList<>();
    int calls;
    int throwAt = -1;
    RuntimeException injected;

    World() {
      registry
          .storage(TA)
          .onConstruct()
          .connect(
              (r, entity) -> {
                final int value = r.get(entity, TA).value();
                if (0 == value % 5) {
                  if (0 == value % 10) {
                    final long h = commands.create();
                    commands.emplace(h, TB, new B(value + 1));
                  } else {
                    commands.emplace(entity, TB, new B(value + 1));
                  }
                }
              });
      for (final Storage<?> storage : List.of(registry.storage(TB), cells)) {
        storage.onConstruct().connect((r, entity) -> fault());
        storage.onDestroy().connect((r, entity) -> fault());
        storage.onUpdate().connect((r, entity) -> fault());
      }
    }

    void fault() {
      if (++calls == throwAt) {
        injected = new IllegalStateException("fault at call " + calls);
        throw injected;
      }
    }

    long target(final int target) {
      return target >= 0 ? entities.get(target) : handles.get(-1 - target);
    }

    void record(final Op op) {
      final long e = target(op.target());
      switch (op.op()) {
        case EMPLACE -> emplace(e, op, false);
        case IF_ABSENT -> emplace(e, op, true);
        case REPLACE -> {
          if (0 == op.type()) {
            commands.replace(e, TA, new A(op.value()));
          } else if (1 == op.type()) {
            commands.replace(e, TB, new B(op.value()));
          } else {
            commands.replace(e, CELL, new Cell(op.value(), "c"));
          }
        }
        case REMOVE -> commands.remove(e, type(op.type()));
        case ERASE -> commands.erase(e, type(op.type()));
        case DESTROY -> commands.destroy(e);
        case REMOVE_ALL -> commands.removeAll(e);
        case QUEUE ->
            commands.queue(
                r -> {
                  final long created = CommandBuffer.isReserved(e) ? commands.entityOf(e) : e;
                  if (r.valid(created)) {
                    r.storage(TA).emplaceOrReplace(created, new A(op.value()));
                  }
                });
        default -> throw new AssertionError(op);
      }
    }

    private void emplace(final long e, final Op op, final boolean ifAbsent) {
      switch (op.type()) {
        case 0 -> {
          if (ifAbsent) {
            commands.emplaceIfAbsent(e, TA, new A(op.value()));
          } else {
            commands.emplace(e, TA, new A(op.value()));
          }
        }
        case 1 -> {
          if (ifAbsent) {
            commands.emplaceIfAbsent(e, TB, new B(op.value()));
          } else {
            commands.emplace(e, TB, new B(op.value()));
          }
        }
        default -> {
          if (ifAbsent) {
            cells.emplaceIfAbsent(commands, e, op.value(), "c");
          } else {
            cells.emplace(commands, e, op.value(), "c");
          }
        }
      }
    }

    ComponentType<?, ?> type(final int type) {
      return 0 == type ? TA : 1 == type ? TB : CELL;
    }

    List<String> signature() {
      final List<String> out = new ArrayList<>();
      registry
          .entities()
          .each(
              e -> {
                final TreeMap<String, Integer> components = new TreeMap<>();
                if (registry.has(e, TA)) {
                  components.put("A", registry.get(e, TA).value());
                }
                if (registry.has(e, TB)) {
                  components.put("B", registry.get(e, TB).value());
                }
                if (cells.contains(e)) {
                  components.put("C", (int) cells.get(e).word());
                }
                out.add(components.toString());
              });
      Collections.sort(out);
      return out;
    }
  }

  /** Runs the seeded program on a world and a model; returns the world's fault count. */
  private static int run(final long seed, final int throwAt, final boolean check) {
    final Random random = new Random(seed);
    final World world = new World();
    final Model model = new Model();
    world.throwAt = throwAt;
    for (int i = 0; i < 6; i++) {
      world.entities.add(world.registry.create());
      model.entities.add(new TreeMap<>());
    }
    for (int round = 0; round < 3; round++) {
      final int commands = 1 + random.nextInt(14);
      for (int c = 0; c < commands; c++) {
        final int roll = random.nextInt(10);
        if (0 == roll) {
          world.handles.add(world.commands.create());
          model.reservations++;
          continue;
        }
        final int reservations = world.handles.size();
        int target = -1 - random.nextInt(Math.max(1, reservations));
        if (0 == reservations || random.nextInt(3) != 0) {
          // Entities the listeners reserved are not targeted: the world has no handle for them.
          do {
            target = random.nextInt(world.entities.size());
          } while (Entity.isNull(world.entities.get(target)));
        }
        final Op op = new Op(random.nextInt(OPS), target, random.nextInt(3), random.nextInt(40));
        world.record(op);
        model.queue.add(op);
      }
      RuntimeException thrown = null;
      try {
        world.commands.apply();
      } catch (final RuntimeException e) {
        thrown = e;
      }
      model.apply();
      // The reservations became entities: later rounds target them as entities.
      for (final long handle : world.handles) {
        final long created = world.commands.entityOf(handle);
        world.entities.add(created);
      }
      remapModel(model, world);
      world.handles.clear();
      if (check) {
        assertEquals(model.signature(), world.signature(), "seed " + seed + ", fault " + throwAt);
        assertEquals(List.of(), world.registry.verify());
        assertTrue(world.commands.isEmpty());
        if (null == world.injected) {
          assertNull(thrown);
        } else {
          assertSame(world.injected, thrown, "seed " + seed + ", fault " + throwAt);
          world.injected = null;
          world.throwAt = -1;
        }
      }
    }
    return world.calls;
  }

  /**
   * Keeps the model's and the world's entity lists parallel: the model appended its reservations
   * (and the late ones) at the end; the world's list gets the entities of its handles, in the same
   * order, and the late reservations (listener-made) are not targeted by later rounds.
   */
  private static void remapModel(final Model model, final World world) {
    while (model.entities.size() > world.entities.size()) {
      world.entities.add(Entity.NULL);
    }
    while (world.entities.size() > model.entities.size()) {
      model.entities.add(null);
    }
  }

  @Test
  void randomProgramsFollowTheApplyRule() {
    for (long seed = 0; seed < 400; seed++) {
      run(seed, -1, true);
    }
  }

  @Test
  void aListenerThrowingAtItsKthCallChangesNothingButTheException() {
    for (long seed = 0; seed < 60; seed++) {
      final int calls = run(seed, -1, false);
      for (int k = 1; k <= calls; k++) {
        run(seed, k, true);
      }
    }
  }
}

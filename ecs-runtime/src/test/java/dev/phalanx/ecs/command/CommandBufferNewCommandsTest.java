package dev.phalanx.ecs.command;

import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.EmptyStorage;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.GroupTypes.A;
import dev.phalanx.ecs.GroupTypes.B;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.command.CommandBufferTypedRecordingTest.Cell;
import dev.phalanx.ecs.command.CommandBufferTypedRecordingTest.CellStorage;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The commands added against Bevy and flecs: tags, insert-if-absent, detach, removeAll, queue. */
class CommandBufferNewCommandsTest {

  /** A tag: stores no instances. */
  record Flag() {}

  private static final ComponentType<Flag, EmptyStorage<Flag>> FLAG = ComponentType.tag(Flag.class);

  private final Registry registry = new Registry();
  private final CommandBuffer commands = new CommandBuffer(registry);

  @Test
  void aTagIsRecordedWithoutAValueAndAValueTypeIsRefusedAsATag() {
    final long e = registry.create();
    commands.emplace(e, FLAG);
    commands.emplaceIfAbsent(commands.create(), FLAG);
    final IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> commands.emplace(e, TA));
    assertTrue(refused.getMessage().contains("stores instances"), refused.getMessage());
    assertEquals(2, commands.size());
    commands.apply();
    assertTrue(registry.has(e, FLAG));
    assertEquals(2, registry.storage(FLAG).size());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void emplaceIfAbsentLeavesAPresentComponentAndItsSignalsAlone() {
    final ComponentType<Cell, CellStorage> type =
        CommandBufferTypedRecordingTest.typeWithIdAtLeast(20);
    final CellStorage cells = registry.storage(type);
    final long had = registry.create();
    final long fresh = registry.create();
    registry.emplace(had, TA, new A(1));
    cells.emplace(had, new Cell(1, "kept"));
    final List<Long> updated = new ArrayList<>();
    registry.storage(TA).onUpdate().connect((r, e) -> updated.add(e));
    cells.onUpdate().connect((r, e) -> updated.add(e));
    commands.emplaceIfAbsent(had, TA, new A(2));
    commands.emplaceIfAbsent(fresh, TA, new A(3));
    cells.emplaceIfAbsent(commands, had, 9, "lost");
    cells.emplaceIfAbsent(commands, fresh, 4, "new");
    commands.emplace(fresh, TB, new B(5)); // the next command reads its own value
    commands.apply();
    assertEquals(1, registry.get(had, TA).value());
    assertEquals(3, registry.get(fresh, TA).value());
    assertEquals(new Cell(1, "kept"), cells.get(had));
    assertEquals(new Cell(4, "new"), cells.get(fresh));
    assertEquals(5, registry.get(fresh, TB).value());
    assertEquals(List.of(), updated);
    assertEquals(0, commands.skipped());
  }

  @Test
  void detachMakesARootAndKeepsItsChildren() {
    final Hierarchy hierarchy = Hierarchy.of(registry);
    final long parent = registry.create();
    final long child = registry.create();
    final long grandchild = registry.create();
    hierarchy.attach(child, parent);
    hierarchy.attach(grandchild, child);
    commands.detach(child);
    commands.detach(parent); // a root: left as it is
    final long spawned = commands.create();
    commands.attach(spawned, parent);
    commands.detach(spawned);
    commands.apply();
    assertTrue(Entity.isNull(hierarchy.parent(child)));
    assertEquals(child, hierarchy.parent(grandchild));
    assertTrue(Entity.isNull(hierarchy.parent(commands.entityOf(spawned))));
    assertEquals(0, hierarchy.childCount(parent));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void removeAllKeepsTheEntityAndOutlivesAThrowingListener() {
    final long e = registry.create();
    registry.emplace(e, TA, new A(1));
    registry.emplace(e, TB, new B(2));
    registry.emplace(e, FLAG, null);
    final IllegalStateException boom = new IllegalStateException("boom");
    registry
        .storage(TB)
        .onDestroy()
        .connect(
            (r, entity) -> {
              throw boom;
            });
    commands.removeAll(e);
    assertSame(boom, assertThrows(IllegalStateException.class, commands::apply));
    assertTrue(registry.valid(e));
    assertTrue(registry.orphan(e));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aQueuedActionRunsInItsPlaceAndSeesTheCreatedEntities() {
    final List<String> log = new ArrayList<>();
    final long spawned = commands.create();
    commands.emplace(spawned, TA, new A(1));
    commands.queue(
        r -> {
          final long created = commands.entityOf(spawned);
          log.add("queued sees A=" + r.get(created, TA).value());
          // What it records is applied by the same apply, after the rest.
          commands.emplace(created, TB, new B(2));
        });
    commands.emplace(spawned, TA, new A(3));
    commands.apply();
    final long created = commands.entityOf(spawned);
    assertEquals(List.of("queued sees A=1"), log);
    assertEquals(3, registry.get(created, TA).value());
    assertEquals(2, registry.get(created, TB).value());
    assertThrows(NullPointerException.class, () -> commands.queue(null));
    final IllegalStateException boom = new IllegalStateException("boom");
    commands.queue(
        r -> {
          throw boom;
        });
    commands.destroy(created);
    assertSame(boom, assertThrows(IllegalStateException.class, commands::apply));
    assertFalse(registry.valid(created));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void emplaceIfAbsentOfAValueTypeAsATagIsRefused() {
    final long e = registry.create();
    final IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> commands.emplaceIfAbsent(e, TA));
    assertTrue(refused.getMessage().contains("emplaceIfAbsent"), refused.getMessage());
    assertTrue(refused.getMessage().contains("stores instances"), refused.getMessage());
    assertEquals(0, commands.size());
  }

  @Test
  void aTagEmplacedIfAbsentLeavesTheNextCommandsTheirValues() {
    final long e = registry.create();
    commands.emplaceIfAbsent(e, FLAG);
    commands.emplace(e, TA, new A(7));
    commands.emplaceIfAbsent(e, TB, new B(8));
    commands.apply();
    assertTrue(registry.has(e, FLAG));
    assertEquals(7, registry.get(e, TA).value());
    assertEquals(8, registry.get(e, TB).value());
  }
}

package dev.phalanx.ecs.inspector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.phalanx.ecs.ComponentListener;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Storage;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The inspector's writes are change sets: a listener that throws at its k-th call, for every k,
 * stops no part of a write (the world ends as the fault-free write leaves it, and the call says the
 * change was made), and a write the runtime refuses mid-way changes nothing.
 */
class WriteFaultsTest {

  /** A listener on every signal that throws at its k-th call (never, for 0). */
  private static final class Fault implements ComponentListener {
    int armed;
    int calls;

    @Override
    public void onEvent(final Registry registry, final long entity) {
      if (++calls == armed) {
        throw new IllegalStateException("injected at call " + calls);
      }
    }
  }

  private record Write(String method, String params) {}

  private static final String ENTITY = "\"0:0\"";

  private static final List<Write> WRITES =
      List.of(
          new Write(
              "world.spawn_entity",
              "{\"components\": {\"Position\": {\"x\": 3}, \"Health\": {\"points\": 9}}}"),
          new Write(
              "world.insert_components",
              "{\"entity\": " + ENTITY + ", \"components\": {\"Velocity\": {}, \"Health\": {}}}"),
          new Write(
              "world.replace_components",
              "{\"entity\": " + ENTITY + ", \"components\": {\"Position\": {\"y\": 7}}}"),
          new Write(
              "world.remove_components",
              "{\"entity\": " + ENTITY + ", \"components\": [\"Position\", \"Label\"]}"),
          new Write("world.despawn_entity", "{\"entity\": " + ENTITY + "}"));

  private static TestWorld world(final Fault fault) throws Exception {
    final Registry registry = new Registry();
    final long entity = registry.create();
    assertEquals(0, Entity.index(entity));
    registry.storage(Position_Traits.TYPE).emplace(entity, 1, 2);
    registry.storage(Label_Traits.TYPE).emplace(entity, new Label("a", Label.Color.RED, 1, null));
    registry.storage(Velocity_Traits.TYPE);
    registry.storage(Health_Traits.TYPE);
    registry.onCreate().connect(fault);
    for (int i = 0; i < registry.storageCount(); i++) {
      final Storage<?> storage = registry.storageAt(i);
      storage.onConstruct().connect(fault);
      storage.onUpdate().connect(fault);
      storage.onDestroy().connect(fault);
    }
    return new TestWorld(registry);
  }

  @Test
  void aListenerThrowingAtAnyCallStopsNoPartOfAWrite() throws Exception {
    for (final Write write : WRITES) {
      final Fault never = new Fault();
      final String after;
      try (TestWorld clean = world(never)) {
        final JsonNode answer = clean.call(write.method(), write.params());
        assertTrue(answer.has("result"), answer::toString);
        after = clean.dump();
        clean.assertConsistent();
      }
      assertTrue(never.calls > 0, write.method() + " announces something");
      for (int k = 1; k <= never.calls; k++) {
        final Fault fault = new Fault();
        fault.armed = k;
        try (TestWorld world = world(fault)) {
          final String message = world.error(write.method(), write.params(), RpcError.REFUSED);
          assertTrue(
              message.contains("the change was made") && message.contains("injected at call " + k),
              message);
          assertEquals(after, world.dump(), write.method() + ", thrown at " + k);
          assertEquals(never.calls, fault.calls, "every listener ran");
          world.assertConsistent();
        }
      }
    }
  }

  @Test
  void aWriteRefusedByTheRuntimeChangesNothing() throws Exception {
    final Fault never = new Fault();
    try (TestWorld world = world(never)) {
      // The first insertion is fine; the second is refused while the storage is locked: nothing
      // of the call may land.
      world.onGame(
          () -> {
            world.registry.storage(Health_Traits.TYPE).lock("a test lock of", "Health");
            return null;
          });
      final String before = world.dump();
      final String message =
          world.error(
              "world.insert_components",
              "{\"entity\": " + ENTITY + ", \"components\": {\"Velocity\": {}, \"Health\": {}}}",
              RpcError.REFUSED);
      assertTrue(message.contains("refused") && message.contains("a test lock of"), message);
      assertEquals(before, world.dump());
      final String spawn =
          world.error(
              "world.spawn_entity",
              "{\"components\": {\"Position\": {}, \"Health\": {}}}",
              RpcError.REFUSED);
      assertTrue(spawn.contains("refused"), spawn);
      assertEquals(before, world.dump(), "no entity was spawned");
      world.onGame(
          () -> {
            world.registry.storage(Health_Traits.TYPE).unlock();
            return null;
          });
      world.assertConsistent();
    }
  }
}

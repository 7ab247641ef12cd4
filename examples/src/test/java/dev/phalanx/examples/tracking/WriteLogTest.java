package dev.phalanx.examples.tracking;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.WriteLog;
import dev.phalanx.ecs.command.CommandBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ObjLongConsumer;
import org.junit.jupiter.api.Test;

/**
 * Every in-place write path of a generated tracked storage logs its entity in the write log, once
 * per tick; additions are not logged; an untracked storage has no log.
 */
class WriteLogTest {

  /** The in-place write paths, each writing one entity's temperature. */
  private static Map<String, ObjLongConsumer<Registry>> paths() {
    final Map<String, ObjLongConsumer<Registry>> paths = new LinkedHashMap<>();
    paths.put("setter", (r, e) -> temperatures(r).setCelsius(e, 1f));
    paths.put(
        "positional setter",
        (r, e) -> temperatures(r).setCelsiusAt(temperatures(r).indexOf(e), 2f));
    paths.put("replace(fields)", (r, e) -> temperatures(r).replace(e, 3f));
    paths.put(
        "registry.replace", (r, e) -> r.replace(e, Temperature_Traits.TYPE, new Temperature(4f)));
    paths.put("set(value)", (r, e) -> temperatures(r).set(e, new Temperature(5f)));
    paths.put("patch", (r, e) -> temperatures(r).patch(e));
    paths.put("patch(patcher)", (r, e) -> temperatures(r).patch(e, t -> {}));
    paths.put(
        "cursor setter",
        (r, e) -> {
          final Temperature_Cursor cursor = temperatures(r).cursor();
          cursor.moveToEntity(e);
          cursor.setCelsius(6f);
        });
    paths.put(
        "recorded emplace",
        (r, e) -> {
          final CommandBuffer commands = new CommandBuffer(r);
          temperatures(r).emplace(commands, e, 7f);
          commands.apply();
        });
    paths.put(
        "chunk markWritten",
        (r, e) -> {
          final int at = temperatures(r).indexOf(e);
          temperatures(r).markWritten(at, at + 1);
        });
    return paths;
  }

  private static Temperature_Storage temperatures(final Registry registry) {
    return registry.storage(Temperature_Traits.TYPE);
  }

  @Test
  void everyInPlaceWriteIsLoggedOncePerTick() {
    for (final Map.Entry<String, ObjLongConsumer<Registry>> path : paths().entrySet()) {
      final Registry registry = new Registry();
      final Temperature_Storage storage = temperatures(registry);
      final List<Long> entities = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        final long e = registry.create();
        storage.emplace(e, i);
        entities.add(e);
      }
      final WriteLog.Reader reader = storage.readWrites();
      registry.advanceChangeTick();
      final long added = registry.create();
      storage.emplace(added, 9f);
      assertEquals(reader.next(), reader.end(), path.getKey() + ": an addition is not logged");
      final long target = entities.get(5);
      path.getValue().accept(registry, target);
      path.getValue().accept(registry, target);
      assertEquals(1, reader.end() - reader.next(), path.getKey() + ": once per tick");
      assertEquals(target, reader.entity(reader.next()), path.getKey());
      reader.advance(reader.end());
      registry.advanceChangeTick();
      path.getValue().accept(registry, target);
      assertEquals(1, reader.end() - reader.next(), path.getKey() + ": again at the next tick");
      reader.close();
    }
  }

  @Test
  void withoutReadersNothingIsLoggedAndUntrackedStoragesRefuse() {
    final Registry registry = new Registry();
    final Temperature_Storage storage = temperatures(registry);
    final long e = registry.create();
    storage.emplace(e, 1f);
    final WriteLog.Reader first = storage.readWrites();
    first.close();
    storage.setCelsius(e, 2f);
    final WriteLog.Reader later = storage.readWrites();
    assertEquals(later.next(), later.end(), "a new reader starts at the end");
    later.close();
    final Mass_Storage masses = registry.storage(Mass_Traits.TYPE);
    final IllegalStateException refused =
        assertThrows(IllegalStateException.class, masses::readWrites);
    assertTrue(refused.getMessage().contains("Mass"), refused.getMessage());
  }
}

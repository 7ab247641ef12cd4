package dev.phalanx.ecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.phalanx.ecs.PrimitiveColumnsStorageA.Row;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.clone.EntityCloner;
import dev.phalanx.ecs.clone.Prefab;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Copies made by the clone package reach a replica: a {@link DeltaWriter} hears every element that
 * a {@link Prefab} or an {@link EntityCloner} inserts, though those insertions are announced after
 * the copying and no user listener is connected.
 */
class DeltaOfCopiesTest {

  @Test
  void prefabInstancesAndClonesAreStreamedToTheReplica() throws SnapshotFormatException {
    final Registry server = LoaderWorlds.intsAndChars(2);
    final DeltaWriter writer =
        new DeltaWriter(server).types(LoaderWorlds.TYPES).whenAdded(LoaderWorlds.TYPES);
    final Registry replica = new Registry();
    final DeltaLoader loader = new DeltaLoader(replica).types(LoaderWorlds.TYPES);
    LoaderWorlds.load(loader, writer);
    final long template = server.storage(LoaderWorlds.INTS).packed()[0];
    final long[] instances = new long[3];
    Prefab.of(server, template).instantiate(server, instances);
    final long clone = EntityCloner.within(server).clone(template);
    LoaderWorlds.load(loader, writer);
    assertEquals(6, replica.alive());
    for (final long copy : List.of(instances[0], instances[1], instances[2], clone)) {
      assertEquals(Row.of(100), replica.get(loader.map(copy), LoaderWorlds.INTS));
      assertEquals(Row.of('a'), replica.get(loader.map(copy), LoaderWorlds.CHARS));
    }
    assertEquals(List.of(), replica.verify());
  }

  @Test
  void aRangeInsertionIsStreamedToTheReplica() throws SnapshotFormatException {
    final Registry server = LoaderWorlds.intsAndChars(1);
    final DeltaWriter writer =
        new DeltaWriter(server).types(LoaderWorlds.TYPES).whenAdded(LoaderWorlds.TYPES);
    final Registry replica = new Registry();
    final DeltaLoader loader = new DeltaLoader(replica).types(LoaderWorlds.TYPES);
    LoaderWorlds.load(loader, writer);
    final long[] added = new long[4];
    server.create(added);
    server.storage(LoaderWorlds.INTS).insert(added, 0, added.length, Row.of(7));
    LoaderWorlds.load(loader, writer);
    for (final long e : added) {
      assertEquals(Row.of(7), replica.get(loader.map(e), LoaderWorlds.INTS));
    }
    assertEquals(List.of(), replica.verify());
  }
}

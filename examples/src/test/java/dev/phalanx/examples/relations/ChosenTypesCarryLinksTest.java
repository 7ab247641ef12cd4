package dev.phalanx.examples.relations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import dev.phalanx.ecs.relation.Relation;
import dev.phalanx.ecs.relation.RelationshipStorage;
import dev.phalanx.ecs.snapshot.AckedDeltaLoader;
import dev.phalanx.ecs.snapshot.AckedDeltaWriter;
import dev.phalanx.ecs.snapshot.ContinuousLoader;
import dev.phalanx.ecs.snapshot.DeltaLoader;
import dev.phalanx.ecs.snapshot.DeltaWriter;
import dev.phalanx.ecs.snapshot.SnapshotFormatException;
import dev.phalanx.ecs.snapshot.SnapshotLoader;
import dev.phalanx.ecs.snapshot.SnapshotWriter;
import dev.phalanx.examples.components.Position;
import dev.phalanx.examples.components.Position_Traits;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * Writers given the game's own component types ({@code types(Position)}) still carry the links of
 * the entities they stream: every parent, in its children's order, and every relationship kind's
 * target, with each target's sources. Each round trip compares the links, not only the values: a
 * copy whose children all arrived as roots passes {@code verify()} and holds every value.
 */
class ChosenTypesCarryLinksTest {

  private final Registry server = new Registry();
  private final Hierarchy tree = Hierarchy.of(server);
  private final long[] entities = new long[14];

  ChosenTypesCarryLinksTest() {
    for (int i = 0; i < entities.length; i++) {
      entities[i] = server.create();
      server.emplace(entities[i], Position_Traits.TYPE, new Position(i, -i));
    }
    tree.attach(entities[1], entities[0]);
    tree.attach(entities[2], entities[0]);
    tree.attach(entities[3], entities[0], 1); // an order that is not the attach order
    tree.attach(entities[4], entities[3]);
    final Docked_Storage docked = server.storage(Docked_Traits.TYPE);
    docked.emplace(entities[5], entities[0], 1);
    docked.emplace(entities[6], entities[0], 2);
    docked.emplace(entities[12], entities[5], 3);
    server.storage(Targets_Traits.TYPE).emplace(entities[7], entities[8], 0.5f);
    server.storage(OwnedBy_Traits.TYPE).emplace(entities[9], entities[10]);
    server.storage(OwnedBy_Traits.TYPE).emplace(entities[11], entities[9]);
    server.storage(OwnedBy_Traits.TYPE).emplace(entities[13], entities[10]);
    assertEquals(List.of(), server.verify());
  }

  @Test
  void aSnapshotOfChosenTypesKeepsEveryLink() throws IOException {
    final Registry copy = new Registry();
    new SnapshotLoader(copy)
        .types(Position_Traits.TYPE, Docked_Traits.TYPE, Targets_Traits.TYPE, OwnedBy_Traits.TYPE)
        .load(
            new ByteArrayInputStream(save(new SnapshotWriter(server).types(Position_Traits.TYPE))));
    assertSameWorld(copy, LongUnaryOperator.identity());
  }

  @Test
  void aContinuousLoadOfChosenTypesKeepsEveryLink() throws IOException {
    final Registry mirror = new Registry();
    final ContinuousLoader loader =
        new ContinuousLoader(mirror)
            .types(
                Position_Traits.TYPE, Docked_Traits.TYPE, Targets_Traits.TYPE, OwnedBy_Traits.TYPE);
    loader.load(
        new ByteArrayInputStream(save(new SnapshotWriter(server).types(Position_Traits.TYPE))));
    assertSameWorld(mirror, loader::map);
    // A second load, after the links changed, mirrors the change.
    tree.reparent(entities[4], entities[1]);
    server.storage(Docked_Traits.TYPE).replace(entities[12], entities[6], 3);
    loader.load(
        new ByteArrayInputStream(save(new SnapshotWriter(server).types(Position_Traits.TYPE))));
    assertSameWorld(mirror, loader::map);
  }

  @Test
  void aSnapshotOfChosenEntitiesKeepsTheLinksAmongThem() throws IOException {
    final long[] chosen = entities.clone();
    final Registry mirror = new Registry();
    final ContinuousLoader loader =
        new ContinuousLoader(mirror)
            .types(
                Position_Traits.TYPE, Docked_Traits.TYPE, Targets_Traits.TYPE, OwnedBy_Traits.TYPE);
    loader.load(
        new ByteArrayInputStream(
            save(new SnapshotWriter(server).types(Position_Traits.TYPE).entities(chosen))));
    assertSameWorld(mirror, loader::map);
  }

  /**
   * A source saved without its target arrives without the relationship, as a child saved without
   * its parent arrives as a root: no copy holds a relationship naming nothing.
   */
  @Test
  void aSourceSavedWithoutItsTargetArrivesWithoutTheRelationship() throws IOException {
    // Everything but entities[0], the parent of 1 to 3 and the carrier of 5 and 6.
    final long[] chosen = java.util.Arrays.copyOfRange(entities, 1, entities.length);
    final Registry mirror = new Registry();
    final ContinuousLoader loader =
        new ContinuousLoader(mirror)
            .types(
                Position_Traits.TYPE, Docked_Traits.TYPE, Targets_Traits.TYPE, OwnedBy_Traits.TYPE);
    loader.load(
        new ByteArrayInputStream(
            save(new SnapshotWriter(server).types(Position_Traits.TYPE).entities(chosen))));
    assertEquals(List.of(), mirror.verify());
    final Relation<Docked> docking = Relation.of(mirror, Docked_Traits.TYPE);
    assertEquals(Entity.NULL, docking.target(loader.map(entities[5])));
    assertEquals(loader.map(entities[5]), docking.target(loader.map(entities[12])));
    assertEquals(Entity.NULL, Hierarchy.of(mirror).parent(loader.map(entities[1])));
    assertEquals(
        Relation.of(server, OwnedBy_Traits.TYPE).size(),
        Relation.of(mirror, OwnedBy_Traits.TYPE).size());
  }

  @Test
  void aDeltaOfChosenTypesKeepsEveryLink() throws SnapshotFormatException {
    final DeltaWriter writer =
        new DeltaWriter(server)
            .types(Position_Traits.TYPE)
            .everyValue(Position_Traits.TYPE, Hierarchy.TYPE, Docked_Traits.TYPE);
    final Registry client = new Registry();
    final DeltaLoader loader =
        new DeltaLoader(client)
            .types(
                Position_Traits.TYPE, Docked_Traits.TYPE, Targets_Traits.TYPE, OwnedBy_Traits.TYPE);
    final int first = writer.write();
    loader.load(writer.bytes(), first);
    assertSameWorld(client, loader::map);
    tree.reparent(entities[4], entities[1]);
    tree.attach(entities[8], entities[2]);
    server.storage(Docked_Traits.TYPE).replace(entities[12], entities[6], 3);
    server.storage(Targets_Traits.TYPE).replace(entities[7], entities[9], 1f);
    final int length = writer.write();
    loader.load(writer.bytes(), length);
    assertSameWorld(client, loader::map);
  }

  @Test
  void anAcknowledgedDeltaOfChosenTypesKeepsEveryLink() throws SnapshotFormatException {
    final AckedDeltaWriter writer =
        new AckedDeltaWriter(server, 4)
            .types(Position_Traits.TYPE)
            .everyValue(Position_Traits.TYPE, Hierarchy.TYPE);
    final Registry client = new Registry();
    final AckedDeltaLoader loader =
        new AckedDeltaLoader(client)
            .types(
                Position_Traits.TYPE, Docked_Traits.TYPE, Targets_Traits.TYPE, OwnedBy_Traits.TYPE);
    final int length = writer.write();
    loader.load(writer.bytes(), length);
    writer.acknowledge(loader.sequence());
    assertSameWorld(client, loader::map);
  }

  /**
   * A loader that does not know a kind the writer carried refuses the stream: never a silent drop.
   */
  @Test
  void aLoaderThatLacksAStreamedKindRefusesTheStreamNamingIt() throws IOException {
    final byte[] bytes = save(new SnapshotWriter(server).types(Position_Traits.TYPE));
    final Registry copy = new Registry();
    final SnapshotFormatException refused =
        assertThrows(
            SnapshotFormatException.class,
            () ->
                new SnapshotLoader(copy)
                    .types(Position_Traits.TYPE)
                    .load(new ByteArrayInputStream(bytes)));
    assertTrue(refused.getMessage().contains("Docked"), refused.getMessage());
    assertEquals(0, copy.entities().alive());
  }

  private static byte[] save(final SnapshotWriter writer) throws IOException {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    writer.write(out);
    return out.toByteArray();
  }

  /**
   * Asserts that {@code copy} holds the server's values and links, {@code map} naming its handles.
   */
  private void assertSameWorld(final Registry copy, final LongUnaryOperator map) {
    assertEquals(List.of(), copy.verify());
    final Hierarchy copied = Hierarchy.of(copy);
    for (final long e : entities) {
      final long mine = map.applyAsLong(e);
      final String where = "entity " + Entity.toString(e);
      assertEquals(
          server.get(e, Position_Traits.TYPE), copy.get(mine, Position_Traits.TYPE), where);
      assertEquals(mapped(tree.parent(e), map), copied.parent(mine), where + "'s parent");
      assertEquals(children(tree, e, map), children(copied, mine, null), where + "'s children");
      assertSameKind(copy, Docked_Traits.TYPE, e, mine, map);
      assertSameKind(copy, Targets_Traits.TYPE, e, mine, map);
      assertSameKind(copy, OwnedBy_Traits.TYPE, e, mine, map);
    }
  }

  private <T> void assertSameKind(
      final Registry copy,
      final ComponentType<T, ? extends RelationshipStorage<T>> kind,
      final long e,
      final long mine,
      final LongUnaryOperator map) {
    final Relation<T> here = Relation.of(server, kind);
    final Relation<T> there = Relation.of(copy, kind);
    final String where = kind.name() + " of " + Entity.toString(e);
    assertEquals(mapped(here.target(e), map), there.target(mine), where);
    final List<Long> sources = new ArrayList<>();
    for (final long source : here.sources(e)) {
      sources.add(map.applyAsLong(source));
    }
    final List<Long> copied = new ArrayList<>();
    for (final long source : there.sources(mine)) {
      copied.add(source);
    }
    // A mirror links sources in the order its loads meet them: the set is the link, not the order.
    sources.sort(null);
    copied.sort(null);
    assertEquals(sources, copied, where + ": sources");
  }

  private static long mapped(final long entity, final LongUnaryOperator map) {
    return Entity.isNull(entity) ? Entity.NULL : map.applyAsLong(entity);
  }

  private static List<Long> children(
      final Hierarchy hierarchy, final long parent, final LongUnaryOperator map) {
    final List<Long> out = new ArrayList<>();
    for (long c = hierarchy.firstChild(parent); !Entity.isNull(c); c = hierarchy.nextSibling(c)) {
      out.add(null == map ? c : map.applyAsLong(c));
    }
    return out;
  }
}

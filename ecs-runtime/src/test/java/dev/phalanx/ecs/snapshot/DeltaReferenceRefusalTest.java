package dev.phalanx.ecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.PrimitiveColumnsStorageA.Row;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.snapshot.DeltaLoaderRefusalTest.Raw;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An {@code @EntityRef} that a delta would leave naming an entity the replica does not hold is
 * refused before anything changes: a value naming an entity neither held nor gained, and an entity
 * lost while a mirrored element that refers to it is left as it was. Hand-built deltas, their
 * checksums recomputed; then an honest writer whose interest set leaves a referenced entity out.
 */
class DeltaReferenceRefusalTest {

  private static final long STREAM = 0x5EED;
  private static final long A = Entity.of(1, 0);
  private static final long B = Entity.of(2, 0);
  private static final long C = Entity.of(3, 0);
  private static final long D = Entity.of(4, 0);
  private static final String MIXED = SnapshotFormat.key(LoaderWorlds.MIXED);

  /** A MIXED section sending field 'target' of {@code owner}. */
  private static Raw target(final Raw raw, final long owner, final long reference) {
    return raw.i(1)
        .s(MIXED)
        .i(1)
        .s("target")
        .b(SnapshotFormat.ENTITY)
        .list()
        .list(owner)
        .l(reference);
  }

  /** The replica after the first delta: A and B gained, A's target B, at tick 1. */
  private static DeltaLoader replica(final Registry registry) throws SnapshotFormatException {
    final DeltaLoader loader = new DeltaLoader(registry).types(LoaderWorlds.MIXED);
    final byte[] first = target(new Raw(STREAM, 0, 1).list().list(A, B), A, B).bytes();
    loader.load(first, first.length);
    assertEquals(loader.map(B), targetOf(registry, loader, A));
    return loader;
  }

  private static long targetOf(
      final Registry registry, final DeltaLoader loader, final long remote) {
    return (Long) registry.get(loader.map(remote), LoaderWorlds.MIXED).get(3);
  }

  private static SnapshotFormatException refused(final byte[] delta, final String... expected)
      throws SnapshotFormatException {
    final Registry registry = new Registry();
    final DeltaLoader loader = replica(registry);
    final String before = LoaderWorlds.dump(registry);
    final SnapshotFormatException e =
        assertThrows(SnapshotFormatException.class, () -> loader.load(delta, delta.length));
    for (final String part : expected) {
      assertTrue(e.getMessage().contains(part), e.getMessage());
    }
    assertEquals(before, LoaderWorlds.dump(registry));
    assertEquals(1, loader.tick());
    assertEquals(2, loader.size());
    assertTrue(registry.valid(targetOf(registry, loader, A)));
    assertEquals(List.of(), registry.verify());
    return e;
  }

  private static String storage() {
    return LoaderWorlds.MIXED.createStorage().describe();
  }

  @Test
  void aReferenceToAnEntityNeitherHeldNorGainedIsRefused() throws SnapshotFormatException {
    refused(
        target(new Raw(STREAM, 1, 2).list().list(), A, C).bytes(),
        Entity.toString(A),
        Entity.toString(C),
        storage(),
        "field 'target'",
        "does not hold after the delta");
  }

  @Test
  void aReferenceToAnEntityLostInTheSameDeltaIsRefused() throws SnapshotFormatException {
    refused(
        target(new Raw(STREAM, 1, 2).list(B).list(), A, B).bytes(),
        Entity.toString(B),
        "does not hold after the delta");
  }

  @Test
  void losingAnEntityAMirroredElementStillRefersToIsRefused() throws SnapshotFormatException {
    refused(
        new Raw(STREAM, 1, 2).list(B).list().i(0).bytes(),
        "it loses " + Entity.toString(B),
        "the element of " + Entity.toString(A),
        storage(),
        "field 'target'",
        "destroyed entity");
  }

  @Test
  void theDeltasJustInsideTheRulesLoad() throws SnapshotFormatException {
    // Lost, and the element that referred to it sent again with NULL.
    final Registry registry = new Registry();
    final DeltaLoader loader = replica(registry);
    final byte[] lose = target(new Raw(STREAM, 1, 2).list(B).list(), A, Entity.NULL).bytes();
    loader.load(lose, lose.length);
    assertEquals(Entity.NULL, targetOf(registry, loader, A));
    // A reference to an entity gained in the same delta names its new local entity.
    final byte[] gain = target(new Raw(STREAM, 2, 3).list().list(D), A, D).bytes();
    loader.load(gain, gain.length);
    assertEquals(loader.map(D), targetOf(registry, loader, A));
    assertTrue(registry.valid(targetOf(registry, loader, A)));
    // The owner lost with the entity it refers to.
    final byte[] both = new Raw(STREAM, 3, 4).list(A, D).list().i(0).bytes();
    loader.load(both, both.length);
    assertEquals(0, loader.size());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aReplicasOwnEntityReferringToALostOneDoesNotBlockTheDelta() throws SnapshotFormatException {
    final Registry registry = new Registry();
    final DeltaLoader loader = replica(registry);
    final long own = registry.create();
    registry.emplace(
        own, LoaderWorlds.MIXED, Row.of("own", LoaderWorlds.Mood.CALM, 0f, loader.map(B)));
    final byte[] lose = target(new Raw(STREAM, 1, 2).list(B).list(), A, Entity.NULL).bytes();
    loader.load(lose, lose.length);
    assertEquals(1, loader.size());
  }

  @Test
  void aWriterSendsNullForAReferenceOutsideTheInterestSet() throws SnapshotFormatException {
    final Registry server = new Registry();
    final long a = server.create();
    final long b = server.create();
    server.emplace(a, LoaderWorlds.MIXED, Row.of("a", LoaderWorlds.Mood.CALM, 1f, b));
    server.emplace(b, LoaderWorlds.MIXED, Row.of("b", LoaderWorlds.Mood.CALM, 2f, a));
    final boolean[] bVisible = {true};
    final DeltaWriter writer =
        new DeltaWriter(server)
            .types(LoaderWorlds.MIXED)
            .whenAdded(LoaderWorlds.MIXED)
            .interest(e -> e != b || bVisible[0]);
    final Registry client = new Registry();
    final DeltaLoader loader = new DeltaLoader(client).types(LoaderWorlds.MIXED);
    LoaderWorlds.load(loader, writer);
    assertEquals(loader.map(b), client.get(loader.map(a), LoaderWorlds.MIXED).get(3));
    bVisible[0] = false; // b leaves the replica: a's reference follows, as NULL
    LoaderWorlds.load(loader, writer);
    assertEquals(Entity.NULL, client.get(loader.map(a), LoaderWorlds.MIXED).get(3));
    server.destroy(a);
    bVisible[0] = true; // b comes back, its reference to a (gone) as NULL
    LoaderWorlds.load(loader, writer);
    assertEquals(Entity.NULL, client.get(loader.map(b), LoaderWorlds.MIXED).get(3));
    assertEquals(List.of(), client.verify());
  }
}

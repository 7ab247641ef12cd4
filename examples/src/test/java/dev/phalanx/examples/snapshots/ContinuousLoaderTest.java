package dev.phalanx.examples.snapshots;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import dev.phalanx.ecs.snapshot.ContinuousLoader;
import dev.phalanx.ecs.snapshot.SnapshotFormatException;
import dev.phalanx.examples.components.Parent_Storage;
import dev.phalanx.examples.components.Parent_Traits;
import dev.phalanx.examples.components.Position_Traits;
import dev.phalanx.examples.components.Slot_Traits;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Continuous loading of a stream of random remote worlds, checked against the remote world itself.
 */
class ContinuousLoaderTest {

  @Test
  void aStreamOfRandomSnapshotsIsMirroredWithReferencesMapped() throws IOException {
    for (long seed = 1; seed <= 10; seed++) {
      final SplittableRandom random = new SplittableRandom(seed);
      final Registry remote = Worlds.withGroups(new Registry());
      final Registry local = Worlds.withGroups(new Registry());
      // Local entities of the local world's own: never touched by the loader.
      final long own = local.create();
      local.storage(Position_Traits.TYPE).emplace(own, 42f, 43f);
      final ContinuousLoader loader = Worlds.continuous(local);
      for (int round = 0; round < 15; round++) {
        Worlds.mutate(remote, random, 60);
        final boolean partial = random.nextInt(4) == 0;
        final byte[] bytes =
            partial
                ? Worlds.save(
                    Worlds.writer(remote)
                        .types(Position_Traits.TYPE, Parent_Traits.TYPE)
                        .entities(Worlds.liveEntities(remote)))
                : Worlds.save(Worlds.writer(remote));
        loader.load(new ByteArrayInputStream(bytes));
        check(remote, local, loader, "seed " + seed + " round " + round);
        assertTrue(local.valid(own));
        assertEquals(42f, local.storage(Position_Traits.TYPE).x(own));
      }
    }
  }

  private static void check(
      final Registry remote,
      final Registry local,
      final ContinuousLoader loader,
      final String where) {
    assertEquals(List.of(), local.verify(), where);
    assertEquals(remote.alive(), loader.size(), where);
    final Parent_Storage remoteParents = remote.storage(Parent_Traits.TYPE);
    final Parent_Storage localParents = local.storage(Parent_Traits.TYPE);
    for (final long e : Worlds.liveEntities(remote)) {
      final long mine = loader.map(e);
      assertTrue(local.valid(mine), where);
      assertEquals(
          remote.has(e, Position_Traits.TYPE), local.has(mine, Position_Traits.TYPE), where);
      if (remote.has(e, Position_Traits.TYPE)) {
        assertEquals(
            remote.get(e, Position_Traits.TYPE), local.get(mine, Position_Traits.TYPE), where);
      }
      assertEquals(remote.has(e, Parent_Traits.TYPE), local.has(mine, Parent_Traits.TYPE), where);
      if (remote.has(e, Parent_Traits.TYPE)) {
        final long target = remoteParents.entity(e);
        final long expected = remote.valid(target) ? loader.map(target) : Entity.NULL;
        assertEquals(
            expected,
            localParents.entity(mine),
            where + ": the reference points to the mapped entity or null");
        assertEquals(remoteParents.depth(e), localParents.depth(mine), where);
      }
    }
    // Every reference held locally names a live entity or null.
    localParents.eachEntityRef(
        (owner, field, reference) ->
            assertTrue(Entity.isNull(reference) || local.valid(reference), where));
  }

  @Test
  void hierarchyLinksAreRemapped() throws IOException {
    final Registry remote = new Registry();
    final long[] e = new long[4];
    remote.create(e);
    final Hierarchy tree = Hierarchy.of(remote);
    tree.attach(e[1], e[0]);
    tree.attach(e[2], e[0]);
    tree.attach(e[3], e[2]);
    final Registry local = new Registry();
    local.create();
    local.create();
    final ContinuousLoader loader = Worlds.continuous(local);
    loader.load(new ByteArrayInputStream(Worlds.save(Worlds.writer(remote))));
    final Hierarchy mirror = Hierarchy.of(local);
    assertEquals(List.of(), mirror.verify());
    assertEquals(loader.map(e[0]), mirror.parent(loader.map(e[2])));
    assertEquals(loader.map(e[2]), mirror.parent(loader.map(e[3])));
    assertEquals(2, mirror.childCount(loader.map(e[0])));
    remote.destroy(e[3]);
    loader.load(new ByteArrayInputStream(Worlds.save(Worlds.writer(remote))));
    assertEquals(0, mirror.childCount(loader.map(e[2])));
    assertEquals(List.of(), mirror.verify());
    assertEquals(3, loader.size());
  }

  @Test
  void aBadStreamLeavesTheLocalWorldAndTheMapUnchanged() throws IOException {
    final Registry remote = Worlds.withGroups(new Registry());
    Worlds.mutate(remote, new SplittableRandom(9), 300);
    final Registry local = Worlds.withGroups(new Registry());
    final ContinuousLoader loader = Worlds.continuous(local);
    loader.load(new ByteArrayInputStream(Worlds.save(Worlds.writer(remote))));
    Worlds.mutate(remote, new SplittableRandom(10), 100);
    final byte[] next = Worlds.save(Worlds.writer(remote));
    final String before = SnapshotTest.dump(local);
    final int mapped = loader.size();
    for (int length = 0; length < next.length; length += 7) {
      final byte[] cut = Arrays.copyOf(next, length);
      assertThrows(SnapshotFormatException.class, () -> loader.load(new ByteArrayInputStream(cut)));
      assertEquals(before, SnapshotTest.dump(local));
      assertEquals(mapped, loader.size());
    }
    assertEquals(List.of(), local.verify());
    // Slot is in place: its holes are ignored by continuous loading, its elements mirrored.
    loader.load(new ByteArrayInputStream(next));
    assertEquals(
        remote.storage(Slot_Traits.TYPE).size() - countHoles(remote),
        local.storage(Slot_Traits.TYPE).size() - countHoles(local));
  }

  private static int countHoles(final Registry registry) {
    int holes = 0;
    final var slots = registry.storage(Slot_Traits.TYPE);
    for (int p = 0; p < slots.size(); p++) {
      holes += Entity.isTombstone(slots.at(p)) ? 1 : 0;
    }
    return holes;
  }
}

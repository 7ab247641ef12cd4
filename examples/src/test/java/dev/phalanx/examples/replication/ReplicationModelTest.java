package dev.phalanx.examples.replication;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.snapshot.ContinuousLoader;
import dev.phalanx.ecs.snapshot.DeltaLoader;
import dev.phalanx.ecs.snapshot.DeltaWriter;
import dev.phalanx.ecs.snapshot.SnapshotFormatException;
import dev.phalanx.ecs.snapshot.SnapshotWriter;
import dev.phalanx.examples.components.Frozen_Traits;
import dev.phalanx.examples.components.Parent;
import dev.phalanx.examples.components.Parent_Traits;
import dev.phalanx.examples.components.Primitives;
import dev.phalanx.examples.components.Primitives_Traits;
import dev.phalanx.examples.components.Slot;
import dev.phalanx.examples.components.Slot_Traits;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.LongPredicate;
import org.junit.jupiter.api.Test;

/**
 * A seeded random server world streamed for many ticks to two replicas, one by full snapshots of
 * the chosen entities ({@link ContinuousLoader}), one by deltas ({@link DeltaLoader}), with a
 * random interest set that changes as the run goes: after every tick both equal the server's state
 * seen through the interest set (the model), field by field, references mapped.
 */
class ReplicationModelTest {

  static final ComponentType<?, ?>[] TYPES = {
    Sample_Traits.TYPE,
    Link_Traits.TYPE,
    Primitives_Traits.TYPE,
    Parent_Traits.TYPE,
    Slot_Traits.TYPE,
    Frozen_Traits.TYPE
  };

  @Test
  void fullAndDeltaReplicasEqualTheServerAfterEveryTick() throws IOException {
    for (long seed = 1; seed <= 12; seed++) {
      run(seed, 40);
    }
  }

  private static void run(final long seed, final int ticks) throws IOException {
    final SplittableRandom random = new SplittableRandom(seed);
    final Registry server = new Registry();
    // Low and high type ids alike: storages created in a seed-dependent order.
    final List<ComponentType<?, ?>> order = new ArrayList<>(Arrays.asList(TYPES));
    java.util.Collections.rotate(order, (int) seed);
    for (final ComponentType<?, ?> type : order) {
      server.storage(type);
    }
    final Registry fullReplica = new Registry();
    final Registry deltaReplica = new Registry();
    final ContinuousLoader full = new ContinuousLoader(fullReplica).types(TYPES);
    final DeltaLoader deltas = new DeltaLoader(deltaReplica).types(TYPES);
    final int[] phase = {0};
    final int modulus = 2 + random.nextInt(4);
    final boolean everything = 0 == seed % 4;
    final LongPredicate interest =
        everything ? e -> true : e -> (Entity.index(e) + phase[0]) % modulus != 0;
    // Primitives and Parent are written in place (replace): opted in. Slot is untracked and only
    // ever added and removed: its values travel with the add.
    // Every entity, without a predicate: the writer then compares the entity storage with its
    // copy instead of testing every entity; seeds 2 mod 4 switch from a predicate to none midway.
    final DeltaWriter writer =
        new DeltaWriter(server)
            .interest(everything ? null : interest)
            .everyValue(Primitives_Traits.TYPE, Parent_Traits.TYPE);
    LongPredicate current = interest;
    for (int tick = 0; tick < ticks; tick++) {
      if (2 == seed % 4 && tick == ticks / 2) {
        writer.interest(null);
        current = e -> true;
      }
      mutate(server, random, 30);
      if (random.nextInt(5) == 0) {
        phase[0]++;
      }
      final long[] chosen = chosen(server, current);
      final ByteArrayOutputStream snapshot = new ByteArrayOutputStream();
      new SnapshotWriter(server).types(TYPES).entities(chosen).write(snapshot);
      full.load(new ByteArrayInputStream(snapshot.toByteArray()));
      final ByteArrayOutputStream delta = new ByteArrayOutputStream();
      writer.write(delta);
      deltas.load(new ByteArrayInputStream(delta.toByteArray()));
      final String where = "seed " + seed + " tick " + tick;
      check(server, chosen, fullReplica, full::map, where + " (full)");
      check(server, chosen, deltaReplica, deltas::map, where + " (delta)");
      assertEquals(chosen.length, full.size(), where);
      assertEquals(chosen.length, deltas.size(), where);
    }
    writer.close();
  }

  static long[] chosen(final Registry server, final LongPredicate interest) {
    final long[] packed = server.entities().packed();
    final long[] out = new long[server.alive()];
    int n = 0;
    for (int i = 0; i < server.alive(); i++) {
      if (interest.test(packed[i])) {
        out[n++] = packed[i];
      }
    }
    return Arrays.copyOf(out, n);
  }

  /** Random creates, destroys (recycling identifiers), adds, removes and writes. */
  static void mutate(final Registry server, final SplittableRandom random, final int steps) {
    for (int step = 0; step < steps; step++) {
      final long[] live = Arrays.copyOf(server.entities().packed(), server.alive());
      final int action = random.nextInt(10);
      if (action == 0 || live.length < 4) {
        server.create();
        continue;
      }
      final long e = live[random.nextInt(live.length)];
      final long other =
          random.nextInt(6) == 0
              ? Entity.of(random.nextInt(64), 0)
              : live[random.nextInt(live.length)];
      switch (action) {
        case 1 -> server.destroy(e);
        case 2 -> server.emplaceOrReplace(e, Sample_Traits.TYPE, sample(random, other));
        case 3 -> server.emplaceOrReplace(e, Link_Traits.TYPE, new Link(other, random.nextInt()));
        case 4 ->
            server.emplaceOrReplace(
                e,
                Primitives_Traits.TYPE,
                new Primitives(
                    random.nextBoolean(),
                    (byte) random.nextInt(),
                    (short) random.nextInt(),
                    (char) random.nextInt(),
                    random.nextInt(),
                    random.nextLong(),
                    (float) random.nextDouble(),
                    random.nextDouble()));
        case 5 ->
            server.emplaceOrReplace(e, Parent_Traits.TYPE, new Parent(other, random.nextInt(9)));
        case 6 -> {
          // Untracked and not opted in: changed only by removing and adding again.
          server.remove(e, Slot_Traits.TYPE);
          server.emplace(
              e,
              Slot_Traits.TYPE,
              new Slot(random.nextInt(), random.nextBoolean() ? null : "s" + step));
        }
        case 7 -> {
          if (!server.has(e, Frozen_Traits.TYPE)) {
            server.emplace(e, Frozen_Traits.TYPE, new dev.phalanx.examples.components.Frozen());
          }
        }
        default -> server.remove(e, TYPES[random.nextInt(TYPES.length)]);
      }
    }
  }

  static Sample sample(final SplittableRandom random, final long target) {
    return new Sample(
        random.nextBoolean(),
        (byte) random.nextInt(),
        (short) random.nextInt(),
        (char) random.nextInt(),
        random.nextInt(),
        random.nextLong(),
        (float) random.nextDouble(),
        random.nextDouble(),
        random.nextInt(3) == 0 ? null : "n" + random.nextInt(100),
        random.nextInt(4) == 0 ? null : Sample.Mode.values()[random.nextInt(3)],
        target);
  }

  /** Mapping of server entities to a replica's. */
  interface Mapping {
    long map(long remote);
  }

  /** The replica holds exactly the chosen entities, with the server's components, refs mapped. */
  static void check(
      final Registry server,
      final long[] chosen,
      final Registry replica,
      final Mapping mapping,
      final String where) {
    assertEquals(List.of(), replica.verify(), where);
    assertEquals(List.of(), replica.danglingReferences(), where);
    final java.util.Set<Long> held = new java.util.HashSet<>();
    for (final long e : chosen) {
      held.add(e);
    }
    final Mapping refs = r -> held.contains(r) ? mapping.map(r) : Entity.NULL;
    assertEquals(chosen.length, replica.alive(), where);
    for (final long e : chosen) {
      final long mine = mapping.map(e);
      assertTrue(replica.valid(mine), where + " " + Entity.toString(e));
      for (final ComponentType<?, ?> type : TYPES) {
        assertEquals(server.has(e, type), replica.has(mine, type), where + " " + type.name());
      }
      if (server.has(e, Sample_Traits.TYPE)) {
        final Sample s = server.get(e, Sample_Traits.TYPE);
        final Sample expected =
            new Sample(
                s.flag(),
                s.tiny(),
                s.small(),
                s.letter(),
                s.count(),
                s.big(),
                s.ratio(),
                s.precise(),
                s.name(),
                s.mode(),
                refs.map(s.target()));
        assertEquals(expected, replica.get(mine, Sample_Traits.TYPE), where);
      }
      if (server.has(e, Link_Traits.TYPE)) {
        final Link l = server.get(e, Link_Traits.TYPE);
        assertEquals(
            new Link(refs.map(l.other()), l.weight()), replica.get(mine, Link_Traits.TYPE), where);
      }
      if (server.has(e, Primitives_Traits.TYPE)) {
        assertEquals(
            server.get(e, Primitives_Traits.TYPE),
            replica.get(mine, Primitives_Traits.TYPE),
            where);
      }
      if (server.has(e, Parent_Traits.TYPE)) {
        final Parent p = server.get(e, Parent_Traits.TYPE);
        assertEquals(
            new Parent(refs.map(p.entity()), p.depth()),
            replica.get(mine, Parent_Traits.TYPE),
            where);
      }
      if (server.has(e, Slot_Traits.TYPE)) {
        assertEquals(server.get(e, Slot_Traits.TYPE), replica.get(mine, Slot_Traits.TYPE), where);
      }
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Bad deltas.
  // ---------------------------------------------------------------------------------------------

  /** A fingerprint of a replica: its full snapshot's bytes. */
  static byte[] image(final Registry replica) throws IOException {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    new SnapshotWriter(replica).write(out);
    return out.toByteArray();
  }

  @Test
  void badDeltasLeaveTheReplicaUnchanged() throws IOException {
    final SplittableRandom random = new SplittableRandom(7);
    final Registry server = new Registry();
    for (final ComponentType<?, ?> type : TYPES) {
      server.storage(type);
    }
    final DeltaWriter writer =
        new DeltaWriter(server).everyValue(Primitives_Traits.TYPE, Parent_Traits.TYPE);
    final Registry replica = new Registry();
    final DeltaLoader loader = new DeltaLoader(replica).types(TYPES);
    mutate(server, random, 20);
    final int firstLength = writer.write();
    final byte[] first = Arrays.copyOf(writer.bytes(), firstLength);
    loader.load(first, first.length);
    mutate(server, random, 6);
    final int length = writer.write();
    final byte[] delta = Arrays.copyOf(writer.bytes(), length);
    final byte[] before = image(replica);
    final long tick = loader.tick();
    final int size = loader.size();
    int refused = 0;
    // Every truncation.
    for (int cut = 0; cut < delta.length; cut++) {
      final byte[] truncated = Arrays.copyOf(delta, cut);
      assertThrows(
          SnapshotFormatException.class,
          () -> loader.load(new ByteArrayInputStream(truncated)),
          "cut at " + cut);
      assertThrows(SnapshotFormatException.class, () -> loader.load(truncated, truncated.length));
      refused++;
    }
    // Every single-bit flip.
    for (int bit = 0; bit < 8 * delta.length; bit++) {
      final byte[] flipped = delta.clone();
      flipped[bit >>> 3] ^= (byte) (1 << (bit & 7));
      final SnapshotFormatException e =
          assertThrows(
              SnapshotFormatException.class,
              () -> loader.load(flipped, flipped.length),
              "bit " + bit);
      assertTrue(e.getMessage().contains("delta"), e.getMessage());
      refused++;
    }
    // A wrong base: the first delta again, and a delta of another writer.
    final SnapshotFormatException again =
        assertThrows(SnapshotFormatException.class, () -> loader.load(first, first.length));
    assertTrue(again.getMessage().contains("base"), again.getMessage());
    final DeltaWriter stranger = new DeltaWriter(server);
    stranger.write();
    final int strangerLength = stranger.write();
    final byte[] foreign = Arrays.copyOf(stranger.bytes(), strangerLength);
    final SnapshotFormatException other =
        assertThrows(SnapshotFormatException.class, () -> loader.load(foreign, foreign.length));
    assertTrue(other.getMessage().contains("another writer"), other.getMessage());
    stranger.close();
    assertTrue(refused > 8 * delta.length);
    assertArrayEquals(before, image(replica));
    assertEquals(tick, loader.tick());
    assertEquals(size, loader.size());
    assertEquals(List.of(), replica.verify());
    // The good delta still applies.
    loader.load(delta, delta.length);
    check(server, chosen(server, e -> true), replica, loader::map, "after the refusals");
    writer.close();
  }

  /**
   * A replica's listeners (construct, update and destroy on every type) that throw at their k-th
   * call, for every k: each apply still completes (the replica equals the server afterwards), the
   * first exception comes out, and verify() stays empty.
   */
  @Test
  void listenersThrowingAtTheirKthCallDoNotStopAnApply() throws IOException {
    int k = 1;
    while (true) {
      final SplittableRandom random = new SplittableRandom(3);
      final Registry server = new Registry();
      final Registry replica = new Registry();
      final int[] calls = {0};
      final int failAt = k;
      for (final ComponentType<?, ?> type : TYPES) {
        server.storage(type);
        final dev.phalanx.ecs.Storage<?> storage = replica.storage(type);
        final dev.phalanx.ecs.ComponentListener thrower =
            (r, e) -> {
              if (++calls[0] == failAt) {
                throw new IllegalStateException("listener call " + failAt);
              }
            };
        storage.onConstruct().connect(thrower);
        storage.onUpdate().connect(thrower);
        storage.onDestroy().connect(thrower);
      }
      final DeltaWriter writer =
          new DeltaWriter(server).everyValue(Primitives_Traits.TYPE, Parent_Traits.TYPE);
      final DeltaLoader loader = new DeltaLoader(replica).types(TYPES);
      boolean thrown = false;
      for (int tick = 0; tick < 4; tick++) {
        mutate(server, random, 25);
        final int length = writer.write();
        try {
          loader.load(writer.bytes(), length);
        } catch (final IllegalStateException e) {
          assertEquals("listener call " + failAt, e.getMessage());
          thrown = true;
        }
        check(server, chosen(server, e -> true), replica, loader::map, "k " + k + " tick " + tick);
      }
      writer.close();
      if (!thrown) {
        assertTrue(k > 20, "the listeners were called " + calls[0] + " times");
        return;
      }
      k++;
    }
  }
}

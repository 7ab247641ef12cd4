package dev.phalanx.ecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.AllPrimitivesStorageB;
import dev.phalanx.ecs.AllPrimitivesStorageB.Point;
import dev.phalanx.ecs.AllPrimitivesStorageB.Sample;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.EmptyStorage;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.VoidStorage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.LongPredicate;
import org.junit.jupiter.api.Test;

/**
 * A seeded random server streamed tick by tick to a replica through {@link DeltaWriter} and {@link
 * DeltaLoader}, with a column of every kind (untracked swap and in-place storages, a tracked one, a
 * tag, a void pool), under each interest mode (none, a changing predicate, a fixed set, a predicate
 * dropped midway), the server cleared and restored midway from a snapshot it saved earlier ({@link
 * SnapshotLoader}: a smaller world as a rule, some identifiers the replica holds, some it lost,
 * some with other components). The reference model is a plain map per type of what the replica must
 * hold: every live server entity the interest accepts, with its components, each {@code EntityRef}
 * the mapped replica entity or {@link Entity#NULL} when the replica lacks the target. After every
 * delta (written to an array or a stream, loaded from an array, a stream, a heap or a direct
 * buffer) the replica equals that model exactly, and {@link Registry#verify()} is empty.
 */
class DeltaReplicationModelTest {

  private static final class Tag {}

  static final ComponentType<Tag, EmptyStorage<Tag>> TAG = ComponentType.tag(Tag.class);

  static final ComponentType<Sample, AllPrimitivesStorageB<Sample>> SWAP =
      AllPrimitivesStorageB.SWAP;
  static final ComponentType<Sample, AllPrimitivesStorageB<Sample>> IN_PLACE =
      AllPrimitivesStorageB.IN_PLACE;
  static final ComponentType<Sample, AllPrimitivesStorageB<Sample>> TRACKED =
      AllPrimitivesStorageB.TRACKED;

  private static final List<ComponentType<Sample, AllPrimitivesStorageB<Sample>>> SAMPLES =
      List.of(SWAP, IN_PLACE, TRACKED);

  static final String POOL = "pool";

  /** How the writer chooses the replica's entities. */
  enum Mode {
    EVERY_ENTITY,
    CHANGING_PREDICATE,
    FIXED_SET,
    PREDICATE_DROPPED
  }

  @Test
  void everyInterestModeKeepsTheReplicaEqualToTheModel() throws IOException {
    // The effort is set for ordinary builds; each seed is a different world and mode.
    final int seeds = Integer.getInteger("phalanx.deltaModelSeeds", 16);
    for (long seed = 1; seed <= seeds; seed++) {
      final Mode mode = Mode.values()[(int) (seed % Mode.values().length)];
      run(seed, mode, 0 == seed % 2, 24);
    }
  }

  @Test
  void aWorldLargerThanTheWritersBuffersStreamsWhole() throws IOException {
    // Enough entities and elements that the writer's arrays and output grow several times.
    run(99, Mode.EVERY_ENTITY, true, 3, 3000);
  }

  private static void run(final long seed, final Mode mode, final boolean optIn, final int ticks)
      throws IOException {
    run(seed, mode, optIn, ticks, 40);
  }

  private static void run(
      final long seed, final Mode mode, final boolean optIn, final int ticks, final int initial)
      throws IOException {
    final SplittableRandom random = new SplittableRandom(seed);
    final Registry server = new Registry();
    final List<Long> live = new ArrayList<>();
    final long[] first = new long[initial];
    server.create(first);
    for (final long e : first) {
      live.add(e);
    }
    // Some storages exist before the writer, some are created after its first write.
    server.storage(SWAP);
    server.storage(TAG);
    final DeltaWriter writer =
        new DeltaWriter(server).codec(Point.class, AllPrimitivesStorageB.POINTS);
    if (optIn) {
      writer.everyValue(SWAP);
    }
    final int[] phase = {0};
    final LongPredicate changing = e -> 0 != (Entity.index(e) * 7 + phase[0]) % 3;
    final Set<Long> fixed = new HashSet<>();
    switch (mode) {
      case EVERY_ENTITY -> {}
      case CHANGING_PREDICATE, PREDICATE_DROPPED -> writer.interest(changing);
      case FIXED_SET -> {
        final long[] chosen = new long[initial / 2];
        for (int i = 0; i < chosen.length; i++) {
          chosen[i] = first[2 * i];
          fixed.add(chosen[i]);
        }
        writer.entities(chosen);
      }
    }
    final Registry replica = new Registry();
    final DeltaLoader loader =
        new DeltaLoader(replica)
            .types(SWAP, IN_PLACE, TRACKED, TAG)
            .codec(Point.class, AllPrimitivesStorageB.POINTS);
    replica.storage(POOL); // the void pool is found by its name in the replica
    boolean dropped = false;
    byte[] saved = null;
    for (int tick = 0; tick < ticks; tick++) {
      if (tick == ticks / 3) {
        saved = SnapshotAllColumnsTest.save(SnapshotAllColumnsTest.writer(server));
      } else if (tick == 2 * ticks / 3 && null != saved) {
        restore(server, saved, live);
      }
      mutate(server, random, live, optIn, tick);
      if (Mode.CHANGING_PREDICATE == mode && 0 == tick % 3) {
        phase[0]++;
      }
      if (Mode.PREDICATE_DROPPED == mode && tick == ticks / 2) {
        writer.interest(null);
        dropped = true;
      }
      final long before = loader.tick();
      send(writer, loader, random);
      assertEquals(writer.base(), loader.tick(), "seed " + seed + " tick " + tick);
      assertTrue(loader.tick() > before);
      final LongPredicate interest =
          switch (mode) {
            case EVERY_ENTITY -> e -> true;
            case CHANGING_PREDICATE -> changing;
            case FIXED_SET -> fixed::contains;
            case PREDICATE_DROPPED -> dropped ? e -> true : changing;
          };
      assertMirrors(server, interest, replica, loader, "seed " + seed + " tick " + tick);
    }
    writer.close();
    // Closed: the server's changes are no longer logged, and the replica is left as it was.
    final int sizeBefore = loader.size();
    final long e = server.create();
    server.emplace(e, TAG, null);
    assertEquals(sizeBefore, loader.size());
  }

  /** Clears the server and loads {@code saved} into it, the list of live entities following. */
  static void restore(final Registry server, final byte[] saved, final List<Long> live)
      throws IOException {
    server.clear();
    new SnapshotLoader(server)
        .types(SWAP, IN_PLACE, TRACKED, TAG)
        .codec(Point.class, AllPrimitivesStorageB.POINTS)
        .load(new ByteArrayInputStream(saved));
    live.clear();
    for (final long e : SnapshotLoader.liveEntities(server)) {
      live.add(e);
    }
  }

  /** A random batch of changes to the server. */
  static void mutate(
      final Registry server,
      final SplittableRandom random,
      final List<Long> live,
      final boolean optIn,
      final int tick) {
    final long[] targets = live.stream().mapToLong(Long::longValue).toArray();
    final int changes = random.nextInt(40);
    for (int c = 0; c < changes; c++) {
      final int roll = random.nextInt(16);
      if (roll < 2 || live.isEmpty()) {
        if (random.nextBoolean()) {
          live.add(server.create());
        } else {
          final long[] batch = new long[1 + random.nextInt(4)];
          server.create(batch);
          for (final long e : batch) {
            live.add(e);
          }
        }
        continue;
      }
      final int at = random.nextInt(live.size());
      final long e = live.get(at);
      if (roll == 2) {
        server.destroy(e);
        live.set(at, live.get(live.size() - 1));
        live.remove(live.size() - 1);
      } else if (roll <= 8) {
        final ComponentType<Sample, AllPrimitivesStorageB<Sample>> type =
            SAMPLES.get(random.nextInt(SAMPLES.size()));
        final Sample value = SnapshotAllColumnsTest.randomSample(random, targets);
        if (!server.storage(type).contains(e)) {
          server.emplace(e, type, value);
        } else if (TRACKED == type || (SWAP == type && optIn)) {
          server.replace(e, type, value);
        } else if (random.nextInt(3) == 0) {
          server.remove(e, type);
        }
      } else if (roll <= 10) {
        server.remove(e, SAMPLES.get(random.nextInt(SAMPLES.size())));
      } else if (roll == 11) {
        if (server.storage(TAG).contains(e)) {
          server.remove(e, TAG);
        } else {
          server.emplace(e, TAG, null);
        }
      } else if (roll == 12 && tick > 0) {
        final VoidStorage pool = server.storage(POOL);
        if (pool.contains(e)) {
          pool.remove(e);
        } else {
          pool.emplace(e);
        }
      } else if (roll == 13) {
        // Removed and added back within one tick: the replica gets the new value.
        final AllPrimitivesStorageB<Sample> storage = server.storage(IN_PLACE);
        if (storage.contains(e)) {
          server.remove(e, IN_PLACE);
        }
        server.emplace(e, IN_PLACE, SnapshotAllColumnsTest.randomSample(random, targets));
      } else {
        // A tracked element written again, its reference aimed at a random (maybe dead) entity.
        final AllPrimitivesStorageB<Sample> storage = server.storage(TRACKED);
        if (storage.contains(e)) {
          server.replace(e, TRACKED, SnapshotAllColumnsTest.randomSample(random, targets));
        }
      }
    }
  }

  /** Writes one delta and loads it through a randomly chosen pair of entry points. */
  private static void send(
      final DeltaWriter writer, final DeltaLoader loader, final SplittableRandom random)
      throws IOException {
    switch (random.nextInt(4)) {
      case 0 -> {
        final int length = writer.write();
        loader.load(writer.bytes(), length);
      }
      case 1 -> {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final int length = writer.write(out);
        assertEquals(out.size(), length);
        loader.load(new ByteArrayInputStream(out.toByteArray()));
      }
      case 2 -> {
        final int length = writer.write();
        // A heap buffer over a larger array, the delta in its middle.
        final byte[] wide = new byte[length + 20];
        System.arraycopy(writer.bytes(), 0, wide, 7, length);
        final ByteBuffer buffer = ByteBuffer.wrap(wide, 3, length + 10).slice();
        buffer.position(4);
        loader.load(buffer);
        assertEquals(4 + length, buffer.position());
      }
      default -> {
        final int length = writer.write();
        final ByteBuffer direct = ByteBuffer.allocateDirect(length + 8);
        direct.put(writer.bytes(), 0, length).flip();
        loader.load(direct);
        assertEquals(length, direct.position());
      }
    }
  }

  /** The model: what the replica must hold, built from the server and the interest alone. */
  static void assertMirrors(
      final Registry server,
      final LongPredicate interest,
      final Registry replica,
      final DeltaLoader loader,
      final String where) {
    final Set<Long> held = new HashSet<>();
    final long[] packed = server.entities().packed();
    for (int i = 0; i < server.alive(); i++) {
      if (interest.test(packed[i])) {
        held.add(packed[i]);
      }
    }
    assertEquals(held.size(), loader.size(), where);
    assertEquals(held.size(), replica.alive(), where);
    final Map<Long, Long> local = new HashMap<>();
    for (final long remote : held) {
      final long mapped = loader.map(remote);
      assertTrue(replica.valid(mapped), where + ": " + Entity.toString(remote));
      local.put(remote, mapped);
    }
    for (final ComponentType<Sample, AllPrimitivesStorageB<Sample>> type : SAMPLES) {
      final AllPrimitivesStorageB<Sample> theirs = server.storage(type);
      @SuppressWarnings("unchecked")
      final Storage<Sample> ours = (Storage<Sample>) replica.findStorage(type);
      int expected = 0;
      for (final long remote : held) {
        if (!theirs.contains(remote)) {
          assertTrue(null == ours || !ours.contains(local.get(remote)), where);
          continue;
        }
        expected++;
        final Sample value = theirs.get(remote);
        final Long target = local.get(value.target());
        final Sample mapped =
            new Sample(
                value.flag(),
                value.tiny(),
                value.small(),
                value.letter(),
                value.count(),
                value.big(),
                null == target ? Entity.NULL : target,
                value.ratio(),
                value.precise(),
                value.name(),
                value.mood(),
                value.point());
        assertTrue(null != ours, where);
        assertEquals(mapped, ours.get(local.get(remote)), where + " " + type);
      }
      assertEquals(expected, null == ours ? 0 : liveElements(ours), where + " " + type);
    }
    assertTagsMirror(server.storage(TAG), replica.findStorage(TAG), held, local, where);
    assertTagsMirror(server.storage(POOL), replica.storage(POOL), held, local, where);
    assertEquals(List.of(), replica.verify(), where);
  }

  private static void assertTagsMirror(
      final Storage<?> theirs,
      final Storage<?> ours,
      final Set<Long> held,
      final Map<Long, Long> local,
      final String where) {
    int expected = 0;
    for (final long remote : held) {
      final boolean has = theirs.contains(remote);
      expected += has ? 1 : 0;
      assertEquals(has, null != ours && ours.contains(local.get(remote)), where);
    }
    assertEquals(expected, null == ours ? 0 : liveElements(ours), where);
  }

  private static int liveElements(final Storage<?> storage) {
    return (int)
        Arrays.stream(storage.packed(), 0, storage.size())
            .filter(e -> !Entity.isTombstone(e))
            .count();
  }
}

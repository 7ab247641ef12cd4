package dev.phalanx.ecs.snapshot;

import static dev.phalanx.ecs.snapshot.DeltaReplicationModelTest.IN_PLACE;
import static dev.phalanx.ecs.snapshot.DeltaReplicationModelTest.POOL;
import static dev.phalanx.ecs.snapshot.DeltaReplicationModelTest.SWAP;
import static dev.phalanx.ecs.snapshot.DeltaReplicationModelTest.TAG;
import static dev.phalanx.ecs.snapshot.DeltaReplicationModelTest.TRACKED;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.AllPrimitivesStorageB;
import dev.phalanx.ecs.AllPrimitivesStorageB.Point;
import dev.phalanx.ecs.AllPrimitivesStorageB.Sample;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/**
 * Every public call of each snapshot and delta writer and loader, made from inside the user code
 * that object runs (its interest predicate, its codecs, the listeners of its registry). Documented
 * rule, per object: a call that would change the object or start another pass is refused with an
 * {@link IllegalStateException} naming the object and the call under way, before anything changed;
 * a query answers. The outer call then completes exactly as it does without the nested calls.
 */
class NestedCallsTest {

  /** The nested calls, run once from the first callback that finds it armed. */
  static final class Nested {
    private final Map<String, Callable<?>> calls = new LinkedHashMap<>();
    final Map<String, Object> outcomes = new LinkedHashMap<>();
    boolean armed;

    Nested add(final String name, final Callable<?> call) {
      calls.put(name, call);
      return this;
    }

    void fire() {
      if (!armed) {
        return;
      }
      armed = false;
      for (final Map.Entry<String, Callable<?>> call : calls.entrySet()) {
        Object outcome;
        try {
          outcome = call.getValue().call();
        } catch (final Exception | Error thrown) {
          outcome = thrown;
        }
        outcomes.put(call.getKey(), outcome);
      }
    }

    /** Checks that each call but {@code queries} was refused, naming the owner and its call. */
    void assertRefused(final String owner, final String running, final String... queries) {
      assertEquals(calls.keySet(), outcomes.keySet(), "every nested call was made");
      final List<String> answered = Arrays.asList(queries);
      for (final Map.Entry<String, Object> outcome : outcomes.entrySet()) {
        final Object value = outcome.getValue();
        if (answered.contains(outcome.getKey())) {
          assertFalse(value instanceof Throwable, outcome.getKey() + " answers: " + value);
          continue;
        }
        assertTrue(
            value instanceof IllegalStateException, outcome.getKey() + " is refused: " + value);
        final String message = ((Throwable) value).getMessage();
        assertTrue(
            message.contains("this " + owner + " is running " + running),
            outcome.getKey() + ": " + message);
      }
    }

    Object outcome(final String name) {
      return outcomes.get(name);
    }
  }

  /** {@link AllPrimitivesStorageB#POINTS}, firing {@code nested} on each value. */
  static ValueCodec<Point> points(final Nested nested) {
    return new ValueCodec<>() {
      @Override
      public void write(final Point value, final DataOutput out) throws IOException {
        nested.fire();
        AllPrimitivesStorageB.POINTS.write(value, out);
      }

      @Override
      public Point read(final DataInput in) throws IOException {
        nested.fire();
        return AllPrimitivesStorageB.POINTS.read(in);
      }
    };
  }

  private static byte[] fullSave(final Registry registry) throws IOException {
    return SnapshotAllColumnsTest.save(SnapshotAllColumnsTest.writer(registry));
  }

  // ---------------------------------------------------------------------------------------------
  // DeltaWriter: its interest predicate and its codecs.
  // ---------------------------------------------------------------------------------------------

  @Test
  void aDeltaWriterRefusesNestedCallsFromItsPredicate() throws IOException {
    deltaWriter(false, false);
    deltaWriter(false, true);
  }

  @Test
  void aDeltaWriterRefusesNestedCallsFromItsCodecs() throws IOException {
    deltaWriter(true, false);
    deltaWriter(true, true);
  }

  private static void deltaWriter(final boolean fromCodec, final boolean toStream)
      throws IOException {
    final Registry server = SnapshotAllColumnsTest.world(3, 40);
    final Nested nested = new Nested();
    final DeltaWriter writer =
        new DeltaWriter(server)
            .codec(Point.class, fromCodec ? points(nested) : AllPrimitivesStorageB.POINTS)
            .everyValue(SWAP, IN_PLACE);
    if (!fromCodec) {
      writer.interest(
          e -> {
            nested.fire();
            return true;
          });
    }
    final Registry replica = new Registry();
    final DeltaLoader loader =
        new DeltaLoader(replica)
            .types(SWAP, IN_PLACE, TRACKED, TAG)
            .codec(Point.class, AllPrimitivesStorageB.POINTS);
    replica.storage(POOL);
    LoaderWorlds.load(loader, writer);
    final byte[] previous = Arrays.copyOf(writer.bytes(), writer.bytes().length);
    final long base = writer.base();
    nested
        .add("write()", writer::write)
        .add("write(OutputStream)", () -> writer.write(new ByteArrayOutputStream()))
        .add("interest", () -> writer.interest(e -> false))
        .add("entities", () -> writer.entities())
        .add("types", () -> writer.types(SWAP))
        .add("everyValue", () -> writer.everyValue(TRACKED))
        .add("codec", () -> writer.codec(Point.class, AllPrimitivesStorageB.POINTS))
        .add(
            "close",
            () -> {
              writer.close();
              return null;
            })
        .add("base", writer::base)
        .add("bytes", () -> writer.bytes().clone()); // its contents then
    // Values written in place: sent again (every value), through the codecs.
    final long[] live = LoaderWorlds.live(server);
    final SplittableRandom random = new SplittableRandom(5);
    for (final long e : live) {
      if (server.storage(SWAP).contains(e)) {
        server.replace(e, SWAP, SnapshotAllColumnsTest.randomSample(random, live));
      }
    }
    nested.armed = true;
    final byte[] delta;
    final String running;
    if (toStream) {
      final ByteArrayOutputStream out = new ByteArrayOutputStream();
      writer.write(out);
      delta = out.toByteArray();
      running = "write(OutputStream)";
    } else {
      delta = LoaderWorlds.delta(writer);
      running = "write()";
    }
    nested.assertRefused("DeltaWriter", running, "base", "bytes");
    assertEquals(base, nested.outcome("base"), "the last base, during the write");
    assertArrayEquals(
        previous, Arrays.copyOf((byte[]) nested.outcome("bytes"), previous.length), "last bytes");
    loader.load(new ByteArrayInputStream(delta));
    DeltaReplicationModelTest.assertMirrors(server, e -> true, replica, loader, running);
    // Still streaming every storage and every entity, with its codec: nothing was changed.
    server.emplace(server.create(), SWAP, SnapshotAllColumnsTest.randomSample(random, live));
    LoaderWorlds.load(loader, writer);
    DeltaReplicationModelTest.assertMirrors(server, e -> true, replica, loader, "after");
  }

  // ---------------------------------------------------------------------------------------------
  // SnapshotWriter: its codecs.
  // ---------------------------------------------------------------------------------------------

  @Test
  void aSnapshotWriterRefusesNestedCallsFromItsCodecs() throws IOException {
    for (final boolean toChannel : new boolean[] {false, true}) {
      final Registry registry = SnapshotAllColumnsTest.world(4, 30);
      final Nested nested = new Nested();
      final SnapshotWriter writer = new SnapshotWriter(registry).codec(Point.class, points(nested));
      final long[] live = LoaderWorlds.live(registry);
      nested
          .add("write(OutputStream)", () -> writer.write(new ByteArrayOutputStream()))
          .add(
              "write(WritableByteChannel)",
              () -> writer.write(Channels.newChannel(new ByteArrayOutputStream())))
          .add("types", () -> writer.types(SWAP))
          .add("entities", () -> writer.entities(live[0]))
          .add("codec", () -> writer.codec(Point.class, AllPrimitivesStorageB.POINTS))
          .add("extra", () -> writer.extra("x", new byte[] {1}));
      nested.armed = true;
      final ByteArrayOutputStream out = new ByteArrayOutputStream();
      if (toChannel) {
        writer.write(Channels.newChannel(out));
      } else {
        writer.write(out);
      }
      nested.assertRefused(
          "SnapshotWriter", toChannel ? "write(WritableByteChannel)" : "write(OutputStream)");
      // The snapshot is the one a writer without nested calls writes, and so is the next.
      assertArrayEquals(fullSave(registry), out.toByteArray());
      final ByteArrayOutputStream again = new ByteArrayOutputStream();
      writer.write(again);
      assertArrayEquals(fullSave(registry), again.toByteArray());
    }
  }

  // ---------------------------------------------------------------------------------------------
  // SnapshotLoader: its codecs and the group enter listeners it publishes to.
  // ---------------------------------------------------------------------------------------------

  private static Nested snapshotLoaderCalls(final SnapshotLoader loader, final byte[] bytes) {
    return new Nested()
        .add("load(InputStream)", () -> loader.load(new ByteArrayInputStream(bytes)))
        .add("load(ByteBuffer)", () -> loader.load(ByteBuffer.wrap(bytes)))
        .add(
            "load(ReadableByteChannel)",
            () -> loader.load(Channels.newChannel(new ByteArrayInputStream(bytes))))
        .add("orphans", loader::orphans)
        .add("codec", () -> loader.codec(Point.class, AllPrimitivesStorageB.POINTS))
        .add("types", () -> loader.types(TAG))
        .add("alias", () -> loader.alias("no.such.Type", TAG));
  }

  @Test
  void aSnapshotLoaderRefusesNestedCallsFromItsCodecs() throws IOException {
    final byte[] bytes = fullSave(SnapshotAllColumnsTest.world(6, 30));
    final Registry target = new Registry();
    final Nested[] nested = {null};
    final SnapshotLoader loader =
        new SnapshotLoader(target).types(SWAP, IN_PLACE).codec(Point.class, points(new Nested()));
    nested[0] = snapshotLoaderCalls(loader, bytes);
    loader.codec(Point.class, points(nested[0]));
    nested[0].armed = true;
    loader.load(ByteBuffer.wrap(bytes));
    nested[0].assertRefused("SnapshotLoader", "load(...)");
    assertArrayEquals(bytes, fullSave(target));
    assertEquals(List.of(), target.verify());
  }

  @Test
  void aSnapshotLoaderRefusesNestedCallsFromItsListeners() throws IOException {
    final Registry remote = LoaderWorlds.intsAndChars(6);
    final byte[] bytes = LoaderWorlds.save(remote);
    final Registry target = new Registry();
    final SnapshotLoader loader = new SnapshotLoader(target).types(LoaderWorlds.TYPES);
    final Nested nested = snapshotLoaderCalls(loader, bytes);
    target
        .owningGroup(LoaderWorlds.INTS, LoaderWorlds.CHARS)
        .onEnter()
        .connect((r, e) -> nested.fire());
    nested.armed = true;
    loader.load(ByteBuffer.wrap(bytes));
    nested.assertRefused("SnapshotLoader", "load(...)");
    LoaderWorlds.assertSameWorld(remote, target);
    assertEquals(List.of(), target.verify());
  }

  // ---------------------------------------------------------------------------------------------
  // ContinuousLoader: its codecs and the listeners of its registry.
  // ---------------------------------------------------------------------------------------------

  private static Nested continuousLoaderCalls(final ContinuousLoader loader, final byte[] bytes) {
    return new Nested()
        .add("load(InputStream)", () -> loader.load(new ByteArrayInputStream(bytes)))
        .add("load(ByteBuffer)", () -> loader.load(ByteBuffer.wrap(bytes)))
        .add(
            "load(ReadableByteChannel)",
            () -> loader.load(Channels.newChannel(new ByteArrayInputStream(bytes))))
        .add("orphans", loader::orphans)
        .add("codec", () -> loader.codec(Point.class, AllPrimitivesStorageB.POINTS))
        .add("types", () -> loader.types(TAG))
        .add("alias", () -> loader.alias("no.such.Type", TAG))
        .add("map", () -> loader.map(Entity.NULL))
        .add("contains", () -> loader.contains(Entity.NULL))
        .add("size", loader::size);
  }

  @Test
  void aContinuousLoaderRefusesNestedCallsFromItsCodecsAndListeners() throws IOException {
    final byte[] bytes = fullSave(SnapshotAllColumnsTest.world(8, 30));
    for (final boolean fromCodec : new boolean[] {true, false}) {
      final Registry local = new Registry();
      final ContinuousLoader loader = new ContinuousLoader(local).types(SWAP, IN_PLACE);
      final Nested nested = continuousLoaderCalls(loader, bytes);
      loader.codec(Point.class, fromCodec ? points(nested) : AllPrimitivesStorageB.POINTS);
      if (!fromCodec) {
        local.storage(SWAP).onConstruct().connect((r, e) -> nested.fire());
      }
      nested.armed = true;
      loader.load(ByteBuffer.wrap(bytes));
      nested.assertRefused("ContinuousLoader", "load(...)", "map", "contains", "size");
      // The same world as a loader without nested calls makes.
      final Registry twin = new Registry();
      new ContinuousLoader(twin)
          .types(SWAP, IN_PLACE)
          .codec(Point.class, AllPrimitivesStorageB.POINTS)
          .load(ByteBuffer.wrap(bytes));
      assertArrayEquals(fullSave(twin), fullSave(local));
      assertEquals(List.of(), local.verify());
    }
  }

  // ---------------------------------------------------------------------------------------------
  // DeltaLoader: its codecs and the listeners of its registry.
  // ---------------------------------------------------------------------------------------------

  @Test
  void aDeltaLoaderRefusesNestedCallsFromItsCodecsAndListeners() throws IOException {
    final Registry server = SnapshotAllColumnsTest.world(9, 30);
    final DeltaWriter writer =
        new DeltaWriter(server).codec(Point.class, AllPrimitivesStorageB.POINTS);
    final byte[] delta = LoaderWorlds.delta(writer);
    for (final boolean fromCodec : new boolean[] {true, false}) {
      for (int entry = 0; entry < 3; entry++) {
        final Registry replica = new Registry();
        final DeltaLoader loader = new DeltaLoader(replica).types(SWAP, IN_PLACE);
        final Nested nested =
            new Nested()
                .add("load(byte[], int)", () -> load(loader, delta, 0))
                .add("load(ByteBuffer)", () -> load(loader, delta, 1))
                .add("load(InputStream)", () -> load(loader, delta, 2))
                .add("codec", () -> loader.codec(Point.class, AllPrimitivesStorageB.POINTS))
                .add("types", () -> loader.types(TAG))
                .add("tick", loader::tick)
                .add("map", () -> loader.map(Entity.NULL))
                .add("size", loader::size);
        loader.codec(Point.class, fromCodec ? points(nested) : AllPrimitivesStorageB.POINTS);
        if (!fromCodec) {
          replica.storage(SWAP).onConstruct().connect((r, e) -> nested.fire());
        }
        nested.armed = true;
        final String running = load(loader, delta, entry);
        nested.assertRefused("DeltaLoader", running, "tick", "map", "size");
        assertEquals(0L, nested.outcome("tick"), "the tick before the delta, during it");
        assertEquals(writer.base(), loader.tick());
        final Registry twin = new Registry();
        new DeltaLoader(twin)
            .types(SWAP, IN_PLACE)
            .codec(Point.class, AllPrimitivesStorageB.POINTS)
            .load(delta, delta.length);
        assertArrayEquals(fullSave(twin), fullSave(replica));
        assertEquals(List.of(), replica.verify());
      }
    }
  }

  /** Loads {@code delta} through entry point {@code entry}; returns its name. */
  private static String load(final DeltaLoader loader, final byte[] delta, final int entry)
      throws IOException {
    switch (entry) {
      case 0 -> {
        loader.load(delta, delta.length);
        return "load(byte[], int)";
      }
      case 1 -> {
        loader.load(ByteBuffer.wrap(delta));
        return "load(ByteBuffer)";
      }
      default -> {
        loader.load(new ByteArrayInputStream(delta));
        return "load(InputStream)";
      }
    }
  }

  @Test
  void aNestedCallRefusedFromAListenerIsRethrownByTheApply() throws IOException {
    final Registry server = SnapshotAllColumnsTest.world(10, 10);
    final DeltaWriter writer =
        new DeltaWriter(server).codec(Point.class, AllPrimitivesStorageB.POINTS);
    final byte[] delta = LoaderWorlds.delta(writer);
    final Registry replica = new Registry();
    final DeltaLoader loader =
        new DeltaLoader(replica)
            .types(SWAP, IN_PLACE)
            .codec(Point.class, AllPrimitivesStorageB.POINTS);
    final Object[] thrown = {null};
    replica
        .storage(SWAP)
        .onConstruct()
        .connect(
            (r, e) -> {
              if (null == thrown[0]) {
                thrown[0] = "calling";
                loader.types(TAG);
              }
            });
    final IllegalStateException refused =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalStateException.class, () -> loader.load(delta, delta.length));
    assertTrue(refused.getMessage().startsWith("cannot add types: this DeltaLoader"));
    // The apply completed: the replica holds the delta, and the loader takes the next one.
    assertEquals(writer.base(), loader.tick());
    final Registry twin = new Registry();
    new DeltaLoader(twin)
        .types(SWAP, IN_PLACE)
        .codec(Point.class, AllPrimitivesStorageB.POINTS)
        .load(delta, delta.length);
    assertArrayEquals(fullSave(twin), fullSave(replica));
    server.replace(
        LoaderWorlds.live(server)[0],
        SWAP,
        new Sample(
            true,
            (byte) 1,
            (short) 2,
            'c',
            3,
            4L,
            Entity.NULL,
            5f,
            6d,
            "s",
            null,
            new Point(7, 8)));
    LoaderWorlds.load(loader, writer);
    assertEquals(List.of(), replica.verify());
  }
}

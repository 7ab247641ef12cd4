package dev.phalanx.ecs.schedule;

import static dev.phalanx.ecs.schedule.StateWorlds.ALPHA;
import static dev.phalanx.ecs.schedule.StateWorlds.PAYLOADS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.schedule.StateWorlds.Alarm;
import dev.phalanx.ecs.schedule.StateWorlds.Dice;
import dev.phalanx.ecs.schedule.StateWorlds.Payload;
import dev.phalanx.ecs.schedule.StateWorlds.Score;
import dev.phalanx.ecs.snapshot.SnapshotFormatException;
import dev.phalanx.ecs.snapshot.SnapshotLoader;
import dev.phalanx.ecs.snapshot.SnapshotWriter;
import dev.phalanx.ecs.snapshot.ValueCodec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * {@link ScheduleState}: a server saved with its schedule's state and restored into a new registry
 * and schedule runs on identically; every refusal leaves the schedule and its resources exactly as
 * they were.
 */
class ScheduleStateTest {

  private static final int BEFORE = 7;
  private static final int AFTER = 12;

  /** A world and its schedule, and the frame numbers its last system saw. */
  private record Server(Registry registry, Schedule schedule, List<Long> frames) {
    static Server fresh() {
      final Registry registry = StateWorlds.world();
      final List<Long> frames = new ArrayList<>();
      return new Server(registry, StateWorlds.schedule(registry, frames), frames);
    }

    static Server empty() {
      final Registry registry = new Registry();
      final List<Long> frames = new ArrayList<>();
      return new Server(registry, StateWorlds.schedule(registry, frames), frames);
    }

    void run(final int from, final int count, final List<Long> checksums) {
      for (int i = from; i < from + count; i++) {
        schedule.run(StateWorlds.elapsed(i));
        checksums.add(StateWorlds.checksum(registry));
      }
    }
  }

  private static byte[] save(final Server server) throws IOException {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    StateWorlds.state(server.schedule())
        .writeTo(new SnapshotWriter(server.registry()).codec(Payload.class, PAYLOADS))
        .write(out);
    return out.toByteArray();
  }

  private static Map<String, byte[]> loadWorld(final Server target, final byte[] snapshot)
      throws IOException {
    return new SnapshotLoader(target.registry())
        .codec(Payload.class, PAYLOADS)
        .types(ALPHA)
        .load(ByteBuffer.wrap(snapshot));
  }

  @Test
  void aRestoredServerRunsOnIdentically() throws IOException {
    final Server original = Server.fresh();
    original.run(0, BEFORE, new ArrayList<>());
    final byte[] snapshot = save(original);
    original.frames().clear();
    final List<Long> expected = new ArrayList<>();
    original.run(BEFORE, AFTER, expected);

    final Server restored = Server.empty();
    StateWorlds.state(restored.schedule()).restore(loadWorld(restored, snapshot));
    assertEquals(BEFORE, restored.schedule().frame());
    final List<Long> actual = new ArrayList<>();
    restored.run(BEFORE, AFTER, actual);

    assertEquals(expected, actual, "checksum per frame");
    assertEquals(original.frames(), restored.frames(), "context.frame() per frame");
    assertEquals(BEFORE, restored.frames().get(0));
    assertEquals(original.schedule().frame(), restored.schedule().frame());
    assertEquals(List.of(), restored.registry().verify());
  }

  /** The test above would see a restore that missed any part of the state: each one matters. */
  @Test
  void eachPartOfTheStateMatters() throws IOException {
    final Server original = Server.fresh();
    original.run(0, BEFORE, new ArrayList<>());
    final byte[] snapshot = save(original);
    final List<Long> expected = new ArrayList<>();
    original.run(BEFORE, AFTER, expected);
    final Map<String, byte[]> blocks = loadWorldInto(Server.empty(), snapshot);

    // Without the fixed stage's carried time, or the frame counter, or a resource: another run.
    final Map<String, byte[]> noCarry = new HashMap<>(blocks);
    final byte[] zeroCarry = blocks.get(ScheduleState.SCHEDULE_ENTRY).clone();
    assertNotEquals(0, ByteBuffer.wrap(zeroCarry).getLong(zeroCarry.length - 8), "time carried");
    ByteBuffer.wrap(zeroCarry).putLong(zeroCarry.length - 8, 0);
    noCarry.put(ScheduleState.SCHEDULE_ENTRY, zeroCarry);
    assertNotEquals(expected, restoredRun(snapshot, noCarry));
    final Map<String, byte[]> otherFrame = new HashMap<>(blocks);
    otherFrame.put(
        ScheduleState.SCHEDULE_ENTRY, withFrame(blocks.get(ScheduleState.SCHEDULE_ENTRY), 0));
    assertNotEquals(expected, restoredRun(snapshot, otherFrame));
    final Server probe = Server.fresh();
    probe.run(0, 1, new ArrayList<>());
    final Map<String, byte[]> otherDice = new HashMap<>(blocks);
    otherDice.put(
        ScheduleState.RESOURCE_PREFIX + Dice.class.getName(),
        ScheduleState.of(probe.schedule())
            .resource(Dice.class, StateWorlds.DICE)
            .save()
            .get(ScheduleState.RESOURCE_PREFIX + Dice.class.getName()));
    assertNotEquals(expected, restoredRun(snapshot, otherDice));
    assertEquals(expected, restoredRun(snapshot, blocks));
  }

  private static Map<String, byte[]> loadWorldInto(final Server target, final byte[] snapshot)
      throws IOException {
    return new HashMap<>(loadWorld(target, snapshot));
  }

  private static List<Long> restoredRun(final byte[] snapshot, final Map<String, byte[]> blocks)
      throws IOException {
    final Server restored = Server.empty();
    loadWorld(restored, snapshot);
    StateWorlds.state(restored.schedule()).restore(blocks);
    final List<Long> checksums = new ArrayList<>();
    restored.run(BEFORE, AFTER, checksums);
    return checksums;
  }

  /** {@return the schedule block with its frame counter (bytes 1 to 8) set to {@code frame}} */
  private static byte[] withFrame(final byte[] block, final long frame) {
    final byte[] copy = block.clone();
    ByteBuffer.wrap(copy).putLong(1, frame);
    return copy;
  }

  @Test
  void theBlocksAreNamedAndTheAbsentResourceIsRemoved() throws IOException {
    final Server server = Server.fresh();
    final ScheduleState state = StateWorlds.state(server.schedule());
    assertEquals(
        List.of(
            "phalanx.schedule",
            "phalanx.resource:" + Dice.class.getName(),
            "phalanx.resource:score",
            "phalanx.resource:" + Alarm.class.getName()),
        state.entries());
    assertEquals(state.entries(), List.copyOf(state.save().keySet()));
    // Saved without the alarm, restored where one is held: it is removed.
    final Map<String, byte[]> saved = state.save();
    server.registry().context().emplace(Alarm.class, new Alarm(3));
    final Dice dice = server.registry().context().get(Dice.class);
    state.restore(saved);
    assertFalse(server.registry().context().contains(Alarm.class));
    assertNotSame(dice, server.registry().context().get(Dice.class), "a new object");
    assertEquals(dice.state, server.registry().context().get(Dice.class).state);
  }

  // ---------------------------------------------------------------------------------------------
  // Refusals: each leaves the schedule and its resources exactly as they were.
  // ---------------------------------------------------------------------------------------------

  /** What restore may change, to compare before and after a refusal. */
  record Observed(long frame, long[] carried, List<Object> resources) {
    static Observed of(final Schedule schedule) {
      final Schedule.Stage[] stages = schedule.stageList();
      final long[] carried = new long[stages.length];
      for (int s = 0; s < stages.length; s++) {
        carried[s] = stages[s].accumulated;
      }
      final List<Object> resources = new ArrayList<>();
      for (final Class<?> type : List.of(Dice.class, Score.class, Alarm.class)) {
        resources.add(schedule.registry().context().find(type));
      }
      return new Observed(schedule.frame(), carried, resources);
    }

    void assertSame(final Observed after, final String what) {
      assertEquals(frame, after.frame, what + ": frame");
      assertArrayEquals(carried, after.carried, what + ": carried time");
      for (int i = 0; i < resources.size(); i++) {
        org.junit.jupiter.api.Assertions.assertSame(
            resources.get(i), after.resources.get(i), what + ": resource " + i);
      }
    }
  }

  /** A server a few frames in, with the alarm held, and the blocks of another server. */
  private static Server busyServer() {
    final Server server = Server.fresh();
    server.run(0, 4, new ArrayList<>());
    server.registry().context().insertOrAssign(Alarm.class, new Alarm(1));
    return server;
  }

  private static Map<String, byte[]> otherBlocks() throws IOException {
    final Server other = Server.fresh();
    other.run(0, 9, new ArrayList<>());
    return new HashMap<>(StateWorlds.state(other.schedule()).save());
  }

  private static SnapshotFormatException refused(
      final Consumer<Map<String, byte[]>> spoil, final String... words) throws IOException {
    final Server server = busyServer();
    final Map<String, byte[]> blocks = otherBlocks();
    spoil.accept(blocks);
    final Observed before = Observed.of(server.schedule());
    final SnapshotFormatException thrown =
        assertThrows(
            SnapshotFormatException.class,
            () -> StateWorlds.state(server.schedule()).restore(blocks));
    before.assertSame(Observed.of(server.schedule()), thrown.getMessage());
    for (final String word : words) {
      assertTrue(thrown.getMessage().contains(word), thrown.getMessage() + " names " + word);
    }
    assertTrue(thrown.getMessage().contains("nothing was restored"), thrown.getMessage());
    return thrown;
  }

  private static String dice() {
    return ScheduleState.RESOURCE_PREFIX + Dice.class.getName();
  }

  @Test
  void aMissingBlockIsRefused() throws IOException {
    refused(b -> b.remove(ScheduleState.SCHEDULE_ENTRY), "phalanx.schedule", "frame counter");
    refused(b -> b.remove(dice()), Dice.class.getName(), "has no block");
    refused(b -> b.remove(ScheduleState.RESOURCE_PREFIX + "score"), Score.class.getName(), "score");
  }

  @Test
  void aMalformedScheduleBlockIsRefused() throws IOException {
    final String entry = ScheduleState.SCHEDULE_ENTRY;
    refused(b -> b.get(entry)[0] = 2, "layout version 2");
    refused(b -> b.put(entry, Arrays.copyOf(b.get(entry), 5)), "ends early");
    refused(
        b -> b.put(entry, Arrays.copyOf(b.get(entry), b.get(entry).length + 1)), "past its end");
    refused(b -> b.put(entry, withFrame(b.get(entry), -3)), "negative frame counter");
    refused(b -> b.put(entry, new byte[0]), "ends early");
    // The carried time is the last 8 bytes: out of [0, step).
    refused(
        b -> {
          final byte[] block = b.get(entry);
          ByteBuffer.wrap(block).putLong(block.length - 8, StateWorlds.STEP);
        },
        "physics",
        "carrying");
  }

  @Test
  void aBlockOfAScheduleBuiltOtherwiseIsRefused() throws IOException {
    final Registry registry = StateWorlds.world();
    final Schedule other =
        Schedule.builder(registry).fixedStage("physics", StateWorlds.STEP * 2, 3).build();
    final byte[] block = ScheduleState.of(other).save().get(ScheduleState.SCHEDULE_ENTRY);
    refused(b -> b.put(ScheduleState.SCHEDULE_ENTRY, block), "built the same way", "physics");
    final Schedule none = Schedule.builder(registry).build();
    final byte[] plain = ScheduleState.of(none).save().get(ScheduleState.SCHEDULE_ENTRY);
    refused(b -> b.put(ScheduleState.SCHEDULE_ENTRY, plain), "fixed-timestep stages []");
  }

  @Test
  void aMalformedResourceBlockIsRefused() throws IOException {
    refused(b -> b.get(dice())[0] = 9, Dice.class.getName(), "layout version 9");
    refused(b -> b.get(dice())[1] = 7, Dice.class.getName(), "presence flag 7");
    refused(b -> b.put(dice(), new byte[] {1}), Dice.class.getName(), "ends early");
    refused(b -> b.put(dice(), new byte[] {1, 0, 5}), Dice.class.getName(), "saved absent");
    // Too short for its codec, and too long: a codec must read exactly what it wrote.
    refused(
        b -> b.put(dice(), Arrays.copyOf(b.get(dice()), 6)),
        Dice.class.getName(),
        "codec of resource",
        "EOFException");
    refused(
        b -> b.put(dice(), Arrays.copyOf(b.get(dice()), 12)),
        Dice.class.getName(),
        "read 10 of its 12 bytes");
  }

  @Test
  void anUndeclaredResourceBlockIsRefused() throws IOException {
    refused(
        b -> b.put(ScheduleState.RESOURCE_PREFIX + "weather", new byte[] {1, 0}),
        "'phalanx.resource:weather'",
        "does not declare");
  }

  @Test
  void aCodecThatThrowsOrReturnsNoValueIsRefused() throws IOException {
    final Server server = busyServer();
    final Map<String, byte[]> blocks = otherBlocks();
    final Observed before = Observed.of(server.schedule());
    for (final ValueCodec<Dice> codec :
        List.of(
            codec(in -> null),
            codec(
                in -> {
                  throw new IllegalStateException("broken codec");
                }),
            codec(
                in -> {
                  in.readLong();
                  throw new IOException("bad dice");
                }))) {
      final ScheduleState state =
          ScheduleState.of(server.schedule())
              .resource(Dice.class, codec)
              .resource(Score.class, "score", StateWorlds.SCORES)
              .resource(Alarm.class, StateWorlds.ALARMS);
      final SnapshotFormatException thrown =
          assertThrows(SnapshotFormatException.class, () -> state.restore(blocks));
      assertTrue(thrown.getMessage().contains(Dice.class.getName()), thrown.getMessage());
      before.assertSame(Observed.of(server.schedule()), thrown.getMessage());
    }
  }

  /** A codec returning another class than the resource's (through an unchecked cast) is refused. */
  @Test
  @SuppressWarnings({"unchecked", "rawtypes"})
  void aCodecReturningAnotherClassIsRefused() throws IOException {
    final Server server = busyServer();
    final Map<String, byte[]> blocks = otherBlocks();
    final Observed before = Observed.of(server.schedule());
    final ValueCodec raw = codec(in -> new Dice(in.readLong()));
    final ScheduleState state =
        ScheduleState.of(server.schedule())
            .resource(Dice.class, StateWorlds.DICE)
            .resource(Score.class, "score", (ValueCodec<Score>) raw)
            .resource(Alarm.class, StateWorlds.ALARMS);
    final SnapshotFormatException thrown =
        assertThrows(SnapshotFormatException.class, () -> state.restore(blocks));
    assertTrue(thrown.getMessage().contains("not a " + Score.class.getName()), thrown.getMessage());
    before.assertSame(Observed.of(server.schedule()), thrown.getMessage());
  }

  /** Reads with {@code read}; writes what {@link StateWorlds#DICE} writes. */
  private interface Reader {
    Dice read(DataInput in) throws IOException;
  }

  private static ValueCodec<Dice> codec(final Reader reader) {
    return new ValueCodec<>() {
      @Override
      public void write(final Dice value, final DataOutput out) throws IOException {
        out.writeLong(value.state);
      }

      @Override
      public Dice read(final DataInput in) throws IOException {
        return reader.read(in);
      }
    };
  }

  @Test
  void restoringOrSavingWhileAFrameRunsIsRefused() throws IOException {
    final Registry registry = StateWorlds.world();
    final Map<String, byte[]> blocks = otherBlocks();
    final List<RuntimeException> thrown = new ArrayList<>();
    final ScheduleState[] state = new ScheduleState[1];
    final ScheduleBuilder plan =
        Schedule.builder(registry).fixedStage("physics", StateWorlds.STEP, 3);
    plan.system(
            "saver",
            context -> {
              try {
                state[0].restore(blocks);
              } catch (final RuntimeException | SnapshotFormatException e) {
                thrown.add(e instanceof RuntimeException r ? r : new RuntimeException(e));
              }
              try {
                state[0].save();
              } catch (final RuntimeException | IOException e) {
                thrown.add(e instanceof RuntimeException r ? r : new RuntimeException(e));
              }
            })
        .exclusive();
    final Schedule schedule = plan.build();
    state[0] = ScheduleState.of(schedule).resource(Dice.class, StateWorlds.DICE);
    schedule.run(StateWorlds.STEP + 5);
    final Dice dice = registry.context().get(Dice.class);
    schedule.run(0);
    assertSame(dice, registry.context().get(Dice.class), "nothing restored");
    assertEquals(5, schedule.stageList()[3].accumulated, "nothing restored");
    assertEquals(4, thrown.size());
    for (final RuntimeException e : thrown) {
      assertTrue(e instanceof IllegalStateException, e.toString());
      assertTrue(e.getMessage().contains("running a frame"), e.getMessage());
    }
    assertEquals(2, schedule.frame(), "nothing restored");
  }

  @Test
  void restoringOrSavingInsideASteppedFrameIsRefused() throws IOException {
    final Server server = busyServer();
    final Map<String, byte[]> blocks = otherBlocks();
    final ScheduleState state = StateWorlds.state(server.schedule());
    server.schedule().stepSystem();
    server.schedule().run();
    final Observed before = Observed.of(server.schedule());
    final IllegalStateException restore =
        assertThrows(IllegalStateException.class, () -> state.restore(blocks));
    assertTrue(restore.getMessage().contains("inside frame 4"), restore.getMessage());
    assertThrows(IllegalStateException.class, state::save);
    before.assertSame(Observed.of(server.schedule()), "inside a frame");
    // Paused between whole frames: allowed.
    server.schedule().stepFrame();
    server.schedule().run();
    assertTrue(server.schedule().isPaused());
    state.restore(blocks);
    assertEquals(9, server.schedule().frame());
  }

  @Test
  void aCodecThatCallsBackIsRefused() throws IOException {
    final Server server = busyServer();
    final ScheduleState[] state = new ScheduleState[1];
    final List<Exception> inner = new ArrayList<>();
    state[0] =
        ScheduleState.of(server.schedule())
            .resource(
                Dice.class,
                codec(
                    in -> {
                      try {
                        state[0].save();
                      } catch (final IllegalStateException | IOException e) {
                        inner.add(e);
                      }
                      return new Dice(in.readLong());
                    }));
    final Map<String, byte[]> blocks = state[0].save();
    state[0].restore(blocks);
    assertEquals(1, inner.size());
    assertTrue(inner.get(0).getMessage().contains("a codec called save()"), inner.toString());
  }

  @Test
  void declaringAResourceTwiceIsRefused() {
    final ScheduleState state =
        ScheduleState.of(Server.fresh().schedule()).resource(Dice.class, "dice", StateWorlds.DICE);
    final IllegalArgumentException sameType =
        assertThrows(
            IllegalArgumentException.class, () -> state.resource(Dice.class, StateWorlds.DICE));
    assertTrue(sameType.getMessage().contains("declared already"), sameType.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> state.resource(Score.class, "dice", StateWorlds.SCORES));
    assertThrows(
        IllegalArgumentException.class, () -> state.resource(Score.class, "", StateWorlds.SCORES));
    assertEquals(2, state.entries().size());
  }

  @Test
  void aCodecThatFailsToWriteLeavesTheWriterAsItWas() throws IOException {
    final Server server = busyServer();
    final ValueCodec<Score> failing =
        new ValueCodec<>() {
          @Override
          public void write(final Score value, final DataOutput out) throws IOException {
            throw new IOException("disk full");
          }

          @Override
          public Score read(final DataInput in) {
            throw new UnsupportedOperationException();
          }
        };
    final ScheduleState state =
        ScheduleState.of(server.schedule())
            .resource(Dice.class, StateWorlds.DICE)
            .resource(Score.class, failing);
    final SnapshotWriter writer =
        new SnapshotWriter(server.registry()).codec(Payload.class, PAYLOADS);
    final IOException thrown = assertThrows(IOException.class, () -> state.writeTo(writer));
    assertTrue(thrown.getMessage().contains(Score.class.getName()), thrown.getMessage());
    assertEquals("disk full", thrown.getCause().getMessage());
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    writer.write(out);
    final Map<String, byte[]> extras =
        new SnapshotLoader(new Registry())
            .codec(Payload.class, PAYLOADS)
            .types(ALPHA)
            .load(new ByteArrayInputStream(out.toByteArray()));
    assertEquals(Map.of(), extras, "no block reached the writer");
    assertNull(extras.get(ScheduleState.SCHEDULE_ENTRY));
  }
}

package dev.phalanx.ecs.schedule;

import static dev.phalanx.ecs.schedule.StateWorlds.ALPHA;
import static dev.phalanx.ecs.schedule.StateWorlds.PAYLOADS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
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
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Codecs that throw at every k-th call, alternately an {@link IOException} and a runtime exception:
 * each failed restore leaves the schedule and its resources exactly as they were, each failed save
 * leaves the snapshot writer as it was, and the restore that finally succeeds runs on identically.
 */
class ScheduleStateFaultInjectionTest {

  /**
   * Counts the calls of every codec built from it; the k-th, 2k-th, ... call throws, up to {@link
   * #MOST} faults (so that a restore gets through in the end).
   */
  private static final class Faults {
    static final int MOST = 3;
    final int every;
    int calls;
    int thrown;

    Faults(final int every) {
      this.every = every;
    }

    void call() throws IOException {
      if (++calls % every == 0 && thrown < MOST) {
        thrown++;
        if (thrown % 2 == 0) {
          throw new IllegalStateException("injected fault " + thrown);
        }
        throw new IOException("injected fault " + thrown);
      }
    }

    <T> ValueCodec<T> around(final ValueCodec<T> codec) {
      return new ValueCodec<>() {
        @Override
        public void write(final T value, final DataOutput out) throws IOException {
          call();
          codec.write(value, out);
        }

        @Override
        public T read(final DataInput in) throws IOException {
          call();
          return codec.read(in);
        }
      };
    }
  }

  private static ScheduleState faulty(final Schedule schedule, final Faults faults) {
    return ScheduleState.of(schedule)
        .resource(Dice.class, faults.around(StateWorlds.DICE))
        .resource(Score.class, "score", faults.around(StateWorlds.SCORES))
        .resource(Alarm.class, faults.around(StateWorlds.ALARMS));
  }

  /** What restore may change: the frame, the carried time, the resources' identities. */
  private record Observed(long frame, long[] carried, List<Object> resources) {
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

    void assertUnchanged(final Observed after, final String what) {
      assertEquals(frame, after.frame, what);
      assertArrayEquals(carried, after.carried, what);
      for (int i = 0; i < resources.size(); i++) {
        assertSame(resources.get(i), after.resources.get(i), what);
      }
    }
  }

  @Test
  void aRestoreThatFailsAtAnyCallChangesNothing() throws IOException {
    final int before = 6;
    final int after = 8;
    // Saved at a frame where the alarm is held, so that every codec is called.
    final Registry registry = StateWorlds.world();
    final Schedule original = StateWorlds.schedule(registry, new ArrayList<>());
    for (int i = 0; i < before; i++) {
      original.run(StateWorlds.elapsed(i));
    }
    registry.context().insertOrAssign(Alarm.class, new Alarm(5));
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    StateWorlds.state(original)
        .writeTo(new SnapshotWriter(registry).codec(Payload.class, PAYLOADS))
        .write(out);
    final List<Long> expected = new ArrayList<>();
    for (int i = before; i < before + after; i++) {
      original.run(StateWorlds.elapsed(i));
      expected.add(StateWorlds.checksum(registry));
    }

    for (int every = 1; every <= 3; every++) {
      final Registry target = new Registry();
      final Map<String, byte[]> extras =
          new SnapshotLoader(target)
              .codec(Payload.class, PAYLOADS)
              .types(ALPHA)
              .load(ByteBuffer.wrap(out.toByteArray()));
      final Schedule schedule = StateWorlds.schedule(target, new ArrayList<>());
      // A target holding resources of its own: a failure must leave them, and frame 0.
      target.context().emplace(Dice.class, new Dice(-1));
      target.context().emplace(Alarm.class, new Alarm(-1));
      final Faults faults = new Faults(every);
      final ScheduleState state = faulty(schedule, faults);
      int failures = 0;
      boolean restored = false;
      while (!restored) {
        final Observed seen = Observed.of(schedule);
        try {
          state.restore(extras);
          restored = true;
        } catch (final SnapshotFormatException refused) {
          failures++;
          final String message = refused.getMessage();
          assertTrue(message.contains("injected fault"), message);
          assertTrue(message.contains("codec of resource"), message);
          assertTrue(message.contains("nothing was restored"), message);
          seen.assertUnchanged(Observed.of(schedule), "every " + every + ": " + message);
        }
        assertTrue(failures < 10, "every " + every + ": the restore never got through");
      }
      assertEquals(faults.thrown, failures, "every " + every + ": one refusal per fault");
      assertTrue(failures > 0, "every " + every + ": a fault was injected");
      assertEquals(before, schedule.frame(), "every " + every);
      assertEquals(5, target.context().get(Alarm.class).level, "every " + every);
      final List<Long> actual = new ArrayList<>();
      for (int i = before; i < before + after; i++) {
        schedule.run(StateWorlds.elapsed(i));
        actual.add(StateWorlds.checksum(target));
      }
      assertEquals(expected, actual, "every " + every + ": the frames after the restore");
    }
  }

  @Test
  void aSaveThatFailsAtAnyCallLeavesTheWriterAsItWas() throws IOException {
    for (int every = 1; every <= 4; every++) {
      final Registry registry = StateWorlds.world();
      registry.context().emplace(Alarm.class, new Alarm(2));
      final Schedule schedule = StateWorlds.schedule(registry, new ArrayList<>());
      final SnapshotWriter writer = new SnapshotWriter(registry).codec(Payload.class, PAYLOADS);
      final Faults faults = new Faults(every);
      final ScheduleState state = faulty(schedule, faults);
      Map<String, byte[]> written = null;
      for (int frame = 0; frame < 6; frame++) {
        schedule.run(StateWorlds.elapsed(frame));
        try {
          state.writeTo(writer);
          written = StateWorlds.state(schedule).save();
        } catch (final IOException failed) {
          assertTrue(failed.getMessage().contains("injected fault"), failed.getMessage());
          assertTrue(failed.getMessage().contains("failed to write"), failed.getMessage());
          assertTrue(failed.getMessage().contains("nothing was saved"), failed.getMessage());
        }
        // The writer holds the blocks of the last save that got through, whole, or none.
        final Map<String, byte[]> held = heldBlocks(writer);
        if (null == written) {
          assertEquals(Map.of(), held, "every " + every + ", frame " + frame);
        } else {
          assertEquals(written.keySet(), held.keySet(), "every " + every + ", frame " + frame);
          for (final String name : written.keySet()) {
            assertArrayEquals(written.get(name), held.get(name), name);
          }
        }
      }
      assertTrue(faults.thrown > 0, "every " + every + ": a fault was injected");
    }
  }

  private static Map<String, byte[]> heldBlocks(final SnapshotWriter writer) throws IOException {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    writer.write(out);
    return new SnapshotLoader(new Registry())
        .codec(Payload.class, PAYLOADS)
        .types(ALPHA)
        .load(ByteBuffer.wrap(out.toByteArray()));
  }
}

package dev.phalanx.ecs.schedule;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.ObjectStorage;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.snapshot.ValueCodec;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A small game server for the {@link ScheduleState} tests: a world of payloads, three saveable
 * resources (a random generator, a score, a flag that comes and goes), systems that use them, the
 * frame number and a fixed-timestep stage, so that a restore that missed any of it would diverge.
 */
final class StateWorlds {

  private StateWorlds() {}

  /** The world's one component: a mutable number, in an object storage. */
  static final class Payload {
    int value;

    Payload(final int value) {
      this.value = value;
    }
  }

  static final ComponentType<Payload, ObjectStorage<Payload>> ALPHA =
      ComponentType.object(Payload.class);

  static final long STEP = TimeUnit.MILLISECONDS.toNanos(20);

  /** A random generator resource: its state must survive for the frames after to match. */
  static final class Dice {
    long state;

    Dice(final long state) {
      this.state = state;
    }

    int roll() {
      state = state * 6364136223846793005L + 1442695040888963407L;
      return (int) (state >>> 33);
    }
  }

  /** A score resource, written by the fixed-timestep stage. */
  static final class Score {
    long total;
    int steps;
  }

  /** A resource present in some frames only. */
  static final class Alarm {
    final int level;

    Alarm(final int level) {
      this.level = level;
    }
  }

  static final ValueCodec<Payload> PAYLOADS =
      new ValueCodec<>() {
        @Override
        public void write(final Payload value, final DataOutput out) throws IOException {
          out.writeInt(value.value);
        }

        @Override
        public Payload read(final DataInput in) throws IOException {
          return new Payload(in.readInt());
        }
      };

  static final ValueCodec<Dice> DICE =
      new ValueCodec<>() {
        @Override
        public void write(final Dice value, final DataOutput out) throws IOException {
          out.writeLong(value.state);
        }

        @Override
        public Dice read(final DataInput in) throws IOException {
          return new Dice(in.readLong());
        }
      };

  static final ValueCodec<Score> SCORES =
      new ValueCodec<>() {
        @Override
        public void write(final Score value, final DataOutput out) throws IOException {
          out.writeLong(value.total);
          out.writeInt(value.steps);
        }

        @Override
        public Score read(final DataInput in) throws IOException {
          final Score score = new Score();
          score.total = in.readLong();
          score.steps = in.readInt();
          return score;
        }
      };

  static final ValueCodec<Alarm> ALARMS =
      new ValueCodec<>() {
        @Override
        public void write(final Alarm value, final DataOutput out) throws IOException {
          out.writeInt(value.level);
        }

        @Override
        public Alarm read(final DataInput in) throws IOException {
          return new Alarm(in.readInt());
        }
      };

  /** {@return a registry with the starting world and resources} */
  static Registry world() {
    final Registry registry = new Registry();
    for (int i = 0; i < 20; i++) {
      registry.emplace(registry.create(), ALPHA, new Payload(i));
    }
    registry.context().emplace(Dice.class, new Dice(42));
    registry.context().emplace(Score.class, new Score());
    return registry;
  }

  /**
   * {@return the schedule of the server}; {@code frames} receives the frame number each frame's
   * last system sees
   */
  static Schedule schedule(final Registry registry, final List<Long> frames) {
    final ScheduleBuilder plan = Schedule.builder(registry).fixedStage("physics", STEP, 3);
    plan.system(
            "spawn",
            context -> {
              final int roll = context.resource(Dice.class).roll();
              if ((roll & 3) != 0) {
                final long created = context.commands().create();
                context
                    .commands()
                    .emplace(created, ALPHA, new Payload((roll & 0xFF) + (int) context.frame()));
              }
            })
        .writesResource(Dice.class);
    plan.system(
            "grow",
            context ->
                context
                    .registry()
                    .view(ALPHA)
                    .each(
                        entity -> {
                          final Payload payload = context.registry().get(entity, ALPHA);
                          payload.value = (int) ((payload.value * 31L + context.frame()) & 0xFFFF);
                        }))
        .writes(ALPHA)
        .iterates(ALPHA);
    plan.system(
            "integrate",
            context -> {
              final Score score = context.resource(Score.class);
              score.total = score.total * 7 + context.frame() * 3 + context.step() + 1;
              score.steps++;
            })
        .in("physics")
        .writesResource(Score.class);
    plan.system(
            "cull",
            context -> {
              final int roll = context.resource(Dice.class).roll();
              context
                  .registry()
                  .view(ALPHA)
                  .each(
                      entity -> {
                        if ((context.registry().get(entity, ALPHA).value + roll) % 5 == 0) {
                          context.commands().destroy(entity);
                        }
                      });
            })
        .in(Schedule.POST_UPDATE)
        .reads(ALPHA)
        .iterates(ALPHA)
        .writesResource(Dice.class);
    plan.system(
            "alarm",
            context -> {
              // The alarm comes and goes: saved absent in some frames, present in others.
              if (context.frame() % 3 == 0) {
                context
                    .commands()
                    .queue(r -> r.context().insertOrAssign(Alarm.class, new Alarm(7)));
              } else if (context.frame() % 3 == 1) {
                context.commands().queue(r -> r.context().erase(Alarm.class));
              }
              frames.add(context.frame());
            })
        .in(Schedule.POST_UPDATE)
        .after("cull");
    return plan.build();
  }

  /** {@return a state declaring the server's three resources} */
  static ScheduleState state(final Schedule schedule) {
    return ScheduleState.of(schedule)
        .resource(Dice.class, DICE)
        .resource(Score.class, "score", SCORES)
        .resource(Alarm.class, ALARMS);
  }

  /** {@return the time given to frame {@code i}: it varies, so the fixed stage carries time} */
  static long elapsed(final int i) {
    return TimeUnit.MILLISECONDS.toNanos((i * 7919L) % 53);
  }

  /** {@return a checksum of the world and the resources} */
  static long checksum(final Registry registry) {
    long hash = registry.alive();
    final ObjectStorage<Payload> storage = registry.storage(ALPHA);
    hash = hash * 31 + storage.size();
    for (int position = 0; position < storage.size(); position++) {
      final long entity = storage.at(position);
      hash = hash * 1_000_003L + entity * 17 + storage.get(entity).value;
    }
    final Dice dice = registry.context().find(Dice.class);
    final Score score = registry.context().find(Score.class);
    final Alarm alarm = registry.context().find(Alarm.class);
    hash = hash * 31 + (null == dice ? -1 : dice.state);
    hash = hash * 31 + (null == score ? -1 : score.total * 13 + score.steps);
    return hash * 31 + (null == alarm ? -1 : alarm.level);
  }
}

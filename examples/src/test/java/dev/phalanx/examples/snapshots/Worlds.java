package dev.phalanx.examples.snapshots;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import dev.phalanx.ecs.snapshot.ContinuousLoader;
import dev.phalanx.ecs.snapshot.SnapshotLoader;
import dev.phalanx.ecs.snapshot.SnapshotWriter;
import dev.phalanx.ecs.snapshot.ValueCodec;
import dev.phalanx.examples.components.Frozen_Traits;
import dev.phalanx.examples.components.Label;
import dev.phalanx.examples.components.Label_Traits;
import dev.phalanx.examples.components.Parent_Traits;
import dev.phalanx.examples.components.Position_Traits;
import dev.phalanx.examples.components.Primitives;
import dev.phalanx.examples.components.Primitives_Traits;
import dev.phalanx.examples.components.Slot;
import dev.phalanx.examples.components.Slot_Traits;
import dev.phalanx.examples.components.Token;
import dev.phalanx.examples.components.Token_Traits;
import dev.phalanx.examples.components.Velocity;
import dev.phalanx.examples.components.Velocity_Traits;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** Random worlds with every kind of storage, and the codecs their reference fields need. */
final class Worlds {

  static final ComponentType<?, ?>[] NONE = {};

  private Worlds() {}

  /** Codec of {@code List<String>} (Label.tags). */
  @SuppressWarnings("rawtypes")
  static final ValueCodec<List> LISTS =
      new ValueCodec<>() {
        @Override
        public void write(final List value, final DataOutput out) throws IOException {
          out.writeInt(value.size());
          for (final Object item : value) {
            out.writeUTF((String) item);
          }
        }

        @Override
        public List read(final DataInput in) throws IOException {
          final int size = in.readInt();
          final List<String> list = new ArrayList<>(size);
          for (int i = 0; i < size; i++) {
            list.add(in.readUTF());
          }
          return list;
        }
      };

  /** Codec of {@code int[]} (Label.codes). */
  static final ValueCodec<int[]> INTS =
      new ValueCodec<>() {
        @Override
        public void write(final int[] value, final DataOutput out) throws IOException {
          out.writeInt(value.length);
          for (final int v : value) {
            out.writeInt(v);
          }
        }

        @Override
        public int[] read(final DataInput in) throws IOException {
          final int[] value = new int[in.readInt()];
          for (int i = 0; i < value.length; i++) {
            value[i] = in.readInt();
          }
          return value;
        }
      };

  /** Codec of {@link Token} (an object storage): no state, nothing to write. */
  static final ValueCodec<Token> TOKENS =
      new ValueCodec<>() {
        @Override
        public void write(final Token value, final DataOutput out) {}

        @Override
        public Token read(final DataInput in) {
          return new Token();
        }
      };

  static SnapshotWriter writer(final Registry registry) {
    return new SnapshotWriter(registry)
        .codec(List.class, LISTS)
        .codec(int[].class, INTS)
        .codec(Token.class, TOKENS);
  }

  /** Every type the example worlds save: a loader reads only the types it is given or knows. */
  static final ComponentType<?, ?>[] TYPES = {
    Position_Traits.TYPE,
    Velocity_Traits.TYPE,
    Frozen_Traits.TYPE,
    Label_Traits.TYPE,
    Parent_Traits.TYPE,
    Primitives_Traits.TYPE,
    Slot_Traits.TYPE,
    Token_Traits.TYPE,
    ComponentType.named("marked")
  };

  static SnapshotLoader loader(final Registry registry) {
    return new SnapshotLoader(registry)
        .types(TYPES)
        .codec(List.class, LISTS)
        .codec(int[].class, INTS)
        .codec(Token.class, TOKENS);
  }

  static ContinuousLoader continuous(final Registry registry) {
    return new ContinuousLoader(registry)
        .types(TYPES)
        .codec(List.class, LISTS)
        .codec(int[].class, INTS)
        .codec(Token.class, TOKENS);
  }

  /** Declares the groups every test world has: nested owning groups and a non-owning one. */
  static Registry withGroups(final Registry registry) {
    registry.owningGroup(
        new ComponentType<?, ?>[] {Position_Traits.TYPE, Velocity_Traits.TYPE},
        NONE,
        new ComponentType<?, ?>[] {Frozen_Traits.TYPE});
    registry.owningGroup(
        new ComponentType<?, ?>[] {Position_Traits.TYPE, Velocity_Traits.TYPE},
        new ComponentType<?, ?>[] {Primitives_Traits.TYPE},
        new ComponentType<?, ?>[] {Frozen_Traits.TYPE});
    registry.nonOwningGroup(
        new ComponentType<?, ?>[] {Label_Traits.TYPE, Parent_Traits.TYPE}, NONE);
    return registry;
  }

  /** Applies {@code steps} random changes of every kind to {@code registry}. */
  static void mutate(final Registry registry, final SplittableRandom random, final int steps) {
    final Hierarchy hierarchy = Hierarchy.of(registry);
    for (int step = 0; step < steps; step++) {
      final long[] live = liveEntities(registry);
      final int action = random.nextInt(100);
      if (action < 30 || 0 == live.length) {
        registry.create();
        continue;
      }
      final long e = live[random.nextInt(live.length)];
      if (action < 38) {
        registry.destroy(e);
      } else if (action < 46) {
        toggle(
            registry,
            e,
            Position_Traits.TYPE,
            () ->
                registry
                    .storage(Position_Traits.TYPE)
                    .emplace(e, (float) random.nextDouble(), (float) random.nextDouble()));
      } else if (action < 54) {
        toggle(
            registry,
            e,
            Velocity_Traits.TYPE,
            () ->
                registry
                    .storage(Velocity_Traits.TYPE)
                    .emplace(e, new Velocity((float) random.nextDouble(), -random.nextInt(9))));
      } else if (action < 60) {
        toggle(
            registry,
            e,
            Primitives_Traits.TYPE,
            () ->
                registry
                    .storage(Primitives_Traits.TYPE)
                    .emplace(
                        e,
                        new Primitives(
                            random.nextBoolean(),
                            (byte) random.nextInt(),
                            (short) random.nextInt(),
                            (char) random.nextInt(),
                            random.nextInt(),
                            random.nextLong(),
                            (float) random.nextDouble(),
                            random.nextDouble())));
      } else if (action < 66) {
        toggle(
            registry,
            e,
            Label_Traits.TYPE,
            () ->
                registry
                    .storage(Label_Traits.TYPE)
                    .emplace(
                        e,
                        new Label(
                            random.nextBoolean()
                                ? null
                                : "label " + random.nextInt(1000) + " \u00e9\u4e2d",
                            random.nextBoolean() ? null : Label.Color.values()[random.nextInt(3)],
                            random.nextBoolean() ? null : List.of("a" + random.nextInt(9), "b"),
                            random.nextBoolean()
                                ? null
                                : new int[] {random.nextInt(), random.nextInt()})));
      } else if (action < 74) {
        toggle(
            registry,
            e,
            Slot_Traits.TYPE,
            () ->
                registry
                    .storage(Slot_Traits.TYPE)
                    .emplace(
                        e,
                        new Slot(
                            random.nextInt(),
                            random.nextBoolean() ? null : "s" + random.nextInt(99))));
      } else if (action < 80) {
        final long target =
            random.nextInt(4) == 0 ? Entity.NULL : live[random.nextInt(live.length)];
        toggle(
            registry,
            e,
            Parent_Traits.TYPE,
            () -> registry.storage(Parent_Traits.TYPE).emplace(e, target, random.nextInt(5)));
      } else if (action < 85) {
        toggle(
            registry, e, Frozen_Traits.TYPE, () -> registry.storage(Frozen_Traits.TYPE).emplace(e));
      } else if (action < 88) {
        toggle(
            registry, e, Token_Traits.TYPE, () -> registry.storage(Token_Traits.TYPE).emplace(e));
      } else if (action < 91) {
        final var marked = registry.storage("marked");
        if (marked.contains(e)) {
          marked.remove(e);
        } else {
          marked.emplace(e);
        }
      } else {
        final long parent = live[random.nextInt(live.length)];
        if (parent != e && !hierarchy.isAncestor(e, parent)) {
          hierarchy.reparent(e, parent);
        } else {
          hierarchy.detach(e);
        }
      }
    }
  }

  private static void toggle(
      final Registry registry, final long e, final ComponentType<?, ?> type, final Runnable add) {
    if (registry.has(e, type)) {
      registry.remove(e, type);
    } else {
      add.run();
    }
  }

  static long[] liveEntities(final Registry registry) {
    final long[] live = new long[registry.alive()];
    System.arraycopy(registry.entities().packed(), 0, live, 0, live.length);
    return live;
  }

  static byte[] save(final SnapshotWriter writer) {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try {
      writer.write(bytes);
    } catch (final IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }
}

package dev.phalanx.ecs.snapshot;

import static dev.phalanx.ecs.snapshot.LoaderWorlds.INTS;
import static dev.phalanx.ecs.snapshot.LoaderWorlds.TYPES;
import static dev.phalanx.ecs.snapshot.LoaderWorlds.assertMirrors;
import static dev.phalanx.ecs.snapshot.LoaderWorlds.dump;
import static dev.phalanx.ecs.snapshot.LoaderWorlds.intsAndChars;
import static dev.phalanx.ecs.snapshot.LoaderWorlds.live;
import static dev.phalanx.ecs.snapshot.LoaderWorlds.save;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.DeletionPolicy;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.PrimitiveColumnsStorageA;
import dev.phalanx.ecs.PrimitiveColumnsStorageA.Col;
import dev.phalanx.ecs.PrimitiveColumnsStorageA.Pages;
import dev.phalanx.ecs.PrimitiveColumnsStorageA.Row;
import dev.phalanx.ecs.Registry;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link ContinuousLoader}'s staging at its edges: more gone entities than its first arrays hold,
 * and user code that throws while a load is staged (a value's {@code equals}, asked whether a
 * component changed), which leaves the map and the registry as they were.
 */
class ContinuousLoaderStagingTest {

  /** A value whose {@code equals} throws while {@link #touchy} is set. */
  static final class Touchy {
    static boolean touchy;
    final int value;

    Touchy(final int value) {
      this.value = value;
    }

    @Override
    public boolean equals(final Object other) {
      if (touchy) {
        throw new IllegalStateException("equals");
      }
      return other instanceof Touchy t && t.value == value;
    }

    @Override
    public int hashCode() {
      return value;
    }
  }

  static final class Touchies {}

  static final ComponentType<Row, PrimitiveColumnsStorageA> TOUCHY =
      PrimitiveColumnsStorageA.define(
          Touchies.class, 4, DeletionPolicy.SWAP_AND_POP, Pages.KEEPS, Col.of("t", Touchy.class));

  static final ValueCodec<Touchy> CODEC =
      new ValueCodec<>() {
        @Override
        public void write(final Touchy value, final DataOutput out) throws IOException {
          out.writeInt(value.value);
        }

        @Override
        public Touchy read(final DataInput in) throws IOException {
          return new Touchy(in.readInt());
        }
      };

  /** Twenty mapped entities gone at once, past the loader's first arrays of 16: all destroyed. */
  @Test
  void moreGoneEntitiesThanTheFirstArraysHoldAreAllDestroyed() throws IOException {
    final Registry remote = intsAndChars(20);
    final long[] entities = live(remote);
    final Registry local = new Registry();
    final ContinuousLoader loader = new ContinuousLoader(local).types(TYPES);
    loader.load(ByteBuffer.wrap(save(remote)));
    assertEquals(20, loader.size());
    for (final long entity : entities) {
      remote.destroy(entity);
    }
    final long kept = remote.create();
    remote.emplace(kept, INTS, Row.of(7));
    loader.load(ByteBuffer.wrap(save(remote)));
    assertEquals(1, loader.size());
    assertEquals(1, local.alive());
    assertMirrors(remote, local, loader);
    assertEquals(List.of(), local.verify());
  }

  /**
   * A value's {@code equals} that throws while the load is staged fails the load with its
   * exception: the registry, the map and the loader are as before, and the next load is taken as if
   * this one had not been tried.
   */
  @Test
  void aThrowingEqualsWhileStagingLeavesTheMapAndTheRegistryAsTheyWere() throws IOException {
    final Registry remote = intsAndChars(3);
    final long[] entities = live(remote);
    remote.emplace(entities[2], TOUCHY, Row.of(new Touchy(1)));
    final Registry local = new Registry();
    final ContinuousLoader loader =
        new ContinuousLoader(local).types(INTS, TOUCHY).codec(Touchy.class, CODEC);
    loader.load(ByteBuffer.wrap(saveWithCodec(remote)));
    final long goneLocal = loader.map(entities[0]);
    remote.destroy(entities[0]);
    final long added = remote.create();
    remote.emplace(added, INTS, Row.of(9));
    final String before = dump(local);
    final byte[] snapshot = saveWithCodec(remote);
    Touchy.touchy = true;
    try {
      final IllegalStateException thrown =
          assertThrows(IllegalStateException.class, () -> loader.load(ByteBuffer.wrap(snapshot)));
      assertEquals("equals", thrown.getMessage());
    } finally {
      Touchy.touchy = false;
    }
    assertEquals(before, dump(local));
    assertEquals(3, loader.size(), "the map is as it was");
    assertEquals(goneLocal, loader.map(entities[0]));
    assertFalse(loader.contains(added));
    assertTrue(local.valid(goneLocal));
    assertEquals(List.of(), local.verify());
    loader.load(ByteBuffer.wrap(snapshot));
    assertFalse(local.valid(goneLocal));
    assertFalse(loader.contains(entities[0]));
    assertEquals(Row.of(9), local.get(loader.map(added), INTS));
    assertEquals(3, loader.size());
    assertEquals(3, local.alive());
    assertTrue(Entity.isNull(loader.map(entities[0])));
    assertEquals(List.of(), local.verify());
  }

  private static byte[] saveWithCodec(final Registry remote) throws IOException {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    new SnapshotWriter(remote).types(INTS, TOUCHY).codec(Touchy.class, CODEC).write(out);
    return out.toByteArray();
  }
}

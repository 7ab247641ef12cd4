package dev.phalanx.ecs.command;

import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.DeletionPolicy;
import dev.phalanx.ecs.EmptyStorage;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Fixtures;
import dev.phalanx.ecs.GroupTypes.A;
import dev.phalanx.ecs.GroupTypes.B;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.Test;

/** How a command buffer plays its commands back: each kind, reserved handles, skips. */
class CommandBufferPlaybackTest {

  private final Registry registry = new Registry();
  private final CommandBuffer commands = new CommandBuffer(registry);

  @Test
  void aReservationAloneMakesTheBufferNonEmpty() {
    // Rule: isEmpty is false as soon as anything is recorded, a reservation included.
    assertTrue(commands.isEmpty());
    final long reserved = commands.create();
    assertTrue(CommandBuffer.isReserved(reserved));
    assertFalse(CommandBuffer.isReserved(registry.create()));
    assertFalse(CommandBuffer.isReserved(Entity.NULL));
    assertFalse(commands.isEmpty());
    assertEquals(0, commands.size());
    commands.clear();
    assertTrue(commands.isEmpty());
    commands.destroy(registry.create());
    assertFalse(commands.isEmpty());
    assertEquals(1, commands.size());
  }

  @Test
  void replaceWritesTheNewValueAndPublishesAnUpdate() {
    // Rule: a recorded replace replaces the component the entity has then (update signal); it is
    // skipped and counted if the entity has none, even if the storage exists.
    final long e = registry.create();
    final long without = registry.create();
    registry.emplace(e, TA, new A(1));
    final List<Long> updated = new ArrayList<>();
    registry.storage(TA).onUpdate().connect((r, entity) -> updated.add(entity));
    commands.replace(e, TA, new A(2));
    commands.replace(without, TA, new A(3));
    commands.apply();
    assertEquals(2, registry.get(e, TA).value());
    assertFalse(registry.has(without, TA));
    assertEquals(List.of(e), updated);
    assertEquals(1, commands.skipped());
  }

  @Test
  void destroyTreeDestroysTheSubtreeOnlyAndSkipsTheDead() {
    // Rule: a recorded destroyTree destroys the entity and its descendants, not its ancestors or
    // siblings; a dead root is skipped and counted.
    final Hierarchy hierarchy = Hierarchy.of(registry);
    final long root = registry.create();
    final long child = registry.create();
    final long grandchild = registry.create();
    final long sibling = registry.create();
    hierarchy.attach(child, root);
    hierarchy.attach(grandchild, child);
    hierarchy.attach(sibling, root);
    commands.destroyTree(child);
    commands.destroyTree(grandchild); // dead by then
    assertEquals(2, commands.size());
    commands.apply();
    assertFalse(registry.valid(child));
    assertFalse(registry.valid(grandchild));
    assertTrue(registry.valid(root));
    assertTrue(registry.valid(sibling));
    assertEquals(1, hierarchy.childCount(root));
    assertEquals(1, commands.skipped());
    assertEquals(List.of(), hierarchy.verify());
  }

  @Test
  void skippedCommandsLeaveTheFollowingOnesTheirOwnValues() {
    // Rule: a command skipped because its target is dead passes over exactly its own payload,
    // whatever its kind: the following commands read their own values and parents.
    final Hierarchy hierarchy = Hierarchy.of(registry);
    final long dead = registry.create();
    registry.destroy(dead);
    final long e = registry.create();
    final long p1 = registry.create();
    final long p2 = registry.create();
    final long c1 = registry.create();
    final long c2 = registry.create();
    commands.emplace(e, TA, new A(1));
    commands.destroy(dead);
    commands.emplace(e, TB, new B(2));
    commands.remove(dead, TA);
    commands.replace(e, TB, new B(3));
    commands.erase(dead, TA);
    commands.emplace(dead, TA, new A(-1));
    commands.replace(dead, TA, new A(-2));
    commands.replace(e, TA, new A(4));
    commands.attach(c1, p1);
    commands.attach(dead, p2);
    commands.attach(c2, p2);
    commands.destroyTree(dead);
    commands.emplace(c1, TB, new B(5));
    commands.apply();
    assertEquals(7, commands.skipped());
    assertEquals(4, registry.get(e, TA).value());
    assertEquals(3, registry.get(e, TB).value());
    assertEquals(5, registry.get(c1, TB).value());
    assertEquals(p1, hierarchy.parent(c1));
    assertEquals(p2, hierarchy.parent(c2));
  }

  @Test
  void aReservedHandleIsValidOnlyUntilTheBufferIsApplied() {
    // Rule: a reserved handle names the entity created for it by the apply that follows its
    // reservation; naming it after that apply is refused, and the entity is untouched.
    final long reserved = commands.create();
    commands.emplace(reserved, TA, new A(1));
    commands.apply();
    final long created = registry.storage(TA).packed()[0];
    assertEquals(1, registry.get(created, TA).value());
    assertThrows(IllegalArgumentException.class, () -> commands.emplace(reserved, TA, new A(2)));
    assertThrows(IllegalArgumentException.class, () -> commands.destroy(reserved));
    assertTrue(commands.isEmpty());
    commands.apply();
    assertEquals(0, commands.skipped());
    assertTrue(registry.valid(created));
    assertEquals(1, registry.get(created, TA).value());
  }

  @Test
  void aHandleOfAnotherBufferIsRefusedWhenRecorded() {
    // Rule: a standalone buffer accepts only its own current handles; another buffer's handle,
    // of a set (its run 0 included) or standalone, is refused when recorded, and nothing is
    // recorded. Before buffers had ids, a same-key handle silently named this buffer's own
    // reservation of the same number.
    final CommandBuffers set = new CommandBuffers(registry);
    final CommandBuffer other = new CommandBuffer(registry);
    final long mine = commands.create();
    final long[] foreign = {set.forRun(0).create(), set.forRun(5).create(), other.create()};
    for (final long handle : foreign) {
      final IllegalArgumentException refused =
          assertThrows(
              IllegalArgumentException.class, () -> commands.emplace(handle, TA, new A(1)));
      assertTrue(
          refused
              .getMessage()
              .startsWith("cannot record emplace on reserved handle " + Entity.toString(handle)),
          refused.getMessage());
      assertThrows(IllegalArgumentException.class, () -> commands.attach(mine, handle));
      assertThrows(IllegalArgumentException.class, () -> commands.attach(handle, mine));
      assertThrows(IllegalArgumentException.class, () -> commands.destroy(handle));
    }
    assertEquals(0, commands.size());
    commands.emplace(mine, TA, new A(2));
    commands.apply();
    assertEquals(0, commands.skipped());
    assertEquals(1, registry.storage(TA).size());
    assertEquals(2, registry.get(registry.storage(TA).packed()[0], TA).value());
  }

  @Test
  void aHandleOutlivesNeitherApplyNorClear() {
    // Rule: a handle is valid until its buffer is applied or cleared; naming it afterwards is
    // refused, even when the buffer has reserved as many handles again.
    final long applied = commands.create();
    commands.apply();
    commands.create();
    assertThrows(IllegalArgumentException.class, () -> commands.emplace(applied, TA, new A(1)));
    final long cleared = commands.create();
    commands.clear();
    commands.create();
    commands.create();
    assertThrows(IllegalArgumentException.class, () -> commands.emplace(cleared, TA, new A(1)));
    // A buffer that handed out no handle keeps its id: its next handles are as valid as ever.
    final CommandBuffer idle = new CommandBuffer(registry);
    idle.destroy(registry.create());
    idle.apply();
    final long fresh = idle.create();
    idle.emplace(fresh, TA, new A(3));
    idle.apply();
    assertEquals(1, registry.storage(TA).size());
  }

  @Test
  void applyReleasesTheRecordedValues() {
    // Rule: once applied or cleared, a buffer no longer holds the values it recorded (it keeps
    // its arrays, not their contents).
    final WeakReference<A> applied = recordAndApply();
    final WeakReference<A> cleared = recordAndClear();
    for (int attempt = 0; attempt < 50 && (null != applied.get() || null != cleared.get()); ) {
      System.gc();
      attempt++;
    }
    assertNull(applied.get(), "an applied value is not kept");
    assertNull(cleared.get(), "a cleared value is not kept");
  }

  private WeakReference<A> recordAndApply() {
    final long e = registry.create();
    final A value = new A(1);
    commands.emplace(e, TA, value);
    commands.destroy(e);
    commands.apply();
    return new WeakReference<>(value);
  }

  private WeakReference<A> recordAndClear() {
    final A value = new A(2);
    commands.emplace(registry.create(), TA, value);
    commands.clear();
    return new WeakReference<>(value);
  }

  @Test
  void nullValuesAreRefusedForInstanceTypesOnly() {
    // Rule: recording a null component of a type that stores instances is refused at once.
    final NullPointerException error =
        assertThrows(NullPointerException.class, () -> commands.emplace(1L, TA, null));
    assertTrue(error.getMessage().contains("cannot record a null A"), error.getMessage());
    assertThrows(NullPointerException.class, () -> commands.replace(1L, TA, null));
    assertThrows(NullPointerException.class, () -> commands.remove(1L, null));
    assertThrows(NullPointerException.class, () -> commands.erase(1L, null));
    assertEquals(0, commands.size());
    final ComponentType<Object, EmptyStorage<Object>> tag =
        Fixtures.tag(DeletionPolicy.SWAP_AND_POP);
    final long e = registry.create();
    commands.emplace(e, tag, null);
    commands.apply();
    assertTrue(registry.has(e, tag));
  }

  @Test
  void aBufferThatCreatesNothingMayBeAppliedDuringARegistryClear() {
    // Rule: a registry clear refuses creating entities meanwhile; a buffer without reservations
    // creates none, so a destroy listener of the clear may apply it. One with a reservation is
    // refused before any of its commands applies, and keeps them.
    final long e = registry.create();
    registry.emplace(e, TA, new A(1));
    registry.emplace(e, TB, new B(1));
    final List<String> outcomes = new ArrayList<>();
    final CommandBuffer spawning = new CommandBuffer(registry);
    registry
        .storage(TA)
        .onDestroy()
        .connect(
            (r, entity) -> {
              commands.remove(entity, TB);
              commands.apply();
              outcomes.add("applied, skipped " + commands.skipped());
              spawning.destroy(entity);
              spawning.create();
              outcomes.add(
                  assertThrows(IllegalStateException.class, spawning::apply).getClass().getName());
            });
    registry.clear();
    assertEquals(List.of("applied, skipped 0", IllegalStateException.class.getName()), outcomes);
    assertEquals(1, spawning.size());
    assertEquals(List.of(), registry.verify());
  }

  // -------------------------------------------------------------------------------------------
  // Sets of buffers.
  // -------------------------------------------------------------------------------------------

  @Test
  void aHandleReservedInOneRunMayBeUsedInAnother() {
    // Rule: in a CommandBuffers, a reserved handle of any run resolves in every run, run 0
    // included, until the set is applied; another set's handle is refused when recorded.
    final CommandBuffers set = new CommandBuffers(registry);
    final long fromRun0 = set.forRun(0).create();
    final long fromRun4 = set.forRun(4).create();
    final long otherSet = new CommandBuffers(registry).forRun(2).create();
    set.forRun(2);
    set.forRun(7).emplace(fromRun0, TA, new A(0));
    set.forRun(7).emplace(fromRun4, TA, new A(4));
    set.forRun(0).emplace(fromRun4, TB, new B(4));
    set.forRun(7).attach(fromRun4, fromRun0);
    // Another set's handle is refused, even where this set has a run of the same key.
    assertThrows(
        IllegalArgumentException.class, () -> set.forRun(2).emplace(otherSet, TA, new A(2)));
    set.apply();
    assertEquals(0, set.skipped());
    // The set's handles do not outlive its apply.
    assertThrows(
        IllegalArgumentException.class, () -> set.forRun(7).emplace(fromRun4, TA, new A(5)));
    assertEquals(2, registry.storage(TA).size());
    final long e0 = Entity.of(0, 0);
    final long e4 = Entity.of(1, 0);
    assertEquals(0, registry.get(e0, TA).value());
    assertEquals(4, registry.get(e4, TA).value());
    assertEquals(4, registry.get(e4, TB).value());
    assertEquals(e0, Hierarchy.of(registry).parent(e4));
  }

  @Test
  void concurrentFirstUsesOfARunKeyShareOneBuffer() throws Exception {
    // Rule: forRun may be called from several threads at once; threads asking for the same new
    // key all get the same buffer.
    final int threads = 4;
    for (int round = 0; round < 200; round++) {
      final CommandBuffers set = new CommandBuffers(registry);
      final CyclicBarrier start = new CyclicBarrier(threads);
      final CommandBuffer[] got = new CommandBuffer[threads];
      final List<Thread> started = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        final int slot = t;
        final Thread thread =
            new Thread(
                () -> {
                  try {
                    start.await();
                  } catch (final Exception e) {
                    throw new IllegalStateException(e);
                  }
                  got[slot] = set.forRun(slot % 2);
                });
        thread.start();
        started.add(thread);
      }
      for (final Thread thread : started) {
        thread.join();
      }
      for (int t = 0; t < threads; t++) {
        assertNotNull(got[t]);
        assertSame(set.forRun(t % 2), got[t]);
      }
    }
  }
}

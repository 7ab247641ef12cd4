package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Fixtures.Payload;
import dev.phalanx.ecs.command.CommandBuffer;
import dev.phalanx.ecs.command.CommandBuffers;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The entity-level API: {@link Registry#destroy(long, int)}, {@link Registry#onCreate()} and {@link
 * Registry#onDestroy()}, {@link Registry#entityView()} and {@link EntityHandle}. A seeded random
 * run against a plain model, the rules one by one, and fault injection of both signals.
 */
class EntityApiTest {

  private static final ComponentType<Payload, ObjectStorage<Payload>> A =
      Fixtures.alpha(DeletionPolicy.SWAP_AND_POP);
  private static final ComponentType<Payload, ObjectStorage<Payload>> B =
      Fixtures.beta(DeletionPolicy.IN_PLACE);
  private static final ComponentType<Object, EmptyStorage<Object>> TAG =
      Fixtures.tag(DeletionPolicy.SWAP_AND_POP);

  // -----------------------------------------------------------------------------------------------
  // Against a model.
  // -----------------------------------------------------------------------------------------------

  /** The expected world: live entities with their component types, and each index's version. */
  private static final class Model {
    final Map<Long, Set<ComponentType<?, ?>>> live = new HashMap<>();
    final Map<Integer, Integer> nextVersion = new HashMap<>();
    final List<Long> created = new ArrayList<>();
    final List<Long> destroyed = new ArrayList<>();

    void destroy(final long entity, final int version) {
      live.remove(entity);
      destroyed.add(entity);
      nextVersion.put(
          Entity.index(entity),
          Entity.TOMBSTONE_VERSION == version
              ? Entity.nextVersion(Entity.version(entity))
              : version);
    }
  }

  @Test
  void randomOperationsMatchTheModel() {
    for (int seed = 0; seed < 40; seed++) {
      final Random random = new Random(seed);
      final Registry registry = new Registry();
      final Model model = new Model();
      final List<Long> createdSeen = new ArrayList<>();
      final List<Long> destroyedSeen = new ArrayList<>();
      registry.onCreate().connect((r, e) -> createdSeen.add(e));
      registry
          .onDestroy()
          .connect(
              (r, e) -> {
                // Still valid, every component gone.
                assertTrue(r.valid(e));
                assertTrue(r.orphan(e));
                destroyedSeen.add(e);
              });
      final List<Long> handles = new ArrayList<>();
      for (int step = 0; step < 2_000; step++) {
        final List<Long> alive = new ArrayList<>(model.live.keySet());
        alive.sort(null);
        final int op = random.nextInt(10);
        if (alive.isEmpty() || op < 3) {
          final long[] out = new long[1 + random.nextInt(3)];
          if (out.length == 1) {
            out[0] = registry.create();
          } else {
            registry.create(out);
          }
          for (final long e : out) {
            final Integer version = model.nextVersion.get(Entity.index(e));
            assertEquals(null == version ? 0 : version, Entity.version(e), "seed " + seed);
            model.live.put(e, new HashSet<>());
            model.created.add(e);
            handles.add(e);
          }
        } else {
          final long e = alive.get(random.nextInt(alive.size()));
          final ComponentType<?, ?> type =
              random.nextBoolean() ? A : random.nextBoolean() ? B : TAG;
          switch (op) {
            case 3, 4 -> {
              if (model.live.get(e).add(type)) {
                if (type == TAG) {
                  registry.emplace(e, TAG, new Object());
                } else {
                  @SuppressWarnings("unchecked")
                  final ComponentType<Payload, ?> payload = (ComponentType<Payload, ?>) type;
                  registry.emplace(e, payload, new Payload(step));
                }
              }
            }
            case 5 -> assertEquals(model.live.get(e).remove(type), registry.remove(e, type));
            case 6 -> {
              registry.destroy(e);
              model.destroy(e, Entity.TOMBSTONE_VERSION);
            }
            case 7 -> {
              int version = random.nextInt(5);
              if (version == Entity.version(e)) {
                version++;
              }
              registry.destroy(e, version);
              model.destroy(e, version);
            }
            case 8 -> {
              final int n = Math.min(alive.size(), 1 + random.nextInt(4));
              final long[] batch = new long[n];
              for (int i = 0; i < n; i++) {
                batch[i] = alive.get(i);
              }
              registry.destroy(batch, 0, n);
              for (final long gone : batch) {
                model.destroy(gone, Entity.TOMBSTONE_VERSION);
              }
            }
            default -> {
              if (random.nextInt(20) == 0) {
                final List<Long> order = new ArrayList<>();
                registry.entities().each(order::add);
                registry.clear();
                for (final long gone : order) {
                  model.destroy(gone, Entity.TOMBSTONE_VERSION);
                }
              }
            }
          }
        }
        assertEquals(model.created, createdSeen, "seed " + seed + " step " + step);
        assertEquals(model.destroyed, destroyedSeen, "seed " + seed + " step " + step);
        if (step % 50 == 0) {
          check(registry, model, handles);
        }
      }
      check(registry, model, handles);
    }
  }

  private static void check(final Registry registry, final Model model, final List<Long> handles) {
    assertEquals(List.of(), registry.verify());
    assertEquals(model.live.size(), registry.alive());
    for (final long e : handles) {
      final EntityHandle handle = registry.handle(e);
      assertEquals(model.live.containsKey(e), handle.valid(), Entity.toString(e));
      if (handle.valid()) {
        assertEquals(model.live.get(e), new HashSet<>(handle.components()));
        assertEquals(model.live.get(e).isEmpty(), handle.orphan());
      }
    }
    final Set<Long> withoutA = new HashSet<>();
    registry.entityView().exclude(A).each(withoutA::add);
    final Set<Long> expected = new HashSet<>();
    for (final Map.Entry<Long, Set<ComponentType<?, ?>>> entry : model.live.entrySet()) {
      if (!entry.getValue().contains(A)) {
        expected.add(entry.getKey());
      }
    }
    assertEquals(expected, withoutA);
    assertEquals(expected.size(), registry.entityView().exclude(A).count());
    final Set<Long> all = new HashSet<>();
    registry.entityView().each(all::add);
    assertEquals(model.live.keySet(), all);
  }

  // -----------------------------------------------------------------------------------------------
  // Rules.
  // -----------------------------------------------------------------------------------------------

  @Test
  void destroyWithAVersionRecyclesTheIdentifierWithIt() {
    final Registry registry = new Registry();
    final long e = registry.create();
    registry.emplace(e, A, new Payload(1));
    registry.destroy(e, 41);
    assertFalse(registry.valid(e));
    final long recycled = registry.create();
    assertEquals(Entity.index(e), Entity.index(recycled));
    assertEquals(41, Entity.version(recycled));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void destroyWithARefusedVersionChangesNothing() {
    final Registry registry = new Registry();
    final long e = registry.create();
    registry.emplace(e, A, new Payload(1));
    final IllegalArgumentException own =
        assertThrows(IllegalArgumentException.class, () -> registry.destroy(e, Entity.version(e)));
    assertTrue(own.getMessage().contains("own version"), own.getMessage());
    assertTrue(own.getMessage().contains(Entity.toString(e)), own.getMessage());
    final IllegalArgumentException tombstone =
        assertThrows(
            IllegalArgumentException.class, () -> registry.destroy(e, Entity.TOMBSTONE_VERSION));
    assertTrue(tombstone.getMessage().contains("tombstone"), tombstone.getMessage());
    assertTrue(registry.valid(e));
    assertTrue(registry.has(e, A));
    registry.destroy(e);
    assertThrows(IllegalArgumentException.class, () -> registry.destroy(e, 7));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void onDestroyListenersCannotAddComponentsAndDestroyingAgainIsANoOp() {
    final Registry registry = new Registry();
    final long e = registry.create();
    registry.emplace(e, A, new Payload(1));
    final List<String> seen = new ArrayList<>();
    registry
        .onDestroy()
        .connect(
            (r, entity) -> {
              r.destroy(entity);
              seen.add("again: no-op");
              r.emplace(entity, B, new Payload(2));
            });
    final IllegalStateException refused =
        assertThrows(IllegalStateException.class, () -> registry.destroy(e));
    assertTrue(refused.getMessage().contains("being destroyed"), refused.getMessage());
    assertEquals(List.of("again: no-op"), seen);
    assertFalse(registry.valid(e));
    assertEquals(0, registry.storage(B).size());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aBatchDestroyWithADestroyListenerPublishesForEveryEntity() {
    final Registry registry = new Registry();
    final long[] batch = new long[5];
    registry.create(batch);
    for (final long e : batch) {
      registry.emplace(e, A, new Payload(0));
    }
    final List<Long> seen = new ArrayList<>();
    registry.onDestroy().connect((r, e) -> seen.add(e));
    assertFalse(registry.destroysInBulk(), "a destroy listener observes a batch");
    registry.destroy(batch, 0, batch.length);
    assertEquals(List.of(batch[0], batch[1], batch[2], batch[3], batch[4]), seen);
    assertEquals(0, registry.alive());
  }

  @Test
  void theEntityViewToleratesDestroyingTheVisitedEntity() {
    final Registry registry = new Registry();
    final long[] all = new long[10];
    registry.create(all);
    registry.emplace(all[3], TAG, new Object());
    final List<Long> visited = new ArrayList<>();
    registry
        .entityView()
        .exclude(TAG)
        .each(
            e -> {
              visited.add(e);
              registry.destroy(e);
              registry.create();
            });
    assertEquals(9, visited.size());
    assertFalse(visited.contains(all[3]));
    assertTrue(registry.valid(all[3]));
    assertEquals(List.of(), registry.verify());
    final IllegalArgumentException twice =
        assertThrows(
            IllegalArgumentException.class, () -> registry.entityView().exclude(TAG).exclude(TAG));
    assertTrue(twice.getMessage().contains("excluded already"), twice.getMessage());
    assertTrue(registry.entityView().exclude(TAG).contains(registry.create()));
    assertFalse(registry.entityView().exclude(TAG).contains(all[3]));
    assertFalse(registry.entityView().contains(all[0]));
  }

  @Test
  void aHandleForwardsToItsRegistry() {
    final Registry registry = new Registry();
    final EntityHandle handle = registry.handle(registry.create());
    final Payload payload = new Payload(5);
    handle.emplace(A, payload).emplace(TAG, new Object());
    assertEquals(payload, handle.get(A));
    assertEquals(null, handle.tryGet(B));
    assertTrue(handle.has(TAG));
    assertEquals(List.of(A, TAG), handle.components());
    assertTrue(
        handle.toString().endsWith("[" + A.name() + ", " + TAG.name() + "]"), handle.toString());
    assertEquals(registry.handle(handle.entity()), handle);
    assertEquals(registry.handle(handle.entity()).hashCode(), handle.hashCode());
    assertNotEquals(new Registry().handle(handle.entity()), handle);
    assertTrue(handle.remove(TAG));
    assertFalse(handle.orphan());
    handle.destroy();
    assertFalse(handle.valid());
    assertTrue(handle.toString().endsWith("[not valid]"));
    assertEquals(List.of(), handle.components());
    assertThrows(IllegalArgumentException.class, () -> handle.emplace(B, new Payload(1)));
  }

  /** Each forwarding method returns what the registry answers, not a constant. */
  @Test
  void aHandleAnswersWithItsRegistrysAnswers() {
    final Registry registry = new Registry();
    registry.create();
    final long entity = registry.create();
    final EntityHandle handle = registry.handle(entity);
    assertTrue(registry == handle.registry());
    assertEquals(entity, handle.entity());
    assertFalse(handle.has(A));
    assertFalse(handle.remove(A));
    final Payload first = new Payload(1);
    assertTrue(handle == handle.emplaceOrReplace(A, first));
    assertTrue(first == handle.tryGet(A));
    final Payload second = new Payload(2);
    assertTrue(handle == handle.replace(A, second));
    assertTrue(second == handle.get(A));
    // Equal handles hash alike; handles of other entities or registries (almost always) do not.
    final Set<Integer> hashes = new HashSet<>();
    final Registry other = new Registry();
    for (int i = 0; i < 64; i++) {
      hashes.add(registry.handle(registry.create()).hashCode());
      hashes.add(other.handle(Entity.of(i, 0)).hashCode());
    }
    assertTrue(hashes.size() > 120, "hash codes collide: " + hashes.size() + " of 128 distinct");
  }

  /**
   * The entity view counts live entities, reports its exclusions, and never visits an entity that
   * the action destroyed ahead of the walk.
   */
  @Test
  void theEntityViewNeverVisitsAnEntityDestroyedAheadOfIt() {
    final Registry registry = new Registry();
    final long[] all = new long[40];
    registry.create(all);
    final EntityView view = registry.entityView();
    assertEquals(40, view.sizeHint());
    assertEquals(0, view.excludeCount());
    final EntityView without = view.exclude(TAG);
    assertEquals(1, without.excludeCount());
    assertEquals("EntityView[all live entities, without " + TAG.name() + "]", without.toString());
    assertEquals("EntityView[all live entities]", view.toString());
    final List<Long> visited = new ArrayList<>();
    view.each(
        e -> {
          assertTrue(registry.valid(e), "visited a destroyed entity");
          visited.add(e);
          // Destroys the visited entity and two of those still to come.
          registry.destroy(e);
          for (int i = 0; i < 2 && registry.alive() > 0; i++) {
            registry.destroy(registry.entities().packed()[0]);
          }
        });
    assertEquals(0, registry.alive());
    assertEquals(14, visited.size());
    assertEquals(List.of(), registry.verify());
  }

  /**
   * Destroying an entity still to come swaps it with the last one still to come, and the last live
   * entity (here the visited one) fills the place of that one, just below the walk's position: the
   * walk meets no entity twice, and the rest come in the order the swap left.
   */
  @Test
  void theEntityViewMeetsNoEntityTwiceWhenOneStillToComeIsDestroyed() {
    final Registry registry = new Registry();
    final long[] all = new long[5];
    registry.create(all);
    final List<Long> visited = new ArrayList<>();
    registry
        .entityView()
        .each(
            e -> {
              visited.add(e);
              if (1 == visited.size()) {
                registry.destroy(all[0]);
              }
            });
    assertEquals(List.of(all[4], all[2], all[1], all[3]), visited);
    final List<Long> again = new ArrayList<>();
    registry.entities().each(again::add);
    assertEquals(List.of(all[4], all[2], all[1], all[3]), again);
  }

  @Test
  void iteratingTheEntityViewAllocatesNothing() {
    final Registry registry = new Registry();
    final long[] all = new long[1000];
    registry.create(all);
    for (int i = 0; i < all.length; i += 3) {
      registry.emplace(all[i], TAG, new Object());
    }
    final EntityView view = registry.entityView().exclude(TAG);
    final long[] sum = {0};
    final java.util.function.LongConsumer add = e -> sum[0] += e;
    for (int i = 0; i < 2_000; i++) {
      view.each(add);
    }
    final com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    final long id = Thread.currentThread().getId();
    long least = Long.MAX_VALUE;
    for (int attempt = 0; attempt < 5; attempt++) {
      final long before = threads.getThreadAllocatedBytes(id);
      for (int i = 0; i < 20; i++) {
        view.each(add);
      }
      least = Math.min(least, threads.getThreadAllocatedBytes(id) - before);
    }
    assertEquals(0, least);
    assertNotEquals(0, sum[0]);
  }

  // -----------------------------------------------------------------------------------------------
  // Fault injection: a create or destroy listener that throws at its k-th call, for every k.
  // -----------------------------------------------------------------------------------------------

  /** A listener that throws at its {@code throwAt}-th call (counting from 1), never if 0. */
  private static final class Faulty implements ComponentListener {
    final int throwAt;
    int calls;

    Faulty(final int throwAt) {
      this.throwAt = throwAt;
    }

    @Override
    public void onEvent(final Registry registry, final long entity) {
      if (++calls == throwAt) {
        throw new IllegalStateException("injected at call " + calls);
      }
    }
  }

  @Test
  void aThrowingCreateListenerNeverStopsACreationHalfWay() {
    for (int k = 1; k <= 6; k++) {
      final Registry registry = new Registry();
      final Faulty faulty = new Faulty(k);
      registry.onCreate().connect(faulty);
      final long[] out = new long[5];
      if (k <= out.length) {
        final RuntimeException thrown =
            assertThrows(RuntimeException.class, () -> registry.create(out));
        assertTrue(thrown.getMessage().contains("injected"), "k=" + k);
      } else {
        registry.create(out);
      }
      assertEquals(5, registry.alive(), "every entity is created, k=" + k);
      assertEquals(5, faulty.calls, "every listener call runs, k=" + k);
      assertEquals(List.of(), registry.verify());
    }
  }

  /**
   * A single create whose listener throws: the entity is created, then the exception reaches the
   * caller.
   */
  @Test
  void aThrowingListenerOfASingleCreateThrowsAfterTheCreation() {
    final Registry registry = new Registry();
    final Faulty faulty = new Faulty(1);
    registry.onCreate().connect(faulty);
    final RuntimeException thrown = assertThrows(RuntimeException.class, registry::create);
    assertTrue(thrown.getMessage().contains("injected"), thrown.getMessage());
    assertEquals(1, registry.alive());
    assertEquals(List.of(), registry.verify());
    registry.create();
    assertEquals(2, registry.alive());
    assertEquals(2, faulty.calls);
  }

  @Test
  void aThrowingCreateListenerLosesNoCommandOfAnApply() {
    for (int k = 1; k <= 4; k++) {
      final Registry registry = new Registry();
      final Faulty faulty = new Faulty(k);
      registry.onCreate().connect(faulty);
      final CommandBuffer buffer = new CommandBuffer(registry);
      final long[] reserved = new long[3];
      for (int i = 0; i < reserved.length; i++) {
        reserved[i] = buffer.create();
        buffer.emplace(reserved[i], A, new Payload(i));
      }
      if (k <= 3) {
        assertThrows(RuntimeException.class, buffer::apply, "k=" + k);
      } else {
        buffer.apply();
      }
      assertEquals(3, registry.alive(), "k=" + k);
      assertEquals(3, registry.storage(A).size(), "every emplace applied, k=" + k);
      for (final long handle : reserved) {
        assertTrue(registry.has(buffer.entityOf(handle), A), "k=" + k);
      }
      assertEquals(List.of(), registry.verify());

      final Registry other = new Registry();
      other.onCreate().connect(new Faulty(k));
      final CommandBuffers set = new CommandBuffers(other);
      final CommandBuffer first = set.forRun(0);
      final CommandBuffer second = set.forRun(1);
      first.emplace(first.create(), A, new Payload(1));
      second.emplace(second.create(), A, new Payload(2));
      final long third = second.create();
      second.emplace(third, B, new Payload(3));
      if (k <= 3) {
        assertThrows(RuntimeException.class, set::apply, "k=" + k);
      } else {
        set.apply();
      }
      assertEquals(3, other.alive(), "k=" + k);
      assertEquals(2, other.storage(A).size(), "k=" + k);
      assertEquals(1, other.storage(B).size(), "k=" + k);
      assertEquals(List.of(), other.verify());
    }
  }

  @Test
  void aCreateListenerCannotReenterTheApplyThatCreates() {
    final Registry registry = new Registry();
    final CommandBuffer buffer = new CommandBuffer(registry);
    final List<String> refusals = new ArrayList<>();
    registry
        .onCreate()
        .connect(
            (r, e) -> {
              try {
                buffer.apply();
              } catch (final IllegalStateException refused) {
                refusals.add(refused.getMessage());
              }
            });
    final long handle = buffer.create();
    buffer.emplace(handle, A, new Payload(1));
    buffer.apply();
    assertEquals(1, refusals.size(), "the nested apply is refused");
    assertEquals(1, registry.alive(), "the reservation is created once");
    assertEquals(1, registry.storage(A).size());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aThrowingDestroyListenerNeverStopsADestroyHalfWay() {
    for (int k = 1; k <= 6; k++) {
      for (int form = 0; form < 3; form++) {
        final Registry registry = new Registry();
        final long[] all = new long[5];
        registry.create(all);
        for (final long e : all) {
          registry.emplace(e, A, new Payload(0));
          registry.emplace(e, TAG, new Object());
        }
        final Faulty faulty = new Faulty(k);
        registry.onDestroy().connect(faulty);
        final int chosen = form;
        final Runnable destroy =
            switch (chosen) {
              case 0 -> () -> registry.destroy(all, 0, all.length);
              case 1 -> registry::clear;
              default ->
                  () -> {
                    RuntimeException first = null;
                    for (final long e : all) {
                      try {
                        registry.destroy(e, 9);
                      } catch (final RuntimeException thrown) {
                        first = thrown;
                      }
                    }
                    if (null != first) {
                      throw first;
                    }
                  };
            };
        if (k <= 5) {
          assertThrows(RuntimeException.class, destroy::run, "k=" + k + " form " + form);
        } else {
          destroy.run();
        }
        assertEquals(0, registry.alive(), "k=" + k + " form " + form);
        assertEquals(0, registry.storage(A).size());
        assertEquals(0, registry.storage(TAG).size());
        assertEquals(5, faulty.calls);
        assertEquals(List.of(), registry.verify());
        if (form == 2) {
          final long recycled = registry.create();
          assertEquals(9, Entity.version(recycled), "the version is set before the rethrow");
        }
      }
    }
  }
}

package dev.phalanx.ecs.clone;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.AllPrimitivesStorageB;
import dev.phalanx.ecs.AllPrimitivesStorageB.Sample;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.EmptyStorage;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.ObjectStorage;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * {@link EntityCloner} and {@link Prefab} against a plain model on seeded random worlds: a
 * struct-of-arrays storage with an {@code @EntityRef} field (swap and in-place), a tracked one, an
 * object storage and a tag, in a random forest. Every clone (one entity, a subtree, into an
 * existing entity, within one registry or into another) and every prefab instance must have exactly
 * the components the model says, references remapped to the cloned set (kept or {@link Entity#NULL}
 * outside it), and the model's links; a refused or failed clone leaves both registries as they
 * were.
 */
class CloneModelTest {

  record Health(int points) {}

  static final class Tag {}

  static final ComponentType<Health, ObjectStorage<Health>> HEALTH =
      ComponentType.object(Health.class);
  static final ComponentType<Tag, EmptyStorage<Tag>> TAG = ComponentType.tag(Tag.class);
  static final List<ComponentType<Sample, AllPrimitivesStorageB<Sample>>> SAMPLES =
      List.of(
          AllPrimitivesStorageB.SWAP,
          AllPrimitivesStorageB.IN_PLACE,
          AllPrimitivesStorageB.TRACKED);

  /** A random world: entities with random components and references, in a random forest. */
  static long[] world(final Registry registry, final SplittableRandom random, final int n) {
    final long[] entities = new long[n];
    registry.create(entities);
    final Hierarchy tree = Hierarchy.of(registry);
    for (int i = 0; i < n; i++) {
      final long e = entities[i];
      for (final ComponentType<Sample, AllPrimitivesStorageB<Sample>> type : SAMPLES) {
        if (random.nextInt(3) != 0) {
          registry.emplace(e, type, sample(random, entities));
        }
      }
      if (random.nextBoolean()) {
        registry.emplace(e, HEALTH, new Health(i));
      }
      if (random.nextInt(3) == 0) {
        registry.storage(TAG).emplace(e);
      }
      if (i > 0 && random.nextInt(4) != 0) {
        tree.attach(e, entities[random.nextInt(i)]);
      }
    }
    return entities;
  }

  static Sample sample(final SplittableRandom random, final long[] targets) {
    return new Sample(
        random.nextBoolean(),
        (byte) random.nextInt(),
        (short) random.nextInt(),
        (char) random.nextInt(0x10000),
        random.nextInt(),
        random.nextLong(),
        random.nextInt(5) == 0 ? Entity.NULL : targets[random.nextInt(targets.length)],
        random.nextFloat(),
        random.nextDouble(),
        random.nextInt(4) == 0 ? null : "n" + random.nextInt(100),
        null,
        null);
  }

  /** The subtree of {@code root} in depth-first order (root first). */
  static List<Long> subtree(final Hierarchy tree, final long root) {
    final List<Long> members = new ArrayList<>();
    tree.depthFirst(root, members::add);
    return members;
  }

  /**
   * Checks that {@code copy} in {@code to} has exactly {@code original}'s components in {@code
   * from} (skipping {@code skipped}), references through {@code remap}.
   */
  static void assertCopy(
      final Registry from,
      final long original,
      final Registry to,
      final long copy,
      final LongUnaryOperator remap,
      final ComponentType<?, ?> skipped) {
    for (final ComponentType<Sample, AllPrimitivesStorageB<Sample>> type : SAMPLES) {
      final boolean has = from.has(original, type) && skipped != type;
      assertEquals(has, to.has(copy, type), type.name());
      if (has) {
        final Sample s = from.get(original, type);
        final long target = Entity.isNull(s.target()) ? Entity.NULL : remap.applyAsLong(s.target());
        assertEquals(
            new Sample(
                s.flag(),
                s.tiny(),
                s.small(),
                s.letter(),
                s.count(),
                s.big(),
                target,
                s.ratio(),
                s.precise(),
                s.name(),
                s.mood(),
                s.point()),
            to.get(copy, type),
            type.name());
      }
    }
    final boolean health = from.has(original, HEALTH) && skipped != HEALTH;
    assertEquals(health, to.has(copy, HEALTH));
    if (health) {
      assertSame(from.get(original, HEALTH), to.get(copy, HEALTH), "object components are shared");
    }
    assertEquals(from.has(original, TAG) && skipped != TAG, to.has(copy, TAG));
  }

  /** How references outside the cloned set are copied: kept in one registry, else NULL. */
  static LongUnaryOperator remap(final Map<Long, Long> clones, final boolean same) {
    return e -> clones.getOrDefault(e, same ? e : Entity.NULL);
  }

  static int totalElements(final Registry registry) {
    int total = 0;
    for (int s = 0; s < registry.storageCount(); s++) {
      final long[] packed = registry.storageAt(s).packed();
      for (int i = 0; i < registry.storageAt(s).size(); i++) {
        total += Entity.isTombstone(packed[i]) ? 0 : 1; // in-place removals leave holes
      }
    }
    return total;
  }

  @Test
  void clonesOfEveryKindMatchTheModel() {
    for (long seed = 1; seed <= 12; seed++) {
      run(seed);
    }
  }

  private static void run(final long seed) {
    final SplittableRandom random = new SplittableRandom(seed);
    final Registry source = new Registry();
    final long[] entities = world(source, random, 24);
    final Hierarchy tree = Hierarchy.of(source);
    final Registry other = new Registry();
    if (seed % 2 == 0) {
      other.storage(AllPrimitivesStorageB.IN_PLACE); // some storages exist, some not
    }
    final EntityCloner within = EntityCloner.within(source);
    final EntityCloner between = EntityCloner.between(source, other);
    assertSame(source, within.source());
    assertSame(source, within.destination());
    assertSame(other, between.destination());
    final ComponentType<?, ?> skipped = seed % 3 == 0 ? TAG : null;
    if (null != skipped) {
      assertSame(within, within.skip(skipped));
      between.skip(skipped);
    }
    for (int step = 0; step < 16; step++) {
      final long original = entities[random.nextInt(entities.length)];
      final boolean same = random.nextBoolean();
      final Registry to = same ? source : other;
      final EntityCloner cloner = same ? within : between;
      switch (random.nextInt(4)) {
        case 0 -> {
          final long parentBefore = tree.parent(original);
          final long copy = cloner.clone(original);
          assertTrue(to.valid(copy));
          assertCopy(source, original, to, copy, remap(Map.of(original, copy), same), skipped);
          final Hierarchy links = Hierarchy.of(to);
          assertEquals(same ? parentBefore : Entity.NULL, links.parent(copy));
          assertEquals(0, links.childCount(copy));
        }
        case 1 -> {
          final List<Long> members = subtree(tree, original);
          final long copy = cloner.cloneTree(original);
          final Hierarchy links = Hierarchy.of(to);
          final List<Long> copies = subtree(links, copy);
          assertEquals(members.size(), copies.size());
          final Map<Long, Long> clones = new HashMap<>();
          for (int i = 0; i < members.size(); i++) {
            clones.put(members.get(i), copies.get(i));
          }
          for (int i = 0; i < members.size(); i++) {
            final long member = members.get(i);
            final long clone = copies.get(i);
            assertCopy(source, member, to, clone, remap(clones, same), skipped);
            assertEquals(tree.childCount(member), links.childCount(clone));
            if (i > 0) {
              assertEquals(clones.get(tree.parent(member)), links.parent(clone));
            }
          }
          assertEquals(same ? tree.parent(original) : Entity.NULL, links.parent(copy));
        }
        case 2 -> {
          final long target = to.create();
          final Hierarchy links = Hierarchy.of(to);
          final long parentBefore = links.parent(target);
          cloner.cloneInto(original, target);
          assertCopy(source, original, to, target, remap(Map.of(original, target), same), skipped);
          assertEquals(parentBefore, links.parent(target), "the target keeps its place");
          // A second clone into it would overwrite: refused, nothing copied.
          final boolean any =
              SAMPLES.stream().anyMatch(t -> to.has(target, t))
                  || to.has(target, HEALTH)
                  || (null == skipped && to.has(target, TAG));
          if (any) {
            final int before = totalElements(to);
            final IllegalArgumentException e =
                assertThrows(
                    IllegalArgumentException.class, () -> cloner.cloneInto(original, target));
            assertTrue(e.getMessage().contains("a clone never overwrites"), e.getMessage());
            assertEquals(before, totalElements(to));
          }
        }
        default -> {
          // Prefabs: captured now, the template changed afterwards, instantiated later.
          final boolean asTree = random.nextBoolean();
          final List<Long> members = asTree ? subtree(tree, original) : List.of(original);
          final Map<Long, Sample> before = new HashMap<>();
          for (final long m : members) {
            before.put(m, source.tryGet(m, AllPrimitivesStorageB.SWAP));
          }
          final Prefab prefab =
              asTree ? Prefab.ofTree(source, original) : Prefab.of(source, original);
          assertEquals(members.size(), prefab.size());
          assertSame(source, prefab.origin());
          for (final ComponentType<Sample, AllPrimitivesStorageB<Sample>> type : SAMPLES) {
            assertEquals(members.stream().anyMatch(m -> source.has(m, type)), prefab.has(type));
          }
          assertEquals(members.stream().anyMatch(m -> source.has(m, HEALTH)), prefab.has(HEALTH));
          final long[] roots = new long[2 + random.nextInt(3)];
          prefab.instantiate(to, roots);
          final Hierarchy links = Hierarchy.of(to);
          for (final long root : roots) {
            assertEquals(Entity.NULL, links.parent(root), "instances are roots");
            final List<Long> copies = asTree ? subtree(links, root) : List.of(root);
            assertEquals(members.size(), copies.size());
            final Map<Long, Long> clones = new HashMap<>();
            for (int i = 0; i < members.size(); i++) {
              clones.put(members.get(i), copies.get(i));
            }
            for (int i = 0; i < members.size(); i++) {
              assertCopy(source, members.get(i), to, copies.get(i), remap(clones, same), null);
            }
          }
          final long one = prefab.instantiate(to);
          assertTrue(to.valid(one));
          // The template changes; the prefab does not.
          if (source.has(original, AllPrimitivesStorageB.SWAP)) {
            source.replace(original, AllPrimitivesStorageB.SWAP, sample(random, entities));
            final long later = prefab.instantiate(to);
            final Sample captured = before.get(original);
            final Sample got = to.get(later, AllPrimitivesStorageB.SWAP);
            assertEquals(captured.count(), got.count());
            assertEquals(captured.name(), got.name());
          }
        }
      }
      assertEquals(List.of(), source.verify());
      assertEquals(List.of(), other.verify());
    }
  }

  @Test
  void aFailingListenerStopsNoPartOfTheClone() {
    final SplittableRandom random = new SplittableRandom(5);
    final Registry source = new Registry();
    final long[] entities = world(source, random, 20);
    final Hierarchy tree = Hierarchy.of(source);
    long root = entities[0];
    for (final long e : entities) {
      if (subtree(tree, e).size() > subtree(tree, root).size()) {
        root = e;
      }
    }
    assertTrue(subtree(tree, root).size() > 2);
    final Registry other = new Registry();
    final RuntimeException boom = new IllegalStateException("boom");
    final int[] calls = {0};
    for (final Registry to : List.of(source, other)) {
      final dev.phalanx.ecs.ComponentListener failSecond =
          (r, e) -> {
            if (++calls[0] == 2) {
              throw boom;
            }
          };
      for (final ComponentType<Sample, AllPrimitivesStorageB<Sample>> type : SAMPLES) {
        to.storage(type).onConstruct().connect(failSecond);
      }
      to.storage(HEALTH).onConstruct().connect(failSecond);
      final EntityCloner cloner = EntityCloner.between(source, to);
      final long target = to.create();
      for (int kind = 0; kind < 3; kind++) {
        calls[0] = 0;
        final int alive = to.alive();
        final int elements = totalElements(to);
        final long parent = tree.parent(root);
        final long fixedRoot = root;
        final int k = kind;
        final RuntimeException thrown =
            assertThrows(
                RuntimeException.class,
                () -> {
                  switch (k) {
                    case 0 -> cloner.cloneTree(fixedRoot);
                    case 1 -> Prefab.ofTree(source, fixedRoot).instantiate(to, new long[3]);
                    default -> {
                      // cloneInto: the target gets components of several entities one by one.
                      for (final long e : subtree(tree, fixedRoot)) {
                        cloner.cloneInto(e, to.create());
                      }
                    }
                  }
                });
        assertSame(boom, thrown);
        final int members = subtree(tree, fixedRoot).size();
        if (k != 2) {
          assertEquals(
              alive + (0 == k ? members : 3 * members), to.alive(), "every member is complete");
          assertTrue(totalElements(to) > elements);
        }
        assertEquals(parent, tree.parent(fixedRoot));
        assertEquals(List.of(), to.verify());
      }
      assertTrue(to.valid(target));
    }
  }

  @Test
  void invalidEntitiesAreRefused() {
    final Registry registry = new Registry();
    final long gone = registry.create();
    registry.destroy(gone);
    final long live = registry.create();
    final EntityCloner cloner = EntityCloner.within(registry);
    assertThrows(IllegalArgumentException.class, () -> cloner.clone(gone));
    assertThrows(IllegalArgumentException.class, () -> cloner.cloneTree(gone));
    assertThrows(IllegalArgumentException.class, () -> cloner.cloneInto(live, gone));
    assertThrows(IllegalArgumentException.class, () -> cloner.cloneInto(gone, live));
    assertThrows(IllegalArgumentException.class, () -> Prefab.of(registry, gone));
    assertEquals(1, registry.alive());
    // A lone entity without links clones to a lone root, with no hierarchy created.
    final long copy = cloner.clone(live);
    assertTrue(registry.valid(copy));
    assertFalse(copy == live);
    assertEquals(2, registry.alive());
  }
}

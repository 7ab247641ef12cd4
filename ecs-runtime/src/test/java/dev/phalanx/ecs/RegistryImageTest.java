package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static dev.phalanx.ecs.GroupTypes.TS;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.AllPrimitivesStorageB.Mood;
import dev.phalanx.ecs.AllPrimitivesStorageB.Point;
import dev.phalanx.ecs.AllPrimitivesStorageB.Sample;
import dev.phalanx.ecs.GroupTypes.A;
import dev.phalanx.ecs.GroupTypes.B;
import dev.phalanx.ecs.GroupTypes.S;
import dev.phalanx.ecs.RegistryImage.ImageException;
import dev.phalanx.ecs.RegistryImage.ImageException.Rule;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link RegistryImage} and {@link Registry#restore}: every rule the image checks as it is built,
 * every refusal of the target, a restored world against the world it was taken from (seeded random
 * worlds with holes, recycled identifiers, groups and every column kind), and enter listeners that
 * throw at every k.
 */
class RegistryImageTest {

  private static final ComponentType<Sample, AllPrimitivesStorageB<Sample>> SWAP =
      AllPrimitivesStorageB.SWAP;
  private static final ComponentType<Sample, AllPrimitivesStorageB<Sample>> IN_PLACE =
      AllPrimitivesStorageB.IN_PLACE;
  private static final ComponentType<?, ?>[] TYPES = {SWAP, IN_PLACE, TA, TB, TS};

  @Test
  void identifiersMustBeExactlyTheIndicesWithoutTombstones() {
    final long[][] bad = {
      {Entity.of(0, 0), Entity.of(2, 0)},
      {Entity.of(1, 0), Entity.of(1, 3)},
      {Entity.of(0, 0), Entity.of(1, Entity.TOMBSTONE_VERSION)}
    };
    for (final long[] entities : bad) {
      final ImageException e =
          assertThrows(ImageException.class, () -> new RegistryImage(entities, 2, 2));
      assertEquals(Rule.IDENTIFIER, e.rule());
      assertEquals(1, e.position(), e.getMessage());
    }
    assertThrows(
        IllegalArgumentException.class,
        () -> new RegistryImage(new long[] {Entity.of(0, 0)}, 2, 1));
  }

  @Test
  void elementsMustBeLiveEntitiesOfTheImageOnceEach() {
    final long[] entities = {Entity.of(0, 1), Entity.of(1, 0), Entity.of(2, 5)};
    final RegistryImage image = new RegistryImage(entities, 3, 2);
    final ImageException released =
        assertThrows(
            ImageException.class,
            () -> image.elements(TA, new long[] {Entity.of(0, 1), Entity.of(2, 5)}, 2, -1));
    assertEquals(Rule.NOT_LIVE, released.rule());
    assertEquals(1, released.position());
    final ImageException version =
        assertThrows(
            ImageException.class, () -> image.elements(TA, new long[] {Entity.of(0, 0)}, 1, -1));
    assertEquals(Rule.NOT_LIVE, version.rule());
    final ImageException twice =
        assertThrows(
            ImageException.class,
            () -> image.elements(TA, new long[] {Entity.of(1, 0), Entity.of(1, 0)}, 2, -1));
    assertEquals(Rule.REPEATED, twice.rule());
    assertEquals(1, twice.position());
    // Refused calls kept nothing: the type may still be given.
    assertEquals(0, image.elements(TA, new long[] {Entity.of(1, 0), Entity.of(0, 1)}, 2, -1));
    assertEquals(
        Rule.VALUES,
        assertThrows(ImageException.class, () -> image.elements(TA, new long[0], 0, -1)).rule());
  }

  @Test
  void holesMustFormOneFreeList() {
    final long[] entities = {Entity.of(0, 0), Entity.of(1, 0)};
    final long hole = holeLinkingTo(-1);
    final RegistryImage image = new RegistryImage(entities, 2, 2);
    // Two holes, the list reaching one of them.
    final long[] packed = {holeLinkingTo(-1), Entity.of(0, 0), hole};
    final ImageException unreached =
        assertThrows(ImageException.class, () -> image.elements(TS, packed, 3, 0));
    assertEquals(Rule.FREE_LIST, unreached.rule());
    final long[] loop = {holeLinkingTo(0), Entity.of(0, 0)};
    assertEquals(
        Rule.FREE_LIST,
        assertThrows(ImageException.class, () -> image.elements(TS, loop, 2, 0)).rule());
    final long[] good = {holeLinkingTo(2), Entity.of(0, 0), holeLinkingTo(-1), Entity.of(1, 0)};
    assertEquals(2, image.elements(TS, good, 4, 0));
  }

  @Test
  void valuesMustFitTheirField() {
    final long[] entities = {Entity.of(0, 0), Entity.of(1, 0)};
    final RegistryImage image = new RegistryImage(entities, 2, 2);
    image.elements(SWAP, new long[] {Entity.of(0, 0), Entity.of(1, 0)}, 2, -1);
    image.elements(TA, new long[] {Entity.of(1, 0)}, 1, -1);
    assertValues(() -> image.column(SWAP, "count", new long[2]));
    assertValues(() -> image.column(SWAP, "count", new int[1]));
    assertValues(() -> image.column(SWAP, "nothing", new int[2]));
    assertValues(() -> image.column(SWAP, "name", new Object[] {"a", 3}));
    assertValues(() -> image.column(TA, "value", new Object[] {new B(1)}));
    image.column(SWAP, "count", new int[] {1, 2});
    assertValues(() -> image.column(SWAP, "count", new int[] {1, 2}));
    assertValues(() -> image.pages(SWAP, "ratio", new float[][] {new float[4]}));
    assertValues(() -> image.pages(SWAP, "name", new String[][] {new String[4]}));
    image.column(TA, "value", new Object[] {new A(7)});
  }

  /** Marker of {@link #CELLS}. */
  private static final class Cell {
    private Cell() {}
  }

  /** Two primitive fields, 4-element pages, a storage that adopts installed pages. */
  private static final ComponentType<PrimitiveColumnsStorageA.Row, PrimitiveColumnsStorageA> CELLS =
      PrimitiveColumnsStorageA.define(
          Cell.class,
          4,
          DeletionPolicy.SWAP_AND_POP,
          PrimitiveColumnsStorageA.Pages.KEEPS,
          PrimitiveColumnsStorageA.Col.of("x", int.class),
          PrimitiveColumnsStorageA.Col.of("y", float.class));

  @Test
  void pagesMustFitAndAllFieldsComeOneWay() {
    assertTrue(RegistryImage.adoptsPages(CELLS));
    final long[] entities = new long[6];
    final long[] packed = new long[6];
    for (int i = 0; i < 6; i++) {
      entities[i] = Entity.of(i, 0);
      packed[i] = entities[i];
    }
    final RegistryImage image = new RegistryImage(entities, 6, 6);
    assertEquals(6, image.count());
    assertEquals(6, image.alive());
    image.elements(CELLS, packed, 6, -1);
    // Six elements fill two pages of four.
    assertValues(() -> image.pages(CELLS, "x", new int[][] {new int[4]}));
    assertValues(() -> image.pages(CELLS, "x", new int[][] {new int[4], new int[3]}));
    assertValues(() -> image.pages(CELLS, "x", new int[][] {new int[4], null}));
    assertValues(() -> image.pages(CELLS, "x", new float[][] {new float[4], new float[4]}));
    image.pages(CELLS, "x", new int[][] {{1, 2, 3, 4}, {5, 6, 0, 0}});
    // Given as pages: the other field cannot come flat.
    assertValues(() -> image.column(CELLS, "y", new float[6]));
    final RegistryImage flat = new RegistryImage(entities.clone(), 6, 6);
    flat.elements(CELLS, packed.clone(), 6, -1);
    flat.column(CELLS, "y", new float[] {1, 2, 3, 4, 5, 6});
    assertValues(() -> flat.pages(CELLS, "x", new int[][] {new int[4], new int[4]}));

    final Registry registry = new Registry();
    registry.restore(image);
    final PrimitiveColumnsStorageA cells = registry.storage(CELLS);
    for (int i = 0; i < 6; i++) {
      assertEquals(i + 1, cells.valueAt(cells.indexOf(entities[i]), 0), "x of " + i);
      assertEquals(0f, cells.valueAt(cells.indexOf(entities[i]), 1), "y defaults");
    }
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aRestoredWorldIsTheWorldItWasTakenFrom() {
    for (int seed = 0; seed < 40; seed++) {
      final Registry source = randomWorld(new SplittableRandom(seed));
      final Registry target = new Registry();
      final OwningGroup group = target.owningGroup(TA, TB);
      target.restore(imageOf(source, seed % 2 == 0));
      assertSameWorld(source, target);
      assertEquals(source.owningGroup(TA, TB).size(), group.size(), "seed " + seed);
      assertEquals(List.of(), target.verify(), "seed " + seed);
    }
  }

  @Test
  void aClearedRegistryTakesAnImage() {
    final Registry source = randomWorld(new SplittableRandom(7));
    final Registry target = randomWorld(new SplittableRandom(8));
    target.clear();
    target.restore(imageOf(source, false));
    assertSameWorld(source, target);
    assertEquals(List.of(), target.verify());
  }

  @Test
  void theTargetIsCheckedBeforeAnyChange() {
    final Registry source = randomWorld(new SplittableRandom(3));
    final Registry live = new Registry();
    final long kept = live.create();
    assertThrows(IllegalStateException.class, () -> live.restore(imageOf(source, false)));
    assertEquals(1, live.alive());
    assertTrue(live.valid(kept));

    final Registry locked = new Registry();
    locked.storage(TA).lock("a test", this);
    final RegistryImage image = imageOf(source, false);
    assertThrows(ConcurrentModificationException.class, () -> locked.restore(image));
    assertEquals(0, locked.alive());
    assertEquals(0, locked.storage(TA).size());
    assertFalse(image.isRestored());
    locked.storage(TA).unlock();
    locked.restore(image);
    assertTrue(image.isRestored());
    assertThrows(IllegalStateException.class, () -> new Registry().restore(image));
  }

  @Test
  void enterListenersThatThrowAtEveryKLeaveTheWorldRestored() {
    final Registry source = randomWorld(new SplittableRandom(11));
    final int members = source.owningGroup(TA, TB).size();
    assertTrue(members > 3);
    for (int k = 1; k <= members + 1; k++) {
      final Registry target = new Registry();
      final OwningGroup group = target.owningGroup(TA, TB);
      final int[] calls = {0};
      final int throwAt = k;
      final List<RuntimeException> thrown = new ArrayList<>();
      group
          .onEnter()
          .connect(
              (registry, entity) -> {
                if (++calls[0] >= throwAt) {
                  final RuntimeException boom = new IllegalStateException("enter " + calls[0]);
                  thrown.add(boom);
                  throw boom;
                }
              });
      final RegistryImage image = imageOf(source, false);
      if (k <= members) {
        final RuntimeException e =
            assertThrows(IllegalStateException.class, () -> target.restore(image));
        assertSame(thrown.get(0), e, "k " + k);
        assertEquals(thrown.size() - 1, e.getSuppressed().length);
      } else {
        target.restore(image);
      }
      assertEquals(members, calls[0], "every member announced, k " + k);
      assertSameWorld(source, target);
      assertEquals(List.of(), target.verify(), "k " + k);
    }
  }

  // ---------------------------------------------------------------------------------------------

  private static long holeLinkingTo(final int next) {
    return Entity.of(next, Entity.TOMBSTONE_VERSION);
  }

  private static void assertValues(final Runnable call) {
    final ImageException e = assertThrows(ImageException.class, call::run);
    assertEquals(Rule.VALUES, e.rule(), e.getMessage());
  }

  private static Sample sample(final SplittableRandom random, final long target) {
    final int i = random.nextInt(1000);
    return new Sample(
        (i & 1) == 0,
        (byte) i,
        (short) (i * 3),
        (char) ('a' + i % 26),
        i,
        i * 1_000_000_007L,
        target,
        i / 7f,
        i / 3d,
        i % 5 == 0 ? null : "name " + i,
        Mood.values()[i % 3],
        i % 4 == 0 ? null : new Point(i, -i));
  }

  /** Creations, destructions (identifiers recycled), insertions and removals, holes included. */
  private static Registry randomWorld(final SplittableRandom random) {
    final Registry registry = new Registry();
    registry.owningGroup(TA, TB);
    final List<Long> live = new ArrayList<>();
    for (int step = 0; step < 400; step++) {
      final int op = random.nextInt(10);
      if (op < 4 || live.isEmpty()) {
        live.add(registry.create());
      } else {
        final long entity = live.get(random.nextInt(live.size()));
        switch (op) {
          case 4 -> {
            registry.destroy(entity);
            live.remove(entity);
          }
          case 5 -> registry.storage(SWAP).emplaceOrReplace(entity, sample(random, entity));
          case 6 -> registry.storage(IN_PLACE).emplaceOrReplace(entity, sample(random, entity));
          case 7 -> registry.storage(TA).emplaceOrReplace(entity, new A(random.nextInt()));
          case 8 -> registry.storage(TB).emplaceOrReplace(entity, new B(random.nextInt()));
          default -> {
            registry.storage(TS).emplaceOrReplace(entity, new S(random.nextInt()));
            registry.storage(IN_PLACE).remove(entity);
            registry.storage(SWAP).remove(entity);
          }
        }
      }
    }
    return registry;
  }

  /** The image of {@code source} through its public state; pages where the storage adopts them. */
  private static RegistryImage imageOf(final Registry source, final boolean paged) {
    final EntityStorage entities = source.entities();
    final RegistryImage image =
        new RegistryImage(entities.packed().clone(), entities.size(), entities.alive());
    for (final ComponentType<?, ?> type : TYPES) {
      final Storage<?> storage = source.storage(type);
      image.elements(type, storage.packed().clone(), storage.size(), storage.firstHole());
      storage.columns(new Flattener(image, type, storage.size(), storage.pageSize(), paged));
    }
    return image;
  }

  private static void assertSameWorld(final Registry expected, final Registry actual) {
    final EntityStorage want = expected.entities();
    final EntityStorage got = actual.entities();
    assertEquals(want.size(), got.size());
    assertEquals(want.alive(), got.alive());
    for (int at = 0; at < want.size(); at++) {
      assertEquals(want.packed()[at], got.packed()[at], "identifier " + at);
    }
    for (final ComponentType<?, ?> type : TYPES) {
      final Storage<?> from = expected.storage(type);
      final Storage<?> to = actual.storage(type);
      assertEquals(from.size(), to.size(), type.name());
      assertArrayEquals(
          java.util.Arrays.copyOf(from.packed(), from.size()),
          java.util.Arrays.copyOf(to.packed(), to.size()),
          type.name());
      for (int p = 0; p < from.size(); p++) {
        final long entity = from.packed()[p];
        if (!Entity.isTombstone(entity)) {
          assertEquals(from.get(entity), to.get(entity), type.name() + " at " + p);
        }
      }
      if (to.isEmpty()) {
        assertNull(to.tryGet(Entity.of(0, 0)));
      }
    }
  }

  /** Gives an image a storage's fields, flat or as page copies. */
  private static final class Flattener implements ColumnVisitor {
    private final RegistryImage image;
    private final ComponentType<?, ?> type;
    private final int size;
    private final int pageSize;
    private final boolean paged;

    Flattener(
        final RegistryImage image,
        final ComponentType<?, ?> type,
        final int size,
        final int pageSize,
        final boolean paged) {
      this.image = image;
      this.type = type;
      this.size = size;
      this.pageSize = pageSize;
      this.paged = paged && RegistryImage.adoptsPages(type);
    }

    @Override
    public void column(
        final String name, final Class<?> element, final boolean entityRef, final Object[] pages) {
      final int count = (size + pageSize - 1) / pageSize;
      if (paged) {
        final Object[] copies =
            (Object[]) Array.newInstance(pages.getClass().getComponentType(), count);
        for (int p = 0; p < count; p++) {
          copies[p] = Array.newInstance(element, pageSize);
          System.arraycopy(pages[p], 0, copies[p], 0, pageSize);
        }
        image.pages(type, name, copies);
        return;
      }
      final Object flat =
          element.isPrimitive() ? Array.newInstance(element, size) : new Object[size];
      for (int from = 0, p = 0; from < size; from += pageSize, p++) {
        System.arraycopy(pages[p], 0, flat, from, Math.min(pageSize, size - from));
      }
      image.column(type, name, flat);
    }
  }
}

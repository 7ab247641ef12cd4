package dev.phalanx.examples.components;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.ObjectStorage;
import dev.phalanx.ecs.SparseSet;
import java.lang.ref.Reference;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * Measures the bytes per entity of 1M {@link Position}s in the generated storage, in an {@link
 * ObjectStorage} of an equivalent record (objects included) and in a plain {@code float[]} pair,
 * two ways: computed from the array sizes (assuming a 64-bit JVM with compressed oops: 16-byte
 * array headers, 4-byte references, 24-byte two-float objects), and measured as the heap growth
 * after full garbage collections. Prints both; checks only that the generated storage is the
 * lighter one.
 */
class PositionFootprintTest {

  private static final int COUNT = 1_000_000;
  private static final long ARRAY_HEADER = 16;
  private static final long OBJECT_TWO_FLOATS = 24;

  /** The same data as {@link Position}, stored as objects. */
  record PlainPosition(float x, float y) {}

  @Test
  void bytesPerEntity() {
    final Position_Storage generated = Position_Traits.TYPE.createStorage();
    final ComponentType<PlainPosition, ObjectStorage<PlainPosition>> plainType =
        ComponentType.object(PlainPosition.class);

    final double generatedMeasured = measure(() -> fill(Position_Traits.TYPE.createStorage()));
    final double objectMeasured = measure(() -> fillObjects(plainType.createStorage()));
    final double floatsMeasured = measure(() -> new float[][] {new float[COUNT], new float[COUNT]});

    fill(generated);
    final ObjectStorage<PlainPosition> objects = fillObjects(plainType.createStorage());
    final long sets = sparseAndPacked(generated);
    final long generatedComputed =
        sets
            + pagesBytes(generated.xPages().length, generated.pageCount(), generated.pageSize(), 4)
                * 2;
    final long objectComputed =
        sparseAndPacked(objects)
            + pagesBytes(objects.pages().length, objects.pageCount(), objects.pageSize(), 4)
            + (long) COUNT * OBJECT_TWO_FLOATS;
    final long floatsComputed = 2 * (ARRAY_HEADER + 4L * COUNT);

    System.out.printf("Bytes per entity, %,d x Position(float x, float y):%n", COUNT);
    System.out.printf(
        "  %-38s computed %6.2f   measured %6.2f%n",
        "generated Position_Storage", perEntity(generatedComputed), generatedMeasured);
    System.out.printf(
        "  %-38s computed %6.2f   measured %6.2f%n",
        "  of which sparse + packed", perEntity(sets), Double.NaN);
    System.out.printf(
        "  %-38s computed %6.2f   measured %6.2f%n",
        "ObjectStorage<PlainPosition> + objects", perEntity(objectComputed), objectMeasured);
    System.out.printf(
        "  %-38s computed %6.2f   measured %6.2f%n",
        "float[] pair", perEntity(floatsComputed), floatsMeasured);
    assertTrue(generatedComputed < objectComputed);
  }

  private static Position_Storage fill(final Position_Storage storage) {
    for (int i = 0; i < COUNT; i++) {
      storage.emplace(Entity.of(i, 0), i, -i);
    }
    return storage;
  }

  private static ObjectStorage<PlainPosition> fillObjects(
      final ObjectStorage<PlainPosition> storage) {
    for (int i = 0; i < COUNT; i++) {
      storage.emplace(Entity.of(i, 0), new PlainPosition(i, -i));
    }
    return storage;
  }

  /** Sparse pages of 4096 ints for indices [0, COUNT), their outer array, and the packed longs. */
  private static long sparseAndPacked(final SparseSet set) {
    final long sparsePages = (COUNT + SparseSet.SPARSE_PAGE_SIZE - 1) / SparseSet.SPARSE_PAGE_SIZE;
    final long sparse =
        sparsePages * (ARRAY_HEADER + 4L * SparseSet.SPARSE_PAGE_SIZE)
            + ARRAY_HEADER
            + 4 * sparsePages;
    return sparse + ARRAY_HEADER + 8L * set.packed().length;
  }

  private static long pagesBytes(
      final int outerLength, final int pages, final int pageSize, final int elementBytes) {
    return ARRAY_HEADER
        + 4L * outerLength
        + pages * (ARRAY_HEADER + (long) elementBytes * pageSize);
  }

  private static double perEntity(final long bytes) {
    return bytes / (double) COUNT;
  }

  /** Returns the heap growth per entity while {@code build}'s result is reachable. */
  private static double measure(final Supplier<Object> build) {
    final long before = usedAfterGc();
    final Object kept = build.get();
    final long after = usedAfterGc();
    final double result = (after - before) / (double) COUNT;
    // Keep the structure reachable until after the second measurement.
    Reference.reachabilityFence(kept);
    return result;
  }

  private static long usedAfterGc() {
    final Runtime runtime = Runtime.getRuntime();
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      System.gc();
      used = Math.min(used, runtime.totalMemory() - runtime.freeMemory());
    }
    return used;
  }
}

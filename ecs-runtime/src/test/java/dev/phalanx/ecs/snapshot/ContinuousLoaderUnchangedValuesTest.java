package dev.phalanx.ecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.DeletionPolicy;
import dev.phalanx.ecs.PrimitiveColumnsStorageA;
import dev.phalanx.ecs.PrimitiveColumnsStorageA.Col;
import dev.phalanx.ecs.PrimitiveColumnsStorageA.Pages;
import dev.phalanx.ecs.PrimitiveColumnsStorageA.Row;
import dev.phalanx.ecs.Registry;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link ContinuousLoader} compares the values it loads with the mirror's, field kind by field
 * kind: a component whose values are all equal (primitives bit for bit) is left alone, with no
 * update; one whose value changed is rewritten and published as an update. Each type here has a
 * single field, so that one field kind alone decides.
 */
class ContinuousLoaderUnchangedValuesTest {

  static final class Flags {}

  static final class Tinies {}

  static final class Smalls {}

  static final class Letters {}

  static final class Counts {}

  static final class Bigs {}

  static final class Ratios {}

  static final class Precises {}

  private static ComponentType<Row, PrimitiveColumnsStorageA> single(
      final Class<?> marker, final String name, final Class<?> type) {
    return PrimitiveColumnsStorageA.define(
        marker, 4, DeletionPolicy.SWAP_AND_POP, Pages.KEEPS, Col.of(name, type));
  }

  static final ComponentType<Row, PrimitiveColumnsStorageA> FLAGS =
      single(Flags.class, "flag", boolean.class);
  static final ComponentType<Row, PrimitiveColumnsStorageA> TINIES =
      single(Tinies.class, "tiny", byte.class);
  static final ComponentType<Row, PrimitiveColumnsStorageA> SMALLS =
      single(Smalls.class, "small", short.class);
  static final ComponentType<Row, PrimitiveColumnsStorageA> LETTERS =
      single(Letters.class, "letter", char.class);
  static final ComponentType<Row, PrimitiveColumnsStorageA> COUNTS =
      single(Counts.class, "count", int.class);
  static final ComponentType<Row, PrimitiveColumnsStorageA> BIGS =
      single(Bigs.class, "big", long.class);
  static final ComponentType<Row, PrimitiveColumnsStorageA> RATIOS =
      single(Ratios.class, "ratio", float.class);
  static final ComponentType<Row, PrimitiveColumnsStorageA> PRECISES =
      single(Precises.class, "precise", double.class);

  /**
   * Each field kind with a value and a different one; for floats and doubles also NaN (equal to
   * itself bit for bit) and zero followed by negative zero (a different bit pattern).
   */
  static Stream<Arguments> kinds() {
    return Stream.of(
        Arguments.of(FLAGS, false, true),
        Arguments.of(FLAGS, true, false),
        Arguments.of(TINIES, (byte) 3, (byte) -3),
        Arguments.of(SMALLS, (short) 300, (short) -300),
        Arguments.of(LETTERS, 'a', 'b'),
        Arguments.of(COUNTS, 70_000, -70_000),
        Arguments.of(BIGS, 1L << 40, -(1L << 40)),
        Arguments.of(RATIOS, 1.5f, 2.5f),
        Arguments.of(RATIOS, Float.NaN, 0f),
        Arguments.of(RATIOS, 0f, -0f),
        Arguments.of(PRECISES, 1.5d, 2.5d),
        Arguments.of(PRECISES, Double.NaN, 0d),
        Arguments.of(PRECISES, 0d, -0d));
  }

  private static void load(final ContinuousLoader loader, final Registry remote)
      throws IOException {
    loader.load(ByteBuffer.wrap(LoaderWorlds.save(remote)));
  }

  /**
   * Loading the same snapshot again publishes no update (every value equal to the mirror's); then
   * changing one entity's value on the remote side rewrites exactly that entity's component,
   * published as one update, and the mirror holds the new value.
   */
  @ParameterizedTest
  @MethodSource("kinds")
  void onlyTheComponentWhoseValueChangedIsRewritten(
      final ComponentType<Row, PrimitiveColumnsStorageA> type,
      final Object first,
      final Object second)
      throws IOException {
    final Registry remote = new Registry();
    final long[] entities = new long[3];
    remote.create(entities);
    for (final long entity : entities) {
      remote.emplace(entity, type, Row.of(first));
    }
    final Registry local = new Registry();
    final ContinuousLoader loader = new ContinuousLoader(local).types(type);
    load(loader, remote);
    final List<Long> updated = new ArrayList<>();
    local.storage(type).onUpdate().connect((r, e) -> updated.add(e));

    load(loader, remote);
    assertEquals(List.of(), updated, "nothing changed");

    remote.replace(entities[1], type, Row.of(second));
    load(loader, remote);
    assertEquals(List.of(loader.map(entities[1])), updated, "one value changed");
    assertEquals(Row.of(second), local.get(loader.map(entities[1]), type));
    assertEquals(Row.of(first), local.get(loader.map(entities[0]), type));
    assertEquals(Row.of(first), local.get(loader.map(entities[2]), type));
  }
}

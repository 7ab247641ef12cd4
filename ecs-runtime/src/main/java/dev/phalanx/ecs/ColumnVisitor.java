package dev.phalanx.ecs;

/**
 * Receives the payload columns of a storage: one call per stored field, with the field's name and
 * its page array (the element at position {@code p} is {@code pages[p >>> pageShift()][p &
 * (pageSize() - 1)]}; pages {@code [0, pageCount())} exist). See {@link Storage#eachColumn}.
 *
 * <p>It is how snapshots ({@link dev.phalanx.ecs.snapshot.SnapshotWriter SnapshotWriter}, {@link
 * dev.phalanx.ecs.snapshot.SnapshotLoader SnapshotLoader}, {@link
 * dev.phalanx.ecs.snapshot.ContinuousLoader ContinuousLoader}, {@link
 * dev.phalanx.ecs.snapshot.SnapshotDump SnapshotDump}) read and write a storage's fields without
 * reflection and without an object per element: generated storages call one method per field, in
 * declaration order, handing over the field's own page array, and the snapshot code copies whole
 * pages. The page arrays are the storage's own (not copies): a visitor may read and write them, and
 * must not keep them.
 *
 * <p>A column is one abstraction: a name, an element type and a page array. A visitor that treats
 * every kind alike (copying or installing pages, filling defaults, describing fields) overrides
 * {@link #column} alone; one that reads values overrides the typed methods it needs, which hand
 * over the page array with its exact type. Each typed method calls {@link #column} unless
 * overridden, so a visitor ignores nothing by accident: what it does not override reaches {@code
 * column}, which by default does nothing.
 *
 * <p>For generated code and the runtime's storages; user code rarely implements it.
 */
public interface ColumnVisitor {

  /**
   * Any field, as its page array: what each typed method below calls unless overridden.
   *
   * @param name the field's name
   * @param type the element type: a primitive class ({@code float.class}, ...) or a reference
   *     field's erased class
   * @param entityRef whether the field holds entity handles ({@code @EntityRef}, {@code long}
   *     fields only): loaders remap them
   * @param pages the field's pages ({@code float[][]}, {@code String[][]}, ...)
   */
  default void column(String name, Class<?> type, boolean entityRef, Object[] pages) {}

  /**
   * A {@code boolean} field.
   *
   * @param name the field's name
   * @param pages the field's pages
   */
  default void booleans(String name, boolean[][] pages) {
    column(name, boolean.class, false, pages);
  }

  /**
   * A {@code byte} field.
   *
   * @param name the field's name
   * @param pages the field's pages
   */
  default void bytes(String name, byte[][] pages) {
    column(name, byte.class, false, pages);
  }

  /**
   * A {@code short} field.
   *
   * @param name the field's name
   * @param pages the field's pages
   */
  default void shorts(String name, short[][] pages) {
    column(name, short.class, false, pages);
  }

  /**
   * A {@code char} field.
   *
   * @param name the field's name
   * @param pages the field's pages
   */
  default void chars(String name, char[][] pages) {
    column(name, char.class, false, pages);
  }

  /**
   * An {@code int} field.
   *
   * @param name the field's name
   * @param pages the field's pages
   */
  default void ints(String name, int[][] pages) {
    column(name, int.class, false, pages);
  }

  /**
   * A {@code long} field.
   *
   * @param name the field's name
   * @param pages the field's pages
   * @param entityRef whether the field holds entity handles ({@code @EntityRef}): loaders remap
   *     them
   */
  default void longs(String name, long[][] pages, boolean entityRef) {
    column(name, long.class, entityRef, pages);
  }

  /**
   * A {@code float} field.
   *
   * @param name the field's name
   * @param pages the field's pages
   */
  default void floats(String name, float[][] pages) {
    column(name, float.class, false, pages);
  }

  /**
   * A {@code double} field.
   *
   * @param name the field's name
   * @param pages the field's pages
   */
  default void doubles(String name, double[][] pages) {
    column(name, double.class, false, pages);
  }

  /**
   * A reference field: {@link String} and enums are written natively, any other class through a
   * {@link dev.phalanx.ecs.snapshot.ValueCodec ValueCodec}.
   *
   * @param name the field's name
   * @param type the field's erased type
   * @param pages the field's pages (a {@code String[][]}, {@code List<?>[][]}, ...)
   */
  default void objects(String name, Class<?> type, Object[][] pages) {
    column(name, type, false, pages);
  }
}

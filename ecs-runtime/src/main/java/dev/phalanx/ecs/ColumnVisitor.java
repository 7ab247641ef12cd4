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
 * <p>For generated code and the runtime's storages; user code rarely implements it.
 */
public interface ColumnVisitor {

  /**
   * A {@code boolean} field.
   *
   * @param name the field's name
   * @param pages the field's pages
   */
  void booleans(String name, boolean[][] pages);

  /**
   * A {@code byte} field.
   *
   * @param name the field's name
   * @param pages the field's pages
   */
  void bytes(String name, byte[][] pages);

  /**
   * A {@code short} field.
   *
   * @param name the field's name
   * @param pages the field's pages
   */
  void shorts(String name, short[][] pages);

  /**
   * A {@code char} field.
   *
   * @param name the field's name
   * @param pages the field's pages
   */
  void chars(String name, char[][] pages);

  /**
   * An {@code int} field.
   *
   * @param name the field's name
   * @param pages the field's pages
   */
  void ints(String name, int[][] pages);

  /**
   * A {@code long} field.
   *
   * @param name the field's name
   * @param pages the field's pages
   * @param entityRef whether the field holds entity handles ({@code @EntityRef}): loaders remap
   *     them
   */
  void longs(String name, long[][] pages, boolean entityRef);

  /**
   * A {@code float} field.
   *
   * @param name the field's name
   * @param pages the field's pages
   */
  void floats(String name, float[][] pages);

  /**
   * A {@code double} field.
   *
   * @param name the field's name
   * @param pages the field's pages
   */
  void doubles(String name, double[][] pages);

  /**
   * A reference field: {@link String} and enums are written natively, any other class through a
   * {@link dev.phalanx.ecs.snapshot.ValueCodec ValueCodec}.
   *
   * @param name the field's name
   * @param type the field's erased type
   * @param pages the field's pages (a {@code String[][]}, {@code List<?>[][]}, ...)
   */
  void objects(String name, Class<?> type, Object[][] pages);
}

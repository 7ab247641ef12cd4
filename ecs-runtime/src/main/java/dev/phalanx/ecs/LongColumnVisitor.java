package dev.phalanx.ecs;

/**
 * A {@link ColumnVisitor} that reads only {@code long} columns, where entity references live: the
 * base of the visitors that find and rewrite {@code @EntityRef} fields.
 */
abstract class LongColumnVisitor implements ColumnVisitor {

  /** For subclasses. */
  LongColumnVisitor() {}

  @Override
  public final void booleans(final String name, final boolean[][] pages) {}

  @Override
  public final void bytes(final String name, final byte[][] pages) {}

  @Override
  public final void shorts(final String name, final short[][] pages) {}

  @Override
  public final void chars(final String name, final char[][] pages) {}

  @Override
  public final void ints(final String name, final int[][] pages) {}

  @Override
  public final void floats(final String name, final float[][] pages) {}

  @Override
  public final void doubles(final String name, final double[][] pages) {}

  @Override
  public final void objects(final String name, final Class<?> type, final Object[][] pages) {}
}

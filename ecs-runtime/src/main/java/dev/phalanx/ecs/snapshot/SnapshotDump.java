package dev.phalanx.ecs.snapshot;

import dev.phalanx.ecs.ColumnVisitor;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.EntityStorage;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.SparseSet;
import dev.phalanx.ecs.Storage;
import java.io.IOException;
import java.util.List;

/**
 * Writes a readable, JSON text of a registry or of chosen entities, built from the same column
 * metadata as snapshots ({@link Storage#eachColumn}): for debugging and tooling, not for loading.
 *
 * <pre>{@code
 * StringBuilder text = new StringBuilder();
 * SnapshotDump.write(registry, text);
 * }</pre>
 *
 * <p>The text has {@code entities} (live and released counts), {@code storages} (each type's key,
 * size and fields with their types) and {@code components}: one object per entity (live entities in
 * the entity storage's order, or the chosen ones) holding each of its components by type name, with
 * its fields. Floats and doubles print as Java does ({@code "NaN"} and infinities quoted), strings
 * and enums quoted, entity references as {@code "index:version"} or {@code null}, other references
 * through {@code String.valueOf}. O(entities × storages); it allocates freely.
 */
public final class SnapshotDump {

  private SnapshotDump() {}

  /**
   * Writes every live entity of {@code registry}.
   *
   * @param registry the registry
   * @param out where to write
   * @throws IOException if {@code out} fails
   */
  public static void write(final Registry registry, final Appendable out) throws IOException {
    final EntityStorage entities = registry.entities();
    write(registry, java.util.Arrays.copyOf(entities.packed(), entities.alive()), out);
  }

  /**
   * Writes the chosen entities of {@code registry}; invalid ones are listed as {@code "dead":
   * true}.
   *
   * @param registry the registry
   * @param chosen the entities
   * @param out where to write
   * @throws IOException if {@code out} fails
   */
  public static void write(final Registry registry, final long[] chosen, final Appendable out)
      throws IOException {
    final StringBuilder text = new StringBuilder();
    text.append("{\n  \"entities\": {\"alive\": ")
        .append(registry.alive())
        .append(", \"released\": ")
        .append(registry.entities().size() - registry.alive())
        .append("},\n  \"storages\": [");
    for (int i = 0; i < registry.storageCount(); i++) {
      final Storage<?> storage = registry.storageAt(i);
      text.append(0 == i ? "\n" : ",\n").append("    {\"type\": ");
      quote(text, SnapshotFormat.key(storage));
      text.append(", \"size\": ").append(storage.size()).append(", \"fields\": {");
      final List<SnapshotFormat.Column> columns = SnapshotFormat.columns(storage);
      for (int c = 0; c < columns.size(); c++) {
        text.append(0 == c ? "" : ", ");
        quote(text, columns.get(c).name());
        text.append(": ");
        quote(
            text,
            SnapshotFormat.CODEC == columns.get(c).code()
                    || SnapshotFormat.ENUM == columns.get(c).code()
                ? columns.get(c).type().getName()
                : SnapshotFormat.typeName(columns.get(c).code()));
      }
      text.append("}}");
    }
    text.append("\n  ],\n  \"components\": [");
    final Printer printer = new Printer(text);
    for (int e = 0; e < chosen.length; e++) {
      final long entity = chosen[e];
      text.append(0 == e ? "\n" : ",\n").append("    {\"entity\": ");
      reference(text, entity);
      if (!registry.valid(entity)) {
        text.append(", \"dead\": true}");
        continue;
      }
      for (int i = 0; i < registry.storageCount(); i++) {
        final Storage<?> storage = registry.storageAt(i);
        final int position = storage.indexOf(entity);
        if (SparseSet.ABSENT == position) {
          continue;
        }
        text.append(", ");
        quote(text, storage.type().name());
        text.append(": {");
        printer.start(storage, position);
        storage.columns(printer);
        text.append('}');
      }
      text.append('}');
    }
    text.append("\n  ]\n}\n");
    out.append(text);
  }

  private static void reference(final StringBuilder text, final long entity) {
    if (Entity.isNull(entity)) {
      text.append("null");
    } else {
      text.append('"')
          .append(Entity.index(entity))
          .append(':')
          .append(Integer.toUnsignedString(Entity.version(entity)))
          .append('"');
    }
  }

  private static void quote(final StringBuilder text, final String value) {
    text.append('"');
    for (int i = 0; i < value.length(); i++) {
      final char c = value.charAt(i);
      if ('"' == c || '\\' == c) {
        text.append('\\').append(c);
      } else if (c < 0x20) {
        text.append(String.format("\\u%04x", (int) c));
      } else {
        text.append(c);
      }
    }
    text.append('"');
  }

  /** Prints the fields of one element. */
  private static final class Printer implements ColumnVisitor {
    private final StringBuilder text;
    private int page;
    private int offset;
    private boolean first;

    Printer(final StringBuilder text) {
      this.text = text;
    }

    void start(final Storage<?> storage, final int position) {
      page = position >>> storage.pageShift();
      offset = position & (storage.pageSize() - 1);
      first = true;
    }

    private StringBuilder name(final String name) {
      text.append(first ? "" : ", ");
      first = false;
      quote(text, name);
      return text.append(": ");
    }

    private void number(final String name, final double value, final String printed) {
      if (Double.isNaN(value) || Double.isInfinite(value)) {
        quote(name(name), printed);
      } else {
        name(name).append(printed);
      }
    }

    @Override
    public void booleans(final String name, final boolean[][] pages) {
      name(name).append(pages[page][offset]);
    }

    @Override
    public void bytes(final String name, final byte[][] pages) {
      name(name).append(pages[page][offset]);
    }

    @Override
    public void shorts(final String name, final short[][] pages) {
      name(name).append(pages[page][offset]);
    }

    @Override
    public void chars(final String name, final char[][] pages) {
      quote(name(name), String.valueOf(pages[page][offset]));
    }

    @Override
    public void ints(final String name, final int[][] pages) {
      name(name).append(pages[page][offset]);
    }

    @Override
    public void longs(final String name, final long[][] pages, final boolean entityRef) {
      if (entityRef) {
        reference(name(name), pages[page][offset]);
      } else {
        name(name).append(pages[page][offset]);
      }
    }

    @Override
    public void floats(final String name, final float[][] pages) {
      number(name, pages[page][offset], Float.toString(pages[page][offset]));
    }

    @Override
    public void doubles(final String name, final double[][] pages) {
      number(name, pages[page][offset], Double.toString(pages[page][offset]));
    }

    @Override
    public void objects(final String name, final Class<?> type, final Object[][] pages) {
      final Object value = pages[page][offset];
      if (null == value) {
        name(name).append("null");
      } else {
        quote(
            name(name),
            value instanceof Enum<?> ? ((Enum<?>) value).name() : String.valueOf(value));
      }
    }
  }
}

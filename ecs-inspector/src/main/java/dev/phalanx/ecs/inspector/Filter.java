package dev.phalanx.ecs.inspector;

import com.fasterxml.jackson.databind.JsonNode;
import dev.phalanx.ecs.ColumnVisitor;
import dev.phalanx.ecs.ObjectStorage;
import dev.phalanx.ecs.SparseSet;
import dev.phalanx.ecs.Storage;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * One value test of {@code world.query}'s {@code where}: a component's field equal to a value
 * ({@code eq}) or within a range of numbers ({@code min}, {@code max}, either or both). The field
 * is read from the storage's columns (the pages the snapshots read), or, for an object storage,
 * from the stored value through the component's accessor. Parsing checks everything (the field
 * exists, the value fits its type, the range is a range of a number field) and changes nothing.
 *
 * <p>Made once per call: the column's pages are the storage's at the time of the call.
 */
final class Filter {

  private static final List<String> KEYS = List.of("field", "eq", "min", "max");

  /** The storage whose field is tested: the entity must have it. */
  final Storage<?> storage;

  private final String where;
  // The field's pages (a primitive or reference page array per page), or null for an accessor.
  private final Object[] pages;
  // For an object storage: the stored values' pages and the accessor's index in the codec.
  private final Object[][] values;
  private final Codec.Builder codec;
  private final int accessor;
  private final boolean equality;
  // Whether the field is a primitive number read from a column's pages, and whether integral.
  private final boolean primitiveNumber;
  private final boolean integral;
  private final Object expected;
  private final double min;
  private final double max;

  private Filter(
      final Storage<?> storage,
      final String where,
      final Class<?> type,
      final Object[] pages,
      final Codec.Builder codec,
      final int accessor,
      final JsonNode spec) {
    this.storage = storage;
    this.where = where;
    this.pages = pages;
    this.codec = codec;
    this.accessor = accessor;
    this.values = null == pages ? ((ObjectStorage<?>) storage).pages() : null;
    this.integral = isIntegral(type);
    this.primitiveNumber = null != pages && type.isPrimitive() && isNumber(type);
    final JsonNode eq = spec.get("eq");
    this.equality = spec.has("eq");
    if (equality) {
      if (spec.has("min") || spec.has("max")) {
        throw RpcError.params(where + ": give eq, or min and max, not both");
      }
      this.expected = codec.convert(eq, type, field(where));
      this.min = 0;
      this.max = 0;
    } else {
      if (!spec.has("min") && !spec.has("max")) {
        throw RpcError.params(where + ": give eq, or min and max (either or both)");
      }
      if (!isNumber(type)) {
        throw RpcError.params(
            where
                + " is a "
                + type.getSimpleName()
                + ": min and max apply to number fields only; use eq");
      }
      this.expected = null;
      this.min = bound(spec.get("min"), where + " min", Double.NEGATIVE_INFINITY);
      this.max = bound(spec.get("max"), where + " max", Double.POSITIVE_INFINITY);
      if (min > max) {
        throw RpcError.params(where + ": min " + min + " is above max " + max);
      }
    }
  }

  /**
   * Parses one test, {@code {"field": "Component.field", "eq": value}} or {@code {"field": ...,
   * "min": a, "max": b}}.
   *
   * @param methods finds the component and its codec
   */
  static Filter parse(final JsonNode spec, final String what, final Methods methods) {
    if (null == spec || !spec.isObject()) {
      throw RpcError.params(
          what
              + " must be an object like {\"field\": \"Health.points\", \"eq\": 100}, got "
              + (null == spec ? "nothing" : Codec.kind(spec)));
    }
    for (final Iterator<String> it = spec.fieldNames(); it.hasNext(); ) {
      final String key = it.next();
      if (!KEYS.contains(key)) {
        throw RpcError.params(
            what + " has no key \"" + Codec.clip(key) + "\"; it takes " + String.join(", ", KEYS));
      }
    }
    final JsonNode field = spec.get("field");
    if (null == field || !field.isTextual() || field.textValue().lastIndexOf('.') < 1) {
      throw RpcError.params(
          what + ".field must name a component's field, like \"Health.points\", got " + field);
    }
    final String path = field.textValue();
    final int dot = path.lastIndexOf('.');
    final Storage<?> storage = methods.storage(path.substring(0, dot));
    final String name = path.substring(dot + 1);
    final String where = "field " + name + " of " + storage.type().name();
    final Codec.Builder codec = methods.codec(storage);
    final Column column = Column.find(storage, name);
    if (null != column && !(storage instanceof ObjectStorage<?>)) {
      return new Filter(storage, where, column.type, column.pages, codec, -1, spec);
    }
    final int index = codec.names.indexOf(name);
    if (storage instanceof ObjectStorage<?> && index >= 0 && codec.writable()) {
      return new Filter(storage, where, codec.types.get(index), null, codec, index, spec);
    }
    final List<String> fields =
        storage instanceof ObjectStorage<?> ? codec.names : Column.names(storage);
    throw RpcError.params(
        "component "
            + storage.type().name()
            + " has no field \""
            + Codec.clip(name)
            + "\" to search"
            + (fields.isEmpty() ? " (it has no fields)" : "; its fields: " + fields));
  }

  /** {@return whether {@code entity}, which the caller knows to be alive, passes the test} */
  boolean test(final long entity) {
    final int position = storage.indexOf(entity);
    if (SparseSet.ABSENT == position) {
      return false;
    }
    if (primitiveNumber) {
      return testNumber(
          pages[position >>> storage.pageShift()], position & (storage.pageSize() - 1));
    }
    final Object value = read(position);
    if (equality) {
      if (null == value || null == expected) {
        return value == expected;
      }
      if (value instanceof Number number && expected instanceof Number wanted) {
        return integral
            ? number.longValue() == wanted.longValue()
            : same(number.doubleValue(), wanted.doubleValue());
      }
      return expected.equals(value);
    }
    if (!(value instanceof Number number)) {
      return false; // null
    }
    final double v = number.doubleValue();
    return v >= min && v <= max;
  }

  /** Tests a primitive number of a column's page without boxing it. */
  private boolean testNumber(final Object page, final int slot) {
    if (integral) {
      final long v = integralAt(page, slot);
      return equality ? v == ((Number) expected).longValue() : v >= min && v <= max;
    }
    final double v = page instanceof float[] floats ? floats[slot] : ((double[]) page)[slot];
    return equality ? same(v, ((Number) expected).doubleValue()) : v >= min && v <= max;
  }

  /** Equal as numbers ({@code -0.0} equals {@code 0.0}), or both NaN. */
  private static boolean same(final double a, final double b) {
    return a == b || (Double.isNaN(a) && Double.isNaN(b));
  }

  private static long integralAt(final Object page, final int slot) {
    if (page instanceof int[] ints) {
      return ints[slot];
    }
    if (page instanceof long[] longs) {
      return longs[slot];
    }
    if (page instanceof short[] shorts) {
      return shorts[slot];
    }
    return ((byte[]) page)[slot];
  }

  private Object read(final int position) {
    final int page = position >>> storage.pageShift();
    final int slot = position & (storage.pageSize() - 1);
    if (null == pages) {
      return codec.read(accessor, values[page][slot]);
    }
    return java.lang.reflect.Array.get(pages[page], slot);
  }

  private static double bound(final JsonNode node, final String what, final double fallback) {
    if (null == node || node.isNull()) {
      return fallback;
    }
    if (!node.isNumber()) {
      throw RpcError.params(what + " must be a number, got " + Codec.kind(node));
    }
    final double value = node.doubleValue();
    if (Double.isNaN(value)) {
      throw RpcError.params(what + " is not a number");
    }
    return value;
  }

  private static String field(final String where) {
    return where.substring("field ".length(), where.indexOf(" of "));
  }

  private static boolean isIntegral(final Class<?> type) {
    final Class<?> box = boxed(type);
    return box == Long.class || box == Integer.class || box == Short.class || box == Byte.class;
  }

  private static boolean isNumber(final Class<?> type) {
    final Class<?> box = boxed(type);
    return isIntegral(type) || box == Float.class || box == Double.class;
  }

  /** The box of a primitive type, else the type. */
  private static Class<?> boxed(final Class<?> type) {
    if (!type.isPrimitive()) {
      return type;
    }
    return java.lang.invoke.MethodType.methodType(type).wrap().returnType();
  }

  @Override
  public String toString() {
    return where;
  }

  /** A field's column, as {@link Storage#columns} hands it over. */
  private static final class Column {
    final Class<?> type;
    final Object[] pages;

    Column(final Class<?> type, final Object[] pages) {
      this.type = type;
      this.pages = pages;
    }

    static Column find(final Storage<?> storage, final String wanted) {
      final Column[] found = {null};
      storage.columns(
          new ColumnVisitor() {
            @Override
            public void column(
                final String name,
                final Class<?> type,
                final boolean entityRef,
                final Object[] pages) {
              if (name.equals(wanted)) {
                found[0] = new Column(type, pages);
              }
            }
          });
      return found[0];
    }

    static List<String> names(final Storage<?> storage) {
      final List<String> names = new ArrayList<>();
      storage.columns(
          new ColumnVisitor() {
            @Override
            public void column(
                final String name,
                final Class<?> type,
                final boolean entityRef,
                final Object[] pages) {
              names.add(name);
            }
          });
      return names;
    }
  }
}

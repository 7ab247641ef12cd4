package dev.phalanx.ecs.inspector;

import com.fasterxml.jackson.databind.JsonNode;
import dev.phalanx.ecs.EmptyStorage;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Storage;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns the protocol's JSON into entities and component values: parses handles, converts field
 * values to their Java types with range checks, and builds a component instance (a record through
 * its canonical constructor, a class through its public no-argument constructor and setters; the
 * fields not given are read from the current value, which is never changed). Everything here only
 * reads the world: building a value never changes a storage, so a call can build all its values
 * first and change the world only once every one of them is known to be good.
 *
 * <p>Reflection is used here, off every hot path: once per component type and call.
 */
final class Codec {

  private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
  private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

  private Codec() {}

  /** Formats an entity handle as the protocol does: {@code "index:version"}. */
  static String entity(final long entity) {
    return Entity.index(entity) + ":" + Integer.toUnsignedString(Entity.version(entity));
  }

  /**
   * Parses an entity handle: {@code "index:version"}, or the raw {@code long} handle as a number.
   *
   * @throws RpcError if it is neither
   */
  static long parseEntity(final JsonNode node, final String what) {
    if (null == node || node.isNull() || node.isMissingNode()) {
      throw RpcError.params(what + " is missing: give an entity as \"index:version\"");
    }
    if (node.isIntegralNumber()) {
      final BigInteger value = node.bigIntegerValue();
      if (value.compareTo(LONG_MIN) < 0 || value.compareTo(LONG_MAX) > 0) {
        throw RpcError.params(what + " " + value + " is not a 64-bit entity handle");
      }
      return value.longValue();
    }
    if (node.isTextual()) {
      final String text = node.textValue();
      final int colon = text.indexOf(':');
      if (colon > 0 && colon < text.length() - 1 && text.length() <= 24) {
        try {
          final int index = Integer.parseInt(text.substring(0, colon));
          final int version = Integer.parseUnsignedInt(text.substring(colon + 1));
          if (index >= 0) {
            return Entity.of(index, version);
          }
        } catch (NumberFormatException e) {
          // Falls through to the error below.
        }
      }
      throw RpcError.params(
          what
              + " \""
              + clip(text)
              + "\" is not an entity: expected \"index:version\", like \"3:0\"");
    }
    throw RpcError.params(
        what + " must be an entity as \"index:version\", got " + kind(node) + " " + clip(node));
  }

  /** Describes a JSON node's kind for messages. */
  static String kind(final JsonNode node) {
    return switch (node.getNodeType()) {
      case ARRAY -> "an array";
      case OBJECT, POJO -> "an object";
      case BOOLEAN -> "a boolean";
      case NUMBER -> "a number";
      case STRING -> "a string";
      case NULL -> "null";
      default -> "nothing";
    };
  }

  /** Clips a node's text for a message. */
  static String clip(final Object value) {
    final String text = String.valueOf(value);
    return text.length() <= 60 ? text : text.substring(0, 57) + "...";
  }

  /**
   * How to build the components of one type from JSON. Kinds: {@code tag} (no fields), {@code
   * record}, {@code bean} (a class with a public no-argument constructor and a setter per field),
   * {@code readonly} (the inspector cannot build it).
   */
  static final class Builder {
    private final String typeName;
    final String kind;
    final List<String> names = new ArrayList<>();
    final List<Class<?>> types = new ArrayList<>();
    // A type of the runtime's own packages: no write of the inspector may add, change or remove it.
    final boolean internal;
    private final String why;
    private Constructor<?> constructor;
    private final List<Method> accessors = new ArrayList<>();
    private final List<Method> setters = new ArrayList<>();

    Builder(final Storage<?> storage, final List<String> fieldNames) {
      this(
          storage.type().javaClass(),
          storage.type().name(),
          storage instanceof EmptyStorage<?>,
          fieldNames);
    }

    /**
     * A codec of a type that is not a component: a context value (a resource), its fields the
     * record's components or the bean's properties with a getter and a setter.
     */
    Builder(final Class<?> type) {
      this(type, type.getSimpleName(), false, properties(type));
    }

    private Builder(
        final Class<?> type,
        final String typeName,
        final boolean tag,
        final List<String> fieldNames) {
      this.typeName = typeName;
      String reason = null;
      String found;
      final String pkg = type.getPackageName();
      this.internal =
          "dev.phalanx.ecs".equals(pkg)
              || (pkg.startsWith("dev.phalanx.ecs.") && !pkg.equals(Codec.class.getPackageName()));
      if (internal) {
        // The runtime's own components (the hierarchy's links) keep invariants of their own.
        found = "readonly";
        reason = "it is kept by the runtime itself; change it through its own API";
      } else if (tag) {
        found = "tag";
      } else if (type.isRecord()) {
        found = "record";
        final RecordComponent[] components = type.getRecordComponents();
        final Class<?>[] parameterTypes = new Class<?>[components.length];
        for (int i = 0; i < components.length; i++) {
          names.add(components[i].getName());
          types.add(components[i].getType());
          parameterTypes[i] = components[i].getType();
          accessors.add(components[i].getAccessor());
        }
        try {
          constructor = type.getDeclaredConstructor(parameterTypes);
        } catch (NoSuchMethodException e) {
          reason = "it has no canonical constructor";
        }
      } else {
        found = "bean";
        try {
          constructor = type.getConstructor();
        } catch (NoSuchMethodException e) {
          reason = "it is neither a record nor a class with a public no-argument constructor";
        }
        for (final String name : fieldNames) {
          final Method setter = setter(type, name);
          final Method getter = getter(type, name);
          if (null == setter || null == getter) {
            reason =
                null == reason ? "it has no public getter and setter for field " + name : reason;
          } else {
            names.add(name);
            types.add(setter.getParameterTypes()[0]);
            setters.add(setter);
            accessors.add(getter);
          }
        }
      }
      if (null == reason && null != constructor) {
        reason = access(type, constructor);
        for (final Method method : accessors) {
          reason = null == reason ? access(type, method) : reason;
        }
      }
      this.why = reason;
      this.kind = null == reason ? found : "readonly";
    }

    private static Method setter(final Class<?> type, final String name) {
      final String wanted =
          "set" + name.substring(0, 1).toUpperCase(Locale.ROOT) + name.substring(1);
      for (final Method method : type.getMethods()) {
        if (method.getName().equals(wanted)
            && 1 == method.getParameterCount()
            && !Modifier.isStatic(method.getModifiers())) {
          return method;
        }
      }
      return null;
    }

    private static Method getter(final Class<?> type, final String name) {
      final String capital = name.substring(0, 1).toUpperCase(Locale.ROOT) + name.substring(1);
      for (final String wanted : List.of("get" + capital, "is" + capital, name)) {
        try {
          final Method method = type.getMethod(wanted);
          if (!Modifier.isStatic(method.getModifiers())) {
            return method;
          }
        } catch (NoSuchMethodException e) {
          // Tries the next form.
        }
      }
      return null;
    }

    private static String access(final Class<?> type, final java.lang.reflect.Executable member) {
      if (Modifier.isPublic(type.getModifiers()) && Modifier.isPublic(member.getModifiers())) {
        return null;
      }
      try {
        member.setAccessible(true);
        return null;
      } catch (RuntimeException e) {
        return "its " + member.getName() + " is not accessible to the inspector: " + e.getMessage();
      }
    }

    /** {@return the fields the inspector can write (primitives, boxes, String, enums)} */
    List<String> editable() {
      final List<String> editable = new ArrayList<>();
      if (writable()) {
        for (int i = 0; i < names.size(); i++) {
          final Class<?> type = types.get(i);
          if (type.isPrimitive()
              || type.isEnum()
              || type == String.class
              || type == Boolean.class
              || type == Character.class
              || (Number.class.isAssignableFrom(type) && type.getName().startsWith("java.lang."))) {
            editable.add(names.get(i));
          }
        }
      }
      return editable;
    }

    /**
     * Refuses a change of an internal type (the hierarchy's links): added, replaced or removed, it
     * is kept through the runtime's own API, never by a raw write.
     *
     * @throws RpcError if the type is internal
     */
    void checkChangeable() {
      if (internal) {
        throw RpcError.params("component " + name() + " is read-only: " + why);
      }
    }

    /** {@return whether the inspector can build values of this type} */
    boolean writable() {
      return !"readonly".equals(kind);
    }

    String name() {
      return typeName;
    }

    /** {@return the value of each field of {@code value}, by name} */
    Map<String, Object> values(final Object value) {
      final Map<String, Object> values = new LinkedHashMap<>();
      for (int i = 0; i < names.size() && i < accessors.size(); i++) {
        values.put(names.get(i), invoke(accessors.get(i), value));
      }
      return values;
    }

    /** The properties of a class with a getter and a setter, by name, sorted. */
    private static List<String> properties(final Class<?> type) {
      final List<String> names = new ArrayList<>();
      for (final Method method : type.getMethods()) {
        final String name = method.getName();
        if (name.startsWith("set")
            && name.length() > 3
            && 1 == method.getParameterCount()
            && !Modifier.isStatic(method.getModifiers())) {
          final String field = Character.toLowerCase(name.charAt(3)) + name.substring(4);
          if (null != getter(type, field)) {
            names.add(field);
          }
        }
      }
      java.util.Collections.sort(names);
      return names;
    }

    /**
     * Builds a value from {@code fields}: missing fields take {@code current}'s value if given,
     * else their type's default (0, false, null). Changes nothing.
     *
     * @throws RpcError naming the field if a value is wrong, or if the type is not writable
     */
    Object build(final JsonNode fields, final Object current) {
      checkChangeable();
      if (!writable()) {
        throw RpcError.params(
            "component " + name() + " cannot be written through the inspector: " + why);
      }
      if (null != fields && !fields.isNull() && !fields.isObject()) {
        throw RpcError.params(
            "the value of component "
                + name()
                + " must be an object of fields, got "
                + kind(fields));
      }
      final Map<String, JsonNode> given = new LinkedHashMap<>();
      if (null != fields && fields.isObject()) {
        for (final Map.Entry<String, JsonNode> field : fields.properties()) {
          if (!names.contains(field.getKey())) {
            throw RpcError.params(
                "component "
                    + name()
                    + " has no field \""
                    + clip(field.getKey())
                    + "\""
                    + (names.isEmpty() ? " (it has no fields)" : "; its fields: " + names));
          }
          given.put(field.getKey(), field.getValue());
        }
      }
      if ("tag".equals(kind)) {
        return null;
      }
      final Object[] values = new Object[names.size()];
      for (int i = 0; i < values.length; i++) {
        final JsonNode node = given.get(names.get(i));
        if (null != node) {
          values[i] = convert(node, types.get(i), names.get(i));
        } else if (null != current) {
          values[i] = invoke(accessors.get(i), current);
        } else {
          values[i] = defaultValue(types.get(i));
        }
      }
      try {
        if ("record".equals(kind)) {
          return constructor.newInstance(values);
        }
        // A new instance: the current one may be the world's own (an object storage's).
        final Object bean = constructor.newInstance();
        for (int i = 0; i < values.length; i++) {
          setters.get(i).invoke(bean, values[i]);
        }
        return bean;
      } catch (InvocationTargetException e) {
        throw RpcError.params(name() + " refused the value: " + String.valueOf(e.getCause()));
      } catch (ReflectiveOperationException | IllegalArgumentException e) {
        throw RpcError.params("cannot build a " + name() + ": " + e);
      }
    }

    private static Object invoke(final Method accessor, final Object target) {
      try {
        return accessor.invoke(target);
      } catch (InvocationTargetException e) {
        throw new RpcError(
            RpcError.INTERNAL_ERROR,
            accessor.getDeclaringClass().getSimpleName()
                + "."
                + accessor.getName()
                + "() threw "
                + e.getCause()
                + "; nothing was changed");
      } catch (ReflectiveOperationException e) {
        throw new RpcError(RpcError.INTERNAL_ERROR, "cannot read " + accessor + ": " + e);
      }
    }

    /** Reads field {@code index} of {@code value} (a value this codec builds), or null. */
    Object read(final int index, final Object value) {
      return null == value ? null : invoke(accessors.get(index), value);
    }

    /** {@return the constants of each enum field, by field} */
    Map<String, List<String>> enums() {
      final Map<String, List<String>> enums = new LinkedHashMap<>();
      for (int i = 0; i < names.size(); i++) {
        if (types.get(i).isEnum()) {
          final List<String> constants = new ArrayList<>();
          for (final Object constant : types.get(i).getEnumConstants()) {
            constants.add(((Enum<?>) constant).name());
          }
          enums.put(names.get(i), constants);
        }
      }
      return enums;
    }

    /** Converts {@code node} to {@code type}, checking its kind and range. */
    Object convert(final JsonNode node, final Class<?> type, final String field) {
      final String where = "field " + field + " of " + name();
      if (node.isNull()) {
        if (type.isPrimitive()) {
          throw RpcError.params(where + " is a " + type + " and cannot be null");
        }
        return null;
      }
      if (type == boolean.class || type == Boolean.class) {
        if (!node.isBoolean()) {
          throw wrong(where, "a boolean", node);
        }
        return node.booleanValue();
      }
      if (type == char.class || type == Character.class) {
        if (!node.isTextual() || 1 != node.textValue().length()) {
          throw wrong(where, "a char (a string of one character)", node);
        }
        return node.textValue().charAt(0);
      }
      if (type == long.class || type == Long.class) {
        if (node.isTextual()) {
          return parseEntity(node, where);
        }
        return integral(node, where, Long.MIN_VALUE, Long.MAX_VALUE, "a long");
      }
      if (type == int.class || type == Integer.class) {
        return (int) integral(node, where, Integer.MIN_VALUE, Integer.MAX_VALUE, "an int");
      }
      if (type == short.class || type == Short.class) {
        return (short) integral(node, where, Short.MIN_VALUE, Short.MAX_VALUE, "a short");
      }
      if (type == byte.class || type == Byte.class) {
        return (byte) integral(node, where, Byte.MIN_VALUE, Byte.MAX_VALUE, "a byte");
      }
      if (type == double.class || type == Double.class) {
        return real(node, where, Double.MAX_VALUE, "a double");
      }
      if (type == float.class || type == Float.class) {
        return (float) real(node, where, Float.MAX_VALUE, "a float");
      }
      if (type == String.class) {
        if (!node.isTextual()) {
          throw wrong(where, "a string", node);
        }
        return node.textValue();
      }
      if (type.isEnum()) {
        if (node.isTextual()) {
          for (final Object constant : type.getEnumConstants()) {
            if (((Enum<?>) constant).name().equals(node.textValue())) {
              return constant;
            }
          }
        }
        final List<String> constants = new ArrayList<>();
        for (final Object constant : type.getEnumConstants()) {
          constants.add(((Enum<?>) constant).name());
        }
        throw wrong(where, "one of " + constants, node);
      }
      throw RpcError.params(
          where
              + " has type "
              + type.getName()
              + ", which the inspector cannot write (only primitives, their boxes, String, enums"
              + " and entity references)");
    }

    private static long integral(
        final JsonNode node,
        final String where,
        final long min,
        final long max,
        final String what) {
      if (!node.isIntegralNumber()) {
        throw wrong(where, what + " (a whole number)", node);
      }
      final BigInteger value = node.bigIntegerValue();
      if (value.compareTo(BigInteger.valueOf(min)) < 0
          || value.compareTo(BigInteger.valueOf(max)) > 0) {
        throw RpcError.params(
            where + " is " + what + ", in [" + min + ", " + max + "]; " + clip(value) + " is not");
      }
      return value.longValue();
    }

    private static double real(
        final JsonNode node, final String where, final double max, final String what) {
      if (node.isTextual()) {
        return switch (node.textValue()) {
          case "NaN" -> Double.NaN;
          case "Infinity" -> Double.POSITIVE_INFINITY;
          case "-Infinity" -> Double.NEGATIVE_INFINITY;
          default ->
              throw wrong(
                  where, what + " (a number, \"NaN\", \"Infinity\" or \"-Infinity\")", node);
        };
      }
      if (!node.isNumber()) {
        throw wrong(where, what, node);
      }
      final BigDecimal value = node.decimalValue();
      // A huge exponent stays cheap: the magnitude is checked from precision and scale first.
      if (value.precision() - value.scale() > 310 || Math.abs(value.doubleValue()) > max) {
        throw RpcError.params(where + " is " + what + "; " + clip(value) + " is out of its range");
      }
      final double result = value.doubleValue();
      // Underflow: a non-zero value that the field would hold as zero is refused, not rounded.
      if (0 != value.signum() && (Float.MAX_VALUE == max ? 0f == (float) result : 0.0 == result)) {
        throw RpcError.params(
            where + " is " + what + "; " + clip(value) + " is too small for it (it would be 0)");
      }
      return result;
    }

    private static RpcError wrong(final String where, final String what, final JsonNode node) {
      return RpcError.params(where + " must be " + what + ", got " + kind(node) + " " + clip(node));
    }

    private static Object defaultValue(final Class<?> type) {
      if (!type.isPrimitive()) {
        return null;
      }
      if (type == boolean.class) {
        return false;
      }
      if (type == char.class) {
        return '\0';
      }
      if (type == long.class) {
        return 0L;
      }
      if (type == double.class) {
        return 0.0;
      }
      if (type == float.class) {
        return 0f;
      }
      if (type == int.class) {
        return 0;
      }
      if (type == short.class) {
        return (short) 0;
      }
      return (byte) 0;
    }
  }
}

package dev.phalanx.ecs.snapshot;

import dev.phalanx.ecs.ColumnVisitor;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.VoidStorage;
import java.util.ArrayList;
import java.util.List;

/**
 * The constants of the snapshot format (documented in {@code docs/snapshot-format.md}) and the
 * helpers that describe a storage's columns: type codes, type keys, and a visitor that lists the
 * columns of a storage without touching its elements.
 */
final class SnapshotFormat {

  /** The first four bytes of every snapshot: {@code PHNX}. */
  static final byte[] MAGIC = {'P', 'H', 'N', 'X'};

  /** The last four bytes of every snapshot: {@code END!}. */
  static final byte[] END = {'E', 'N', 'D', '!'};

  /** The format version this runtime writes and the newest it reads. */
  static final int VERSION = 1;

  /** Header flag: the entity section is the whole entity storage (restorable as is). */
  static final int FLAG_FULL = 1;

  static final byte BOOLEAN = 1;
  static final byte BYTE = 2;
  static final byte SHORT = 3;
  static final byte CHAR = 4;
  static final byte INT = 5;
  static final byte LONG = 6;
  static final byte ENTITY = 7;
  static final byte FLOAT = 8;
  static final byte DOUBLE = 9;
  static final byte STRING = 10;
  static final byte ENUM = 11;
  static final byte CODEC = 12;

  private static final String[] NAMES = {
    "?",
    "boolean",
    "byte",
    "short",
    "char",
    "int",
    "long",
    "@EntityRef long",
    "float",
    "double",
    "String",
    "enum",
    "object"
  };

  private SnapshotFormat() {}

  /** Returns the name of a type code, for messages and dumps. */
  static String typeName(final int code) {
    return code > 0 && code < NAMES.length ? NAMES[code] : "unknown type code " + code;
  }

  /** Returns the bytes per element of a primitive code, or 0 for a variable-length one. */
  static int width(final int code) {
    return switch (code) {
      case BOOLEAN, BYTE -> 1;
      case SHORT, CHAR -> 2;
      case INT, FLOAT -> 4;
      case LONG, ENTITY, DOUBLE -> 8;
      default -> 0;
    };
  }

  /**
   * Returns the key naming a storage's type in snapshots: {@code class:<binary name>} or {@code
   * void:<name>}.
   */
  static String key(final Storage<?> storage) {
    return storage instanceof VoidStorage
        ? "void:" + storage.type().name()
        : classKey(storage.type().javaClass().getName());
  }

  /** Returns the key of {@code type}. */
  static String key(final ComponentType<?, ?> type) {
    return Void.class == type.javaClass()
        ? "void:" + type.name()
        : classKey(type.javaClass().getName());
  }

  /** Returns the key of the component class of binary name {@code binaryName}. */
  static String classKey(final String binaryName) {
    return "class:" + binaryName;
  }

  /** One column of a storage: its name, type code and, for references, its class. */
  record Column(String name, byte code, Class<?> type) {}

  /** Returns the columns of {@code storage}, in declaration order. */
  static List<Column> columns(final Storage<?> storage) {
    final List<Column> columns = new ArrayList<>();
    storage.columns(
        new ColumnVisitor() {
          @Override
          public void column(
              final String name,
              final Class<?> type,
              final boolean entityRef,
              final Object[] pages) {
            columns.add(new Column(name, code(type, entityRef), type));
          }
        });
    return columns;
  }

  /** Returns the code of a column of element type {@code type}. */
  static byte code(final Class<?> type, final boolean entityRef) {
    if (long.class == type) {
      return entityRef ? ENTITY : LONG;
    }
    if (boolean.class == type) {
      return BOOLEAN;
    } else if (byte.class == type) {
      return BYTE;
    } else if (short.class == type) {
      return SHORT;
    } else if (char.class == type) {
      return CHAR;
    } else if (int.class == type) {
      return INT;
    } else if (float.class == type) {
      return FLOAT;
    } else if (double.class == type) {
      return DOUBLE;
    }
    return objectCode(type);
  }

  /** Returns the code of a reference column of class {@code type}. */
  static byte objectCode(final Class<?> type) {
    if (String.class == type) {
      return STRING;
    }
    return type.isEnum() ? ENUM : CODEC;
  }
}

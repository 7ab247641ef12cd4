package dev.phalanx.ecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.phalanx.ecs.AllPrimitivesStorageB;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.VoidStorage;
import java.io.EOFException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The snapshot format's constants as {@code docs/snapshot-format.md} lists them: type codes, their
 * names and widths, the keys naming storages, the columns of a storage, and the offset in the
 * messages of {@link SnapshotFormatException}.
 */
class SnapshotFormatCodesTest {

  /** Codes 1 to 12 have names; anything else is reported as an unknown code. */
  @Test
  void typeCodesHaveTheirNames() {
    final List<String> names =
        List.of(
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
            "object");
    for (int code = 1; code <= 12; code++) {
      assertEquals(names.get(code - 1), SnapshotFormat.typeName(code));
    }
    assertEquals("unknown type code 0", SnapshotFormat.typeName(0));
    assertEquals("unknown type code 13", SnapshotFormat.typeName(13));
    assertEquals("unknown type code -1", SnapshotFormat.typeName(-1));
  }

  /** Primitive codes have their byte widths; variable-length ones have none. */
  @Test
  void primitiveCodesHaveTheirWidths() {
    final int[] widths = {0, 1, 1, 2, 2, 4, 8, 8, 4, 8, 0, 0, 0, 0};
    for (int code = 0; code < widths.length; code++) {
      assertEquals(widths[code], SnapshotFormat.width(code), "code " + code);
    }
  }

  /** A storage's key is {@code class:<binary name>}, or {@code void:<name>} for a void type. */
  @Test
  void keysNameTheClassOrTheVoidTypesName() {
    final ComponentType<Void, VoidStorage> named = ComponentType.named("format-codes-test");
    assertEquals("void:format-codes-test", SnapshotFormat.key(named));
    assertEquals(
        "class:dev.phalanx.ecs.AllPrimitivesStorageB$SwapSample",
        SnapshotFormat.key(AllPrimitivesStorageB.SWAP));
    final Registry registry = new Registry();
    assertEquals("void:format-codes-test", SnapshotFormat.key(registry.storage(named)));
    assertEquals(
        SnapshotFormat.key(AllPrimitivesStorageB.SWAP),
        SnapshotFormat.key(registry.storage(AllPrimitivesStorageB.SWAP)));
  }

  /** Columns come in declaration order, with their codes; strings, enums and others differ. */
  @Test
  void columnsListEveryFieldWithItsCode() {
    final Registry registry = new Registry();
    final List<SnapshotFormat.Column> columns =
        SnapshotFormat.columns(registry.storage(AllPrimitivesStorageB.SWAP));
    assertEquals(12, columns.size());
    for (int i = 0; i < 12; i++) {
      assertEquals(i + 1, columns.get(i).code(), columns.get(i).name());
    }
    assertEquals("target", columns.get(6).name());
    assertSame(AllPrimitivesStorageB.Mood.class, columns.get(10).type());
    assertSame(AllPrimitivesStorageB.Point.class, columns.get(11).type());
  }

  /** The message names the offset when there is one (byte 0 included), and keeps the cause. */
  @Test
  void exceptionsNameTheirOffset() {
    assertEquals("bad (at byte 0)", new SnapshotFormatException(0, "bad").getMessage());
    assertEquals(0, new SnapshotFormatException(0, "bad").offset());
    assertEquals("bad", new SnapshotFormatException(-1, "bad").getMessage());
    assertEquals(-1, new SnapshotFormatException(-1, "bad").offset());
    final EOFException cause = new EOFException();
    final SnapshotFormatException withCause = new SnapshotFormatException(12, "worse", cause);
    assertEquals("worse (at byte 12)", withCause.getMessage());
    assertEquals(12, withCause.offset());
    assertSame(cause, withCause.getCause());
    final SnapshotFormatException noOffset = new SnapshotFormatException(-1, "worse", cause);
    assertEquals("worse", noOffset.getMessage());
    assertEquals(
        "at zero (at byte 0)", new SnapshotFormatException(0, "at zero", cause).getMessage());
  }
}

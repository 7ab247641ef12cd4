package dev.phalanx.ecs.snapshot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.phalanx.ecs.AllPrimitivesStorageB;
import dev.phalanx.ecs.AllPrimitivesStorageB.Mood;
import dev.phalanx.ecs.AllPrimitivesStorageB.Point;
import dev.phalanx.ecs.AllPrimitivesStorageB.Sample;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * The exact text of {@link SnapshotDump}: every column type printed as documented (numbers bare,
 * non-finite floats and doubles quoted, chars, strings and enums quoted and escaped, entity
 * references as {@code "index:version"} with an unsigned version, other references through {@code
 * String.valueOf}), elements found on any page, and the separators of a well-formed JSON text.
 */
class SnapshotDumpTextTest {

  private static final String FIELDS =
      "\"fields\": {\"flag\": \"boolean\", \"tiny\": \"byte\", \"small\": \"short\", \"letter\":"
          + " \"char\", \"count\": \"int\", \"big\": \"long\", \"target\": \"@EntityRef long\","
          + " \"ratio\": \"float\", \"precise\": \"double\", \"name\": \"String\", \"mood\":"
          + " \"dev.phalanx.ecs.AllPrimitivesStorageB$Mood\", \"point\":"
          + " \"dev.phalanx.ecs.AllPrimitivesStorageB$Point\"}";

  private static Sample zero() {
    return new Sample(false, (byte) 0, (short) 0, 'a', 0, 0L, Entity.NULL, 0f, 0d, "", null, null);
  }

  /** The chosen-entities form: every value kind, an element on the second page, a dead entity. */
  @Test
  void everyColumnTypeIsPrintedAsDocumented() throws IOException {
    final Registry registry = new Registry();
    final AllPrimitivesStorageB<Sample> swap = registry.storage(AllPrimitivesStorageB.SWAP);
    final AllPrimitivesStorageB<Sample> inPlace = registry.storage(AllPrimitivesStorageB.IN_PLACE);
    final long a = registry.create();
    final long b = registry.create();
    final long gone = registry.create();
    final long d = registry.create();
    final long e = registry.create();
    registry.destroy(gone);
    final long f = registry.create(); // recycles index 2, version 1
    assertEquals(Entity.of(2, 1), f);
    registry.emplace(
        a,
        AllPrimitivesStorageB.SWAP,
        new Sample(
            true,
            (byte) -7,
            (short) -300,
            'q',
            42,
            Long.MIN_VALUE,
            b,
            1.5f,
            -0.25,
            "plain",
            Mood.ANGRY,
            new Point(1, 2)));
    registry.emplace(
        b,
        AllPrimitivesStorageB.SWAP,
        new Sample(
            false,
            Byte.MAX_VALUE,
            Short.MAX_VALUE,
            '"',
            -1,
            5L,
            Entity.NULL,
            Float.NaN,
            Double.POSITIVE_INFINITY,
            null,
            null,
            null));
    registry.emplace(
        d,
        AllPrimitivesStorageB.SWAP,
        new Sample(
            false,
            (byte) 0,
            (short) 0,
            '\u0001',
            0,
            0L,
            Entity.of(7, -2),
            Float.NEGATIVE_INFINITY,
            Double.NaN,
            "tab\there \\ \"q\"\u001f",
            Mood.CALM,
            new Point(-1, 0)));
    registry.emplace(e, AllPrimitivesStorageB.SWAP, zero());
    registry.emplace(
        f,
        AllPrimitivesStorageB.SWAP,
        new Sample(
            true,
            (byte) 1,
            (short) 2,
            'z',
            3,
            4L,
            a,
            0.1f,
            1e300,
            "\u00e9",
            Mood.SLEEPY,
            new Point(3, 4)));
    assertEquals(4, swap.indexOf(f)); // first element of the second 4-element page
    registry.emplace(a, AllPrimitivesStorageB.IN_PLACE, zero());
    registry.emplace(d, AllPrimitivesStorageB.IN_PLACE, zero());
    registry.remove(a, AllPrimitivesStorageB.IN_PLACE); // a hole: the size stays 2
    assertEquals(2, inPlace.size());

    final StringBuilder text = new StringBuilder();
    SnapshotDump.write(registry, new long[] {f, a, b, Entity.of(9, 3), d, e}, text);
    assertEquals(
        "{\n"
            + "  \"entities\": {\"alive\": 5, \"released\": 0},\n"
            + "  \"storages\": [\n"
            + "    {\"type\": \"class:dev.phalanx.ecs.AllPrimitivesStorageB$SwapSample\","
            + " \"size\": 5, "
            + FIELDS
            + "},\n"
            + "    {\"type\": \"class:dev.phalanx.ecs.AllPrimitivesStorageB$InPlaceSample\","
            + " \"size\": 2, "
            + FIELDS
            + "}\n"
            + "  ],\n"
            + "  \"components\": [\n"
            + "    {\"entity\": \"2:1\", \"SwapSample\": {\"flag\": true, \"tiny\": 1, \"small\":"
            + " 2, \"letter\": \"z\", \"count\": 3, \"big\": 4, \"target\": \"0:0\", \"ratio\":"
            + " 0.1, \"precise\": 1.0E300, \"name\": \"\u00e9\", \"mood\": \"SLEEPY\", \"point\":"
            + " \"Point[x=3, y=4]\"}},\n"
            + "    {\"entity\": \"0:0\", \"SwapSample\": {\"flag\": true, \"tiny\": -7, \"small\":"
            + " -300, \"letter\": \"q\", \"count\": 42, \"big\": -9223372036854775808, \"target\":"
            + " \"1:0\", \"ratio\": 1.5, \"precise\": -0.25, \"name\": \"plain\", \"mood\":"
            + " \"ANGRY\", \"point\": \"Point[x=1, y=2]\"}},\n"
            + "    {\"entity\": \"1:0\", \"SwapSample\": {\"flag\": false, \"tiny\": 127,"
            + " \"small\": 32767, \"letter\": \"\\\"\", \"count\": -1, \"big\": 5, \"target\":"
            + " null, \"ratio\": \"NaN\", \"precise\": \"Infinity\", \"name\": null, \"mood\":"
            + " null, \"point\": null}},\n"
            + "    {\"entity\": \"9:3\", \"dead\": true},\n"
            + "    {\"entity\": \"3:0\", \"SwapSample\": {\"flag\": false, \"tiny\": 0, \"small\":"
            + " 0, \"letter\": \"\\u0001\", \"count\": 0, \"big\": 0, \"target\": \"7:4294967294\","
            + " \"ratio\": \"-Infinity\", \"precise\": \"NaN\", \"name\": \"tab\\u0009here \\\\"
            + " \\\"q\\\"\\u001f\", \"mood\": \"CALM\", \"point\": \"Point[x=-1, y=0]\"},"
            + " \"InPlaceSample\": {\"flag\": false, \"tiny\": 0, \"small\": 0, \"letter\": \"a\","
            + " \"count\": 0, \"big\": 0, \"target\": null, \"ratio\": 0.0, \"precise\": 0.0,"
            + " \"name\": \"\", \"mood\": null, \"point\": null}},\n"
            + "    {\"entity\": \"4:0\", \"SwapSample\": {\"flag\": false, \"tiny\": 0, \"small\":"
            + " 0, \"letter\": \"a\", \"count\": 0, \"big\": 0, \"target\": null, \"ratio\": 0.0,"
            + " \"precise\": 0.0, \"name\": \"\", \"mood\": null, \"point\": null}}\n"
            + "  ]\n"
            + "}\n",
        text.toString());
  }

  /** The whole-registry form lists the live entities in the entity storage's order. */
  @Test
  void theWholeRegistryFormListsLiveEntitiesAndCountsReleasedOnes() throws IOException {
    final Registry registry = new Registry();
    final long a = registry.create();
    final long b = registry.create();
    final long c = registry.create();
    registry.destroy(b);
    registry.emplace(c, AllPrimitivesStorageB.SWAP, zero());
    final StringBuilder text = new StringBuilder();
    SnapshotDump.write(registry, text);
    final StringBuilder chosen = new StringBuilder();
    final long[] live = java.util.Arrays.copyOf(registry.entities().packed(), registry.alive());
    assertEquals(2, live.length);
    SnapshotDump.write(registry, live, chosen);
    assertEquals(chosen.toString(), text.toString());
    final String expected =
        "{\n"
            + "  \"entities\": {\"alive\": 2, \"released\": 1},\n"
            + "  \"storages\": [\n"
            + "    {\"type\": \"class:dev.phalanx.ecs.AllPrimitivesStorageB$SwapSample\","
            + " \"size\": 1, "
            + FIELDS
            + "}\n"
            + "  ],\n"
            + "  \"components\": [\n";
    assertEquals(expected, text.substring(0, expected.length()));
    final String rest = text.substring(expected.length());
    final String first = "    {\"entity\": \"" + Entity.index(live[0]) + ":0\"";
    assertEquals(first, rest.substring(0, first.length()));
    assertEquals(java.util.Set.of(a, c), java.util.Set.of(live[0], live[1]));
    assertEquals(2, rest.split("\"entity\"", -1).length - 1);
    assertEquals(1, rest.split("\"SwapSample\"", -1).length - 1);
  }

  /** An empty registry still gives well-formed JSON: empty arrays, nothing between brackets. */
  @Test
  void anEmptyRegistryGivesEmptyArrays() throws IOException {
    final StringBuilder text = new StringBuilder();
    SnapshotDump.write(new Registry(), text);
    assertEquals(
        "{\n"
            + "  \"entities\": {\"alive\": 0, \"released\": 0},\n"
            + "  \"storages\": [\n"
            + "  ],\n"
            + "  \"components\": [\n"
            + "  ]\n"
            + "}\n",
        text.toString());
  }

  /** The text goes to the appendable in one piece, and its failure reaches the caller. */
  @Test
  void theAppendablesFailureIsThrown() {
    final Registry registry = new Registry();
    registry.create();
    final IOException failure = new IOException("disk full");
    final IOException thrown =
        assertThrows(
            IOException.class,
            () ->
                SnapshotDump.write(
                    registry,
                    new Appendable() {
                      @Override
                      public Appendable append(final CharSequence csq) throws IOException {
                        throw failure;
                      }

                      @Override
                      public Appendable append(final CharSequence csq, final int s, final int e)
                          throws IOException {
                        throw failure;
                      }

                      @Override
                      public Appendable append(final char c) throws IOException {
                        throw failure;
                      }
                    }));
    assertSame(failure, thrown);
  }
}

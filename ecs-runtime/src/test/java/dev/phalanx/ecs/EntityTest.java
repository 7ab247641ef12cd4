package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EntityTest {

  @ParameterizedTest
  @CsvSource({
    "0, 0",
    "1, 1",
    "4095, 7",
    "1048576, 3",
    "2147483631, 0",
    "5, -2",
    "5, 2147483647",
    "5, -2147483648"
  })
  void indexAndVersionSurviveTheRoundTrip(final int index, final int version) {
    final long entity = Entity.of(index, version);
    assertEquals(index, Entity.index(entity));
    assertEquals(version, Entity.version(entity));
    assertFalse(Entity.isNull(entity));
  }

  @Test
  void theLayoutIsVersionHighIndexLow() {
    assertEquals(0x0000_0003_0000_0005L, Entity.of(5, 3));
    assertEquals(Entity.INDEX_BITS + Entity.VERSION_BITS, 64);
  }

  @Test
  void atLeastTwoToTheTwentyIndicesExist() {
    assertTrue(Entity.MAX_INDEX >= (1 << 20) - 1);
  }

  @Test
  void nullIsNullAndNoRealEntityEqualsIt() {
    assertTrue(Entity.isNull(Entity.NULL));
    assertEquals(Entity.NULL_INDEX, Entity.index(Entity.NULL));
    for (final int version : new int[] {0, 1, -2, Integer.MAX_VALUE}) {
      assertNotEquals(Entity.NULL, Entity.of(0, version));
      assertNotEquals(Entity.NULL, Entity.of(Entity.MAX_INDEX, version));
    }
  }

  @Test
  void aTombstoneIsRecognisedByItsVersionOnly() {
    assertTrue(Entity.isTombstone(Entity.of(7, Entity.TOMBSTONE_VERSION)));
    assertFalse(Entity.isTombstone(Entity.of(7, Entity.TOMBSTONE_VERSION - 1)));
    assertFalse(Entity.isTombstone(Entity.of(7, 0)));
  }

  @Test
  void nextVersionIncrementsAndWrapsSkippingTheTombstoneVersion() {
    assertEquals(1, Entity.nextVersion(0));
    assertEquals(Integer.MIN_VALUE, Entity.nextVersion(Integer.MAX_VALUE));
    assertEquals(0, Entity.nextVersion(0xFFFF_FFFE));
    assertEquals(0xFFFF_FFFE, Entity.nextVersion(0xFFFF_FFFD));
  }

  @Test
  void toStringNamesIndexAndUnsignedVersion() {
    assertEquals("Entity(index=3, version=1)", Entity.toString(Entity.of(3, 1)));
    assertEquals("Entity(index=3, version=4294967294)", Entity.toString(Entity.of(3, 0xFFFF_FFFE)));
    assertEquals("Entity(null)", Entity.toString(Entity.NULL));
  }
}

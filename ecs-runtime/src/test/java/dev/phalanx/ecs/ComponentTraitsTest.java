package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ComponentTraitsTest {

  @ParameterizedTest
  @ValueSource(
      ints = {
        0,
        -1,
        -1024,
        3,
        6,
        1000,
        1025,
        Integer.MIN_VALUE,
        Integer.MAX_VALUE,
        1 << 17,
        1 << 30
      })
  void aPageSizeThatIsNotAPositivePowerOfTwoIsRefusedWithItsValue(final int pageSize) {
    final IllegalArgumentException error =
        assertThrows(
            IllegalArgumentException.class, () -> ComponentTraits.DEFAULT.withPageSize(pageSize));
    assertTrue(error.getMessage().contains(String.valueOf(pageSize)), error.getMessage());
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 4, 1024, ComponentTraits.MAX_PAGE_SIZE})
  void positivePowersOfTwoAreAccepted(final int pageSize) {
    assertEquals(pageSize, ComponentTraits.DEFAULT.withPageSize(pageSize).pageSize());
  }

  @Test
  void theSwapOnlyPolicyAndNullAreRefused() {
    assertThrows(
        IllegalArgumentException.class,
        () -> ComponentTraits.DEFAULT.withPolicy(DeletionPolicy.SWAP_ONLY));
    assertThrows(IllegalArgumentException.class, () -> ComponentTraits.DEFAULT.withPolicy(null));
  }

  @Test
  void defaultsAreThoseOfEnTT() {
    assertEquals(1024, ComponentTraits.DEFAULT.pageSize());
    assertEquals(DeletionPolicy.SWAP_AND_POP, ComponentTraits.DEFAULT.policy());
    assertFalse(ComponentTraits.DEFAULT.empty());
    assertTrue(ComponentTraits.TAG.empty());
    final ComponentTraits inPlace = ComponentTraits.DEFAULT.withPolicy(DeletionPolicy.IN_PLACE);
    assertEquals(DeletionPolicy.IN_PLACE, inPlace.policy());
    assertEquals(1024, inPlace.pageSize());
  }
}

package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ContextTest {

  record Gravity(double value) {}

  record TimeStep(double seconds) {}

  @Test
  void holdsOneValuePerClass() {
    final Context context = new Registry().context();
    final Gravity gravity = new Gravity(9.81);
    assertSame(gravity, context.emplace(Gravity.class, gravity));
    context.emplace(TimeStep.class, new TimeStep(0.016));
    assertSame(gravity, context.get(Gravity.class));
    assertSame(gravity, context.find(Gravity.class));
    assertTrue(context.contains(Gravity.class));
    assertEquals(0.016, context.get(TimeStep.class).seconds());
  }

  @Test
  void emplaceRefusesASecondValueAndKeepsTheFirst() {
    final Context context = new Registry().context();
    final Gravity first = new Gravity(1);
    context.emplace(Gravity.class, first);
    final IllegalArgumentException error =
        assertThrows(
            IllegalArgumentException.class, () -> context.emplace(Gravity.class, new Gravity(2)));
    assertTrue(error.getMessage().contains("Gravity"), error.getMessage());
    assertSame(first, context.get(Gravity.class));
  }

  @Test
  void insertOrAssignReplaces() {
    final Context context = new Registry().context();
    context.insertOrAssign(Gravity.class, new Gravity(1));
    final Gravity second = new Gravity(2);
    assertSame(second, context.insertOrAssign(Gravity.class, second));
    assertSame(second, context.get(Gravity.class));
  }

  @Test
  void missingValuesAreReportedOrNull() {
    final Context context = new Registry().context();
    final IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> context.get(Gravity.class));
    assertTrue(error.getMessage().contains("Gravity"), error.getMessage());
    assertNull(context.find(Gravity.class));
    assertFalse(context.contains(Gravity.class));
  }

  @Test
  void eraseRemoves() {
    final Context context = new Registry().context();
    context.emplace(Gravity.class, new Gravity(1));
    assertTrue(context.erase(Gravity.class));
    assertFalse(context.erase(Gravity.class));
    assertFalse(context.contains(Gravity.class));
  }

  @Test
  void nullValuesAreRefusedAndChangeNothing() {
    final Context context = new Registry().context();
    assertThrows(NullPointerException.class, () -> context.emplace(Gravity.class, null));
    assertThrows(NullPointerException.class, () -> context.insertOrAssign(Gravity.class, null));
    assertFalse(context.contains(Gravity.class));
  }

  @Test
  void eachRegistryHasItsOwnContext() {
    final Registry one = new Registry();
    final Registry two = new Registry();
    one.context().emplace(Gravity.class, new Gravity(1));
    assertFalse(two.context().contains(Gravity.class));
  }
}

package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.internal.Failures;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SignalTest {

  private final List<String> calls = new ArrayList<>();

  private ComponentListener named(final String name) {
    return (registry, entity) -> calls.add(name + entity);
  }

  @Test
  void listenersRunInConnectionOrderWithTheirArguments() {
    final Signal signal = new Signal();
    assertTrue(signal.isEmpty());
    signal.connect(named("a"));
    signal.connect(named("b"));
    final Registry registry = new Registry();
    final Registry[] seen = new Registry[1];
    signal.connect((r, e) -> seen[0] = r);
    Failures.rethrow(signal.publish(registry, 7, null));
    assertEquals(List.of("a7", "b7"), calls);
    assertSame(registry, seen[0]);
    assertEquals(3, signal.size());
  }

  @Test
  void connectFirstRunsBeforeEveryEarlierListener() {
    final Signal signal = new Signal();
    signal.connect(named("a"));
    signal.connectFirst(named("first"));
    signal.connectFirst(named("firster"));
    Failures.rethrow(signal.publish(null, 1, null));
    assertEquals(List.of("firster1", "first1", "a1"), calls);
  }

  @Test
  void aListenerConnectedTwiceRunsTwiceAndDisconnectRemovesTheLatestOccurrence() {
    final Signal signal = new Signal();
    final ComponentListener a = named("a");
    signal.connect(a);
    signal.connect(named("b"));
    signal.connect(a);
    Failures.rethrow(signal.publish(null, 0, null));
    assertEquals(List.of("a0", "b0", "a0"), calls);
    calls.clear();
    assertTrue(signal.disconnect(a));
    Failures.rethrow(signal.publish(null, 0, null));
    assertEquals(List.of("a0", "b0"), calls);
    assertTrue(signal.disconnect(a));
    assertFalse(signal.disconnect(a));
    assertEquals(1, signal.size());
  }

  /** Disconnecting a listener keeps the ones before and after it, in order. */
  @Test
  void disconnectingTheFirstOrAMiddleListenerKeepsTheOthersInOrder() {
    final Signal signal = new Signal();
    final ComponentListener a = named("a");
    final ComponentListener b = named("b");
    signal.connect(a);
    signal.connect(b);
    signal.connect(named("c"));
    signal.connect(named("d"));
    assertTrue(signal.disconnect(b));
    assertTrue(signal.disconnect(a));
    Failures.rethrow(signal.publish(null, 0, null));
    assertEquals(List.of("c0", "d0"), calls);
  }

  @Test
  void connectingDuringAPublicationTakesEffectNextTime() {
    final Signal signal = new Signal();
    signal.connect(
        (r, e) -> {
          calls.add("adder" + e);
          signal.connect(named("late"));
        });
    Failures.rethrow(signal.publish(null, 1, null));
    assertEquals(List.of("adder1"), calls);
    calls.clear();
    Failures.rethrow(signal.publish(null, 2, null));
    assertEquals(List.of("adder2", "late2"), calls);
  }

  @Test
  void disconnectingDuringAPublicationTakesEffectNextTime() {
    final Signal signal = new Signal();
    final ComponentListener victim = named("victim");
    signal.connect(
        (r, e) -> {
          calls.add("remover" + e);
          signal.disconnect(victim);
        });
    signal.connect(victim);
    Failures.rethrow(signal.publish(null, 1, null));
    assertEquals(List.of("remover1", "victim1"), calls);
    calls.clear();
    Failures.rethrow(signal.publish(null, 2, null));
    assertEquals(List.of("remover2"), calls);
  }

  @Test
  void aThrowingListenerStopsNoOtherAndTheFirstExceptionCarriesTheRest() {
    final Signal signal = new Signal();
    final IllegalStateException first = new IllegalStateException("first");
    final IllegalArgumentException second = new IllegalArgumentException("second");
    signal.connect(
        (r, e) -> {
          throw first;
        });
    signal.connect(named("middle"));
    signal.connect(
        (r, e) -> {
          throw second;
        });
    signal.connect(named("last"));
    final Throwable thrown = signal.publish(null, 3, null);
    assertSame(first, thrown);
    assertEquals(List.of("middle3", "last3"), calls);
    assertEquals(List.of(second), List.of(thrown.getSuppressed()));
  }

  @Test
  void nullListenersAreRefused() {
    final Signal signal = new Signal();
    assertThrows(NullPointerException.class, () -> signal.connect(null));
    assertThrows(NullPointerException.class, () -> signal.connectFirst(null));
    assertEquals(0, signal.size());
  }
}

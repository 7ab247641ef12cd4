package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
    signal.publish(registry, 7);
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
    signal.publish(null, 1);
    assertEquals(List.of("firster1", "first1", "a1"), calls);
  }

  @Test
  void aListenerConnectedTwiceRunsTwiceAndDisconnectRemovesTheLatestOccurrence() {
    final Signal signal = new Signal();
    final ComponentListener a = named("a");
    signal.connect(a);
    signal.connect(named("b"));
    signal.connect(a);
    signal.publish(null, 0);
    assertEquals(List.of("a0", "b0", "a0"), calls);
    calls.clear();
    assertTrue(signal.disconnect(a));
    signal.publish(null, 0);
    assertEquals(List.of("a0", "b0"), calls);
    assertTrue(signal.disconnect(a));
    assertFalse(signal.disconnect(a));
    assertEquals(1, signal.size());
  }

  @Test
  void connectingDuringAPublicationTakesEffectNextTime() {
    final Signal signal = new Signal();
    signal.connect((r, e) -> {
      calls.add("adder" + e);
      signal.connect(named("late"));
    });
    signal.publish(null, 1);
    assertEquals(List.of("adder1"), calls);
    calls.clear();
    signal.publish(null, 2);
    assertEquals(List.of("adder2", "late2"), calls);
  }

  @Test
  void disconnectingDuringAPublicationTakesEffectNextTime() {
    final Signal signal = new Signal();
    final ComponentListener victim = named("victim");
    signal.connect((r, e) -> {
      calls.add("remover" + e);
      signal.disconnect(victim);
    });
    signal.connect(victim);
    signal.publish(null, 1);
    assertEquals(List.of("remover1", "victim1"), calls);
    calls.clear();
    signal.publish(null, 2);
    assertEquals(List.of("remover2"), calls);
  }

  @Test
  void nullListenersAreRefused() {
    final Signal signal = new Signal();
    assertThrows(NullPointerException.class, () -> signal.connect(null));
    assertThrows(NullPointerException.class, () -> signal.connectFirst(null));
    assertEquals(0, signal.size());
  }
}

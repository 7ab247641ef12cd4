package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static dev.phalanx.ecs.GroupTypes.value;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A storage keeps its answer to "may this insertion or removal update the group directly?" between
 * operations; connecting or disconnecting a listener anywhere that answer depends on must change it
 * at once. Each case uses the direct path first (an owning group over A and B, no listener), then
 * connects a listener and expects it to hear the next insertion and removal, then disconnects it
 * and expects silence, with the registry consistent throughout.
 */
class DirectUpkeepListenersTest {

  /**
   * Where a listener is connected: which signal, reached from the registry and its group; whether
   * it hears insertions (else removals); which of B's changes stay direct while it is connected;
   * whether both are direct again once it is disconnected (a view keeps its storage monitors).
   */
  private record Place(
      String name,
      Function<World, Signal> signal,
      boolean hearsInsert,
      boolean insertDirect,
      boolean removeDirect,
      boolean directAfter) {
    @Override
    public String toString() {
      return name;
    }
  }

  /** A registry with an owning group over A and B, and entities holding A. */
  private static final class World {
    final Registry registry = new Registry();
    final OwningGroup group = registry.owningGroup(TA, TB);
    final List<Long> entities = new ArrayList<>();

    World() {
      for (int i = 0; i < 8; i++) {
        final long e = registry.create();
        registry.emplace(e, TA, value(TA, i));
        entities.add(e);
      }
    }

    /** Gives B to the entity, which then enters the group. */
    void add(final int i) {
      registry.emplace(entities.get(i), TB, value(TB, i));
    }

    /** Takes B from the entity, which then leaves the group. */
    void remove(final int i) {
      registry.storage(TB).remove(entities.get(i));
    }
  }

  static Stream<Arguments> places() {
    return Stream.of(
            new Place("group onEnter", w -> w.group.onEnter(), true, false, false, true),
            new Place("group onLeave", w -> w.group.onLeave(), false, false, false, true),
            new Place(
                "storage onConstruct",
                w -> w.registry.storage(TB).onConstruct(),
                true,
                false,
                true,
                true),
            new Place(
                "storage onDestroy",
                w -> w.registry.storage(TB).onDestroy(),
                false,
                true,
                false,
                true),
            new Place(
                "view onEnter", w -> w.registry.view(TA, TB).onEnter(), true, false, false, false),
            new Place(
                "view onLeave", w -> w.registry.view(TA, TB).onLeave(), false, false, false, false))
        .flatMap(place -> Stream.of(Arguments.of(place, false), Arguments.of(place, true)));
  }

  @ParameterizedTest(name = "{0}, connected first: {1}")
  @MethodSource("places")
  void aListenerConnectedLaterHearsTheNextChange(final Place place, final boolean first) {
    final World w = new World();
    // The direct path, before any listener.
    w.add(0);
    w.add(1);
    w.remove(0);
    assertEquals(1, w.group.size());
    assertDirect(w, true, true);

    final List<Long> heard = new ArrayList<>();
    final ComponentListener listener = (registry, entity) -> heard.add(entity);
    final Signal signal = place.signal().apply(w);
    if (first) {
      signal.connectFirst(listener);
    } else {
      signal.connect(listener);
    }
    w.add(2);
    w.remove(1);
    final long expected = place.hearsInsert() ? w.entities.get(2) : w.entities.get(1);
    assertEquals(List.of(expected), heard, place + " after it was connected");
    assertEquals(1, w.group.size());
    assertEquals(List.of(), w.registry.verify());
    assertDirect(w, place.insertDirect(), place.removeDirect());

    // Disconnected: the direct path again, and silence.
    assertEquals(true, signal.disconnect(listener));
    w.add(3);
    w.remove(2);
    w.remove(3);
    assertEquals(List.of(expected), heard, place + " after it was disconnected");
    assertEquals(0, w.group.size());
    assertEquals(List.of(), w.registry.verify());
    assertDirect(w, place.directAfter(), place.directAfter());
  }

  static Stream<Arguments> destroyListeners() {
    return Stream.of(
        Arguments.of(
            "A's onDestroy", (Function<World, Signal>) w -> w.registry.storage(TA).onDestroy()),
        Arguments.of(
            "B's onDestroy", (Function<World, Signal>) w -> w.registry.storage(TB).onDestroy()),
        Arguments.of("group onLeave", (Function<World, Signal>) w -> w.group.onLeave()));
  }

  /**
   * A destroyed member whose storages only its spanning group observes leaves every owned storage
   * at once, from the first storage the destroy visits (B, created last). A listener connected
   * later on any of them, or on the group's leaving, must turn that off for the whole group.
   */
  @ParameterizedTest(name = "{0}")
  @MethodSource("destroyListeners")
  void aListenerConnectedLaterHearsTheNextDestroy(
      final String name, final Function<World, Signal> place) {
    final World w = new World();
    for (int i = 0; i < 8; i++) {
      w.add(i);
    }
    // Every holder of A is a member: the group spans both storages.
    w.registry.destroy(w.entities.get(0));
    assertEquals(7, w.group.size());

    final List<Long> heard = new ArrayList<>();
    final ComponentListener listener = (registry, entity) -> heard.add(entity);
    final Signal signal = place.apply(w);
    signal.connect(listener);
    w.registry.destroy(w.entities.get(1));
    assertEquals(List.of(w.entities.get(1)), heard, name + " after it was connected");
    assertEquals(6, w.group.size());
    assertEquals(List.of(), w.registry.verify());

    assertEquals(true, signal.disconnect(listener));
    w.registry.destroy(w.entities.get(2));
    assertEquals(List.of(w.entities.get(1)), heard, name + " after it was disconnected");
    assertEquals(5, w.group.size());
    assertEquals(List.of(), w.registry.verify());
  }

  /** Checks which of B's changes may update the group directly. */
  private static void assertDirect(final World w, final boolean insert, final boolean remove) {
    final Storage<?> b = w.registry.storage(TB);
    assertEquals(insert ? w.group : null, b.directInsertOwner(), "direct insertion");
    assertEquals(remove ? w.group : null, b.directRemoveOwner(), "direct removal");
  }
}

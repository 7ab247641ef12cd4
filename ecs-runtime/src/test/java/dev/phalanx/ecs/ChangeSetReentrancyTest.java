package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.TA;
import static dev.phalanx.ecs.GroupTypes.TB;
import static dev.phalanx.ecs.GroupTypes.TC;
import static dev.phalanx.ecs.GroupTypes.TD;
import static dev.phalanx.ecs.GroupTypes.types;
import static dev.phalanx.ecs.GroupTypes.value;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A listener that runs during a commit re-enters the committing set: every staging method, {@code
 * clear} and {@code commit} refuse with {@link IllegalStateException} and change nothing (the set
 * keeps its size, the world ends as a commit without the attempts leaves it), while {@code
 * entityOf}, {@code size} and {@code isEmpty} answer. A listener that stages into another set of
 * the same registry and commits it works. Every kind of listener a commit runs is tried.
 */
class ChangeSetReentrancyTest {

  /** The listener kinds a commit runs. */
  enum Where {
    CREATE,
    CONSTRUCT,
    ENTER,
    UPDATE,
    LEAVE,
    DESTROY,
    ENTITY_DESTROY
  }

  /** A world: an owning group <A,B>, a non-owning group <C>, entities with components. */
  static final class World {
    final Registry registry = new Registry();
    final OwningGroup ab = registry.owningGroup(TA, TB);
    final NonOwningGroup c = registry.nonOwningGroup(types(TC), types());
    final long[] entities = new long[4];
    final ChangeSet changes = new ChangeSet(registry);
    long handle;
    // What the listener saw, and the entity the other set created.
    final List<String> refusals = new ArrayList<>();
    long fromOtherSet = Entity.NULL;
    boolean ran;

    World() {
      registry.create(entities);
      for (final long e : entities) {
        registry.emplace(e, TA, value(TA, 1));
        registry.emplace(e, TB, value(TB, 1));
        registry.emplace(e, TC, value(TC, 1));
      }
    }

    /** Stages the set: a creation entering both groups, an update, an exit, a destruction. */
    void stage() {
      handle = changes.create();
      changes.emplace(handle, TA, value(TA, 2));
      changes.emplace(handle, TB, value(TB, 2));
      changes.emplace(handle, TC, value(TC, 2));
      changes.replace(entities[0], TC, value(TC, 3));
      changes.remove(entities[1], TB);
      changes.destroy(entities[2]);
    }

    Signal signal(final Where where) {
      return switch (where) {
        case CREATE -> registry.onCreate();
        case CONSTRUCT -> registry.storage(TA).onConstruct();
        case ENTER -> ab.onEnter();
        case UPDATE -> registry.storage(TC).onUpdate();
        case LEAVE -> ab.onLeave();
        case DESTROY -> registry.storage(TC).onDestroy();
        case ENTITY_DESTROY -> registry.onDestroy();
      };
    }

    /** Connects a listener that, on its first call, does {@code body}. */
    void listen(final Where where, final Consumer<Long> body) {
      signal(where)
          .connect(
              (r, e) -> {
                if (!ran) {
                  ran = true;
                  body.accept(e);
                }
              });
    }

    /** Stages and commits, with another set, a creation with D: works from any listener. */
    void useAnotherSet() {
      final ChangeSet other = new ChangeSet(registry);
      final long h = other.create();
      other.emplace(h, TD, value(TD, 7));
      other.emplace(entities[3], TD, value(TD, 8));
      other.commit();
      fromOtherSet = other.entityOf(h);
    }
  }

  /** Every public method of a set but entityOf, size and isEmpty, applied to {@code w}'s set. */
  static Map<String, Consumer<World>> attempts() {
    final Map<String, Consumer<World>> all = new LinkedHashMap<>();
    all.put("create()", w -> w.changes.create());
    all.put("create(out, offset, count)", w -> w.changes.create(new long[2], 0, 2));
    all.put("emplace(value)", w -> w.changes.emplace(w.entities[3], TD, value(TD, 1)));
    all.put(
        "emplace(value) on the staged handle", w -> w.changes.emplace(w.handle, TD, value(TD, 1)));
    all.put(
        "emplace(tag)",
        w -> w.changes.emplace(w.entities[3], Fixtures.tag(DeletionPolicy.SWAP_AND_POP)));
    all.put(
        "copy(entity, source, sourceEntity)",
        w -> w.changes.copy(w.entities[3], w.registry.storage(TD), w.entities[0]));
    all.put(
        "copy(entity, source, sourceEntity, references)",
        w ->
            w.changes.copy(
                w.entities[3], w.registry.storage(TD), w.entities[0], (copy, ref) -> ref));
    all.put(
        "copy(entities, from, to, source, sourceEntity, references)",
        w ->
            w.changes.copy(
                new long[] {w.entities[3]}, 0, 1, w.registry.storage(TD), w.entities[0], null));
    all.put(
        "copyToCreations(first, count, source, sourceEntity, references)",
        w -> w.changes.copyToCreations(w.handle, 1, w.registry.storage(TD), w.entities[0], null));
    all.put("replace", w -> w.changes.replace(w.entities[3], TA, value(TA, 9)));
    all.put(
        "emplace(row writer)",
        w -> w.changes.emplace(w.entities[3], TD, (storage, position, row) -> {}, 0));
    all.put(
        "write(row writer)",
        w -> w.changes.write(w.entities[3], TA, (storage, position, row) -> {}, 0));
    all.put(
        "write(entities, from, to, row writer, rows)",
        w ->
            w.changes.write(
                new long[] {w.entities[3]}, 0, 1, TA, (storage, position, row) -> {}, new int[1]));
    all.put("remove", w -> w.changes.remove(w.entities[3], TA));
    all.put("destroy", w -> w.changes.destroy(w.entities[3]));
    all.put("clear", w -> w.changes.clear());
    all.put("commit", w -> w.changes.commit());
    return all;
  }

  @ParameterizedTest
  @EnumSource(Where.class)
  void aListenerCannotReenterTheCommittingSetButCanUseAnother(final Where where) {
    // The reference: the same commit whose listener only uses another set.
    final World twin = new World();
    twin.listen(where, e -> twin.useAnotherSet());
    twin.stage();
    twin.changes.commit();
    assertTrue(twin.ran, where + " listener did not run");

    final World world = new World();
    world.listen(
        where,
        e -> {
          final int size = world.changes.size();
          assertNotEquals(0, size, "size answers during the commit");
          assertFalse(world.changes.isEmpty());
          final long created = world.changes.entityOf(world.handle);
          assertTrue(world.registry.valid(created), "entityOf answers during the commit");
          if (Where.CREATE == where) {
            assertEquals(created, e);
          }
          for (final Map.Entry<String, Consumer<World>> attempt : attempts().entrySet()) {
            try {
              attempt.getValue().accept(world);
              fail(attempt.getKey() + " was accepted from a " + where + " listener");
            } catch (final IllegalStateException refused) {
              world.refusals.add(attempt.getKey());
              assertTrue(
                  refused.getMessage().contains(world.changes.toString()), refused.getMessage());
            }
            assertEquals(size, world.changes.size(), attempt.getKey() + " changed the set");
            assertEquals(created, world.changes.entityOf(world.handle), attempt.getKey());
          }
          world.useAnotherSet();
        });
    world.stage();
    world.changes.commit();
    assertEquals(List.copyOf(attempts().keySet()), world.refusals);
    assertTrue(world.changes.isEmpty());
    assertTrue(world.registry.valid(world.fromOtherSet), "the other set's commit");
    assertEquals(value(TD, 7), world.registry.get(world.fromOtherSet, TD));
    assertEquals(value(TD, 8), world.registry.get(world.entities[3], TD));
    assertEquals(List.of(), WorldPrint.problems(world.registry));
    assertEquals(
        WorldPrint.layout(twin.registry),
        WorldPrint.layout(world.registry),
        "an attempt changed the world");
    // The set works again after its commit.
    final long h = world.changes.create();
    world.changes.emplace(h, TA, value(TA, 5));
    world.changes.commit();
    assertTrue(world.registry.has(world.changes.entityOf(h), TA));
  }

  @org.junit.jupiter.api.Test
  void anEmptyCommitIsANoOpEvenWhileTheRegistryIsCleared() {
    final World world = new World();
    final ChangeSet other = new ChangeSet(world.registry);
    final List<Throwable> seen = new ArrayList<>();
    world
        .registry
        .onDestroy()
        .connect(
            (r, e) -> {
              try {
                other.commit(); // nothing staged: nothing to refuse
              } catch (final RuntimeException thrown) {
                seen.add(thrown);
              }
              final ChangeSet refused = new ChangeSet(r);
              refused.emplace(e, TD, value(TD, 1));
              try {
                refused.commit();
                seen.add(new AssertionError("a change was committed during clear()"));
              } catch (final IllegalStateException expected) {
                assertEquals(1, refused.size(), "a refused commit keeps its change");
              }
            });
    world.registry.clear();
    assertEquals(List.of(), seen);
    assertEquals(0, world.registry.alive());
    assertEquals(List.of(), WorldPrint.problems(world.registry));
  }
}

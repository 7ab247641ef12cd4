package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.phalanx.ecs.Fixtures.Payload;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.LongConsumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * One million random operations on a {@link Registry} and, in lockstep, on a plain {@code HashMap}
 * model, comparing the full state every {@value #CHECK_EVERY} operations: every storage's contents
 * (entity to payload, by identity and value), the validity of every handle ever created (stale ones
 * included), the number of live entities, the signals published, and view results as sets.
 */
class RegistryModelTest {

  // Fewer under mutation testing (see the runtime POM): every surviving mutant runs this test.
  private static final int OPERATIONS = Integer.getInteger("phalanx.modelOperations", 1_000_000);
  private static final int CHECK_EVERY = 10_000;
  private static final int TARGET_POPULATION = 300;

  /** The expected state of one object storage: entity to (instance, value). */
  private static final class ObjectModel {
    final ObjectStorage<Payload> storage;
    final ComponentType<Payload, ObjectStorage<Payload>> type;
    final Map<Long, Payload> refs = new HashMap<>();
    final Map<Long, Integer> values = new HashMap<>();
    final int[] events = new int[3]; // construct, update, destroy (observed)
    final int[] expectedEvents = new int[3];

    ObjectModel(
        final Registry registry, final ComponentType<Payload, ObjectStorage<Payload>> type) {
      this.type = type;
      this.storage = registry.storage(type);
      storage.onConstruct().connect((r, e) -> events[0]++);
      storage.onUpdate().connect((r, e) -> events[1]++);
      storage.onDestroy().connect((r, e) -> events[2]++);
    }

    boolean has(final long entity) {
      return refs.containsKey(entity);
    }

    void put(final long entity, final Payload value) {
      expectedEvents[has(entity) ? 1 : 0]++;
      refs.put(entity, value);
      values.put(entity, value.value);
    }

    void remove(final long entity) {
      if (null != refs.remove(entity)) {
        values.remove(entity);
        expectedEvents[2]++;
      }
    }
  }

  /** The expected state of a storage without payload. */
  private static final class TagModel {
    final Storage<?> storage;
    final ComponentType<?, ?> type;
    final Set<Long> members = new HashSet<>();

    TagModel(final Storage<?> storage) {
      this.storage = storage;
      this.type = storage.type();
    }
  }

  /** A list of longs with O(1) random pick and removal. */
  private static final class Pool {
    private final List<Long> items = new ArrayList<>();
    private final Map<Long, Integer> at = new HashMap<>();

    void add(final long value) {
      at.put(value, items.size());
      items.add(value);
    }

    void remove(final long value) {
      final int index = at.remove(value);
      final long last = items.remove(items.size() - 1);
      if (index < items.size()) {
        items.set(index, last);
        at.put(last, index);
      }
    }

    boolean contains(final long value) {
      return at.containsKey(value);
    }

    int size() {
      return items.size();
    }

    long pick(final Random random) {
      return items.get(random.nextInt(items.size()));
    }
  }

  private Random random;
  private Registry registry;
  private DeletionPolicy policy;
  private ObjectModel[] objects;
  private TagModel tag;
  private TagModel voidTag;
  private final Pool alive = new Pool();
  // Every handle ever created, in creation order, and whether it is live (model side).
  private long[] everCreated = new long[1024];
  private int createdCount;
  private final java.util.BitSet liveByCreation = new java.util.BitSet();
  private final Map<Long, Integer> creationIndex = new HashMap<>();
  private int nextValue;

  @ParameterizedTest
  @EnumSource(
      value = DeletionPolicy.class,
      names = {"SWAP_AND_POP", "IN_PLACE"})
  void aMillionRandomOperationsMatchAHashMapModel(final DeletionPolicy deletionPolicy) {
    policy = deletionPolicy;
    random = new Random(0x5EED_0000L + deletionPolicy.ordinal());
    registry = new Registry();
    objects =
        new ObjectModel[] {
          new ObjectModel(registry, Fixtures.alpha(policy)), // pages of 1024
          new ObjectModel(registry, Fixtures.beta(policy)), // pages of 2
          new ObjectModel(registry, Fixtures.gamma(policy)), // pages of 1
        };
    tag = new TagModel(registry.storage(Fixtures.tag(policy)));
    voidTag = new TagModel(registry.storage("model-void-" + policy));
    for (int operation = 1; operation <= OPERATIONS; operation++) {
      try {
        step();
      } catch (AssertionError | RuntimeException e) {
        throw new AssertionError("operation " + operation + " (" + policy + ") failed: " + e, e);
      }
      if (0 == operation % CHECK_EVERY) {
        compareEverything();
      }
    }
    compareEverything();
    assertTrue(createdCount > OPERATIONS / 100, "the run should recycle identifiers many times");
  }

  private void step() {
    final int roll = random.nextInt(1000);
    final boolean crowded = alive.size() > TARGET_POPULATION;
    if (roll < 90 || 0 == alive.size()) {
      create();
    } else if (roll < (crowded ? 260 : 150)) {
      destroy(alive.pick(random));
    } else if (roll < 380) {
      emplace(alive.pick(random), pickObject());
    } else if (roll < 440) {
      emplaceTag(alive.pick(random), random.nextBoolean() ? tag : voidTag);
    } else if (roll < 510) {
      emplaceOrReplace(alive.pick(random), pickObject());
    } else if (roll < 600) {
      remove(alive.pick(random));
    } else if (roll < 660) {
      final ObjectModel model = pickObject();
      erase(holderOrAny(model), model);
    } else if (roll < 720) {
      final ObjectModel model = pickObject();
      patch(holderOrAny(model), model);
    } else if (roll < 780) {
      final ObjectModel model = pickObject();
      replace(holderOrAny(model), model);
    } else if (roll < 850) {
      read(alive.pick(random), pickObject());
    } else if (roll < 930) {
      if (0 == random.nextInt(6)) {
        misuse(); // exceptions are slow to build: keep them to about 1% of the operations
      } else {
        read(alive.pick(random), pickObject());
      }
    } else if (roll < 940) {
      sort(pickObject());
    } else if (roll < 950) {
      pickObject().storage.compact();
    } else if (roll < 999) {
      if (0 == random.nextInt(8)) {
        iterate();
      } else {
        create();
      }
    } else if (0 == random.nextInt(20)) {
      clearOne(pickObject());
    }
  }

  /**
   * Mostly an entity that has the component (strict operations succeed), sometimes any live one.
   */
  private long holderOrAny(final ObjectModel model) {
    for (int attempt = 0; attempt < 8 && 0 != random.nextInt(8); attempt++) {
      final long entity = alive.pick(random);
      if (model.has(entity)) {
        return entity;
      }
    }
    return alive.pick(random);
  }

  private ObjectModel pickObject() {
    return objects[random.nextInt(objects.length)];
  }

  // ---------------------------------------------------------------------------------------------
  // Operations, each applied to the registry and to the model.
  // ---------------------------------------------------------------------------------------------

  private void create() {
    final long entity;
    if (random.nextInt(10) == 0) {
      final long[] batch = new long[1 + random.nextInt(4)];
      registry.create(batch);
      for (final long created : batch) {
        noteCreated(created);
      }
      return;
    }
    entity = registry.create();
    noteCreated(entity);
  }

  private void noteCreated(final long entity) {
    assertFalse(alive.contains(entity), "created a live handle twice");
    assertTrue(registry.valid(entity));
    alive.add(entity);
    if (createdCount == everCreated.length) {
      everCreated = java.util.Arrays.copyOf(everCreated, createdCount * 2);
    }
    assertEquals(null, creationIndex.put(entity, createdCount), "a handle was created twice");
    liveByCreation.set(createdCount);
    everCreated[createdCount++] = entity;
  }

  private void destroy(final long entity) {
    registry.destroy(entity);
    forgetEntity(entity);
  }

  private void forgetEntity(final long entity) {
    alive.remove(entity);
    liveByCreation.clear(creationIndex.get(entity));
    for (final ObjectModel model : objects) {
      model.remove(entity);
    }
    tag.members.remove(entity);
    voidTag.members.remove(entity);
  }

  private void emplace(final long entity, final ObjectModel model) {
    final Payload value = new Payload(nextValue++);
    if (model.has(entity)) {
      final IllegalArgumentException error =
          assertThrows(
              IllegalArgumentException.class, () -> registry.emplace(entity, model.type, value));
      assertTrue(error.getMessage().contains(Entity.toString(entity)));
      return;
    }
    assertSame(value, registry.emplace(entity, model.type, value));
    model.put(entity, value);
  }

  private void emplaceTag(final long entity, final TagModel model) {
    if (model.members.contains(entity)) {
      assertTrue(model.storage.remove(entity));
      model.members.remove(entity);
    } else {
      ((EmptyStorage<?>) model.storage).emplace(entity);
      model.members.add(entity);
    }
  }

  private void emplaceOrReplace(final long entity, final ObjectModel model) {
    final Payload value = new Payload(nextValue++);
    registry.emplaceOrReplace(entity, model.type, value);
    model.put(entity, value);
  }

  private void remove(final long entity) {
    final int which = random.nextInt(objects.length + 1);
    if (which == objects.length) {
      assertEquals(tag.members.remove(entity), registry.remove(entity, tag.type));
      return;
    }
    final ObjectModel model = objects[which];
    assertEquals(model.has(entity), registry.remove(entity, model.type));
    model.remove(entity);
  }

  private void erase(final long entity, final ObjectModel model) {
    if (!model.has(entity)) {
      assertThrows(IllegalArgumentException.class, () -> registry.erase(entity, model.type));
      return;
    }
    registry.erase(entity, model.type);
    model.remove(entity);
  }

  private void patch(final long entity, final ObjectModel model) {
    if (!model.has(entity)) {
      assertThrows(
          IllegalArgumentException.class,
          () -> registry.patch(entity, model.type, p -> p.value = -99));
      return;
    }
    registry.patch(entity, model.type, p -> p.value += 3);
    model.values.put(entity, model.values.get(entity) + 3);
    model.expectedEvents[1]++;
  }

  private void replace(final long entity, final ObjectModel model) {
    final Payload value = new Payload(nextValue++);
    if (!model.has(entity)) {
      assertThrows(
          IllegalArgumentException.class, () -> registry.replace(entity, model.type, value));
      return;
    }
    registry.replace(entity, model.type, value);
    model.put(entity, value);
  }

  private void read(final long entity, final ObjectModel model) {
    assertEquals(model.has(entity), registry.has(entity, model.type));
    assertSame(model.refs.get(entity), registry.tryGet(entity, model.type));
    if (model.has(entity)) {
      assertSame(model.refs.get(entity), registry.get(entity, model.type));
      assertSame(
          model.refs.get(entity),
          registry.getOrEmplace(entity, model.type, () -> fail("supplier called")));
    } else if (random.nextBoolean()) {
      final Payload value = new Payload(nextValue++);
      assertSame(value, registry.getOrEmplace(entity, model.type, () -> value));
      model.put(entity, value);
    }
    final boolean orphan =
        !tag.members.contains(entity)
            && !voidTag.members.contains(entity)
            && !objects[0].has(entity)
            && !objects[1].has(entity)
            && !objects[2].has(entity);
    assertEquals(orphan, registry.orphan(entity));
  }

  /** A misuse with a stale, never-created or null handle, or a strict operation that must fail. */
  private void misuse() {
    final long stale = everCreated[random.nextInt(createdCount)];
    final long handle =
        alive.contains(stale)
            ? (random.nextBoolean()
                ? Entity.NULL
                : Entity.of(Entity.index(stale), Entity.version(stale) + 1))
            : stale;
    final ObjectModel model = pickObject();
    final int sizeBefore = model.storage.size();
    final int aliveBefore = registry.alive();
    final IllegalArgumentException error =
        assertThrows(
            IllegalArgumentException.class,
            () -> {
              switch (random.nextInt(8)) {
                case 0:
                  registry.destroy(handle);
                  break;
                case 1:
                  registry.emplace(handle, model.type, new Payload(-1));
                  break;
                case 2:
                  registry.get(handle, model.type);
                  break;
                case 3:
                  registry.remove(handle, model.type);
                  break;
                case 4:
                  registry.erase(handle, model.type);
                  break;
                case 5:
                  registry.patch(handle, model.type, p -> p.value = -1);
                  break;
                case 6:
                  registry.has(handle, model.type);
                  break;
                default:
                  registry.emplaceOrReplace(handle, model.type, new Payload(-1));
                  break;
              }
            });
    assertTrue(error.getMessage().contains(Entity.toString(handle)), error.getMessage());
    assertEquals(sizeBefore, model.storage.size());
    assertEquals(aliveBefore, registry.alive());
  }

  private void sort(final ObjectModel model) {
    final ObjectStorage<Payload> storage = model.storage;
    if (storage.hasTombstones()) {
      final long[] before = java.util.Arrays.copyOf(storage.packed(), storage.size());
      assertThrows(IllegalStateException.class, () -> storage.sort((a, b) -> Long.compare(a, b)));
      assertTrue(
          java.util.Arrays.equals(
              before, java.util.Arrays.copyOf(storage.packed(), storage.size())));
      storage.compact();
    }
    switch (random.nextInt(3)) {
      case 0:
        storage.sortByPosition(
            (a, b) -> Integer.compare(storage.valueAt(a).value, storage.valueAt(b).value));
        for (int position = 1; position < storage.size(); position++) {
          assertTrue(storage.valueAt(position - 1).value <= storage.valueAt(position).value);
        }
        break;
      case 1:
        storage.sort((a, b) -> Long.compare(b, a));
        for (int position = 1; position < storage.size(); position++) {
          assertTrue(storage.packed()[position - 1] > storage.packed()[position]);
        }
        break;
      default:
        storage.sortAs(
            objects[(java.util.Arrays.asList(objects).indexOf(model) + 1) % objects.length]
                .storage);
        break;
    }
  }

  private void clearOne(final ObjectModel model) {
    final int count = model.refs.size();
    registry.clear(model.type);
    model.refs.clear();
    model.values.clear();
    model.expectedEvents[2] += count;
  }

  // ---------------------------------------------------------------------------------------------
  // View iteration with permitted mutations.
  // ---------------------------------------------------------------------------------------------

  private void iterate() {
    final ObjectModel first = objects[random.nextInt(objects.length)];
    final ObjectModel second =
        objects[
            (java.util.Arrays.asList(objects).indexOf(first) + 1 + random.nextInt(2))
                % objects.length];
    final ObjectModel excluded =
        objects[
            3
                - java.util.Arrays.asList(objects).indexOf(first)
                - java.util.Arrays.asList(objects).indexOf(second)];
    final int shape = random.nextInt(5);
    final Set<Long> expected = new HashSet<>();
    final SparseSet leader;
    final LongConsumer[] walker = new LongConsumer[1];
    final View view;
    final RuntimeView runtime;
    switch (shape) {
      case 0: // one type
        view = registry.view(first.type);
        runtime = null;
        expected.addAll(first.refs.keySet());
        break;
      case 1: // two types, one excluded
        view =
            registry.view(
                new ComponentType<?, ?>[] {first.type, second.type},
                new ComponentType<?, ?>[] {excluded.type});
        runtime = null;
        for (final long entity : first.refs.keySet()) {
          if (second.has(entity) && !excluded.has(entity)) {
            expected.add(entity);
          }
        }
        break;
      case 2: // three types, the tag excluded, led by the first
        view =
            registry
                .view(
                    new ComponentType<?, ?>[] {first.type, second.type, excluded.type},
                    new ComponentType<?, ?>[] {tag.type})
                .leadBy(first.storage);
        runtime = null;
        for (final long entity : first.refs.keySet()) {
          if (second.has(entity) && excluded.has(entity) && !tag.members.contains(entity)) {
            expected.add(entity);
          }
        }
        break;
      default: // runtime view: an object type and the void tag, excluding the tag
        view = null;
        runtime =
            new RuntimeView().iterate(first.storage).iterate(voidTag.storage).exclude(tag.storage);
        for (final long entity : first.refs.keySet()) {
          if (voidTag.members.contains(entity) && !tag.members.contains(entity)) {
            expected.add(entity);
          }
        }
        break;
    }
    leader =
        null != view
            ? view.leader()
            : (voidTag.storage.size() < first.storage.size() ? voidTag.storage : first.storage);
    final boolean iteratorForm = random.nextBoolean();
    final Set<Long> visited = new HashSet<>();
    final Set<Long> addedToLeader = new HashSet<>();
    final Set<Long> joined = new HashSet<>();
    final LongConsumer action =
        entity -> {
          // In-place only: an entity whose leader element was removed and added back into a hole
          // ahead of the iteration is a new element there, and may be visited again.
          assertTrue(
              visited.add(entity)
                  || DeletionPolicy.IN_PLACE == leader.policy() && addedToLeader.contains(entity),
              "visited twice: " + Entity.toString(entity));
          mutateDuringIteration(entity, first, excluded, leader, addedToLeader, joined);
        };
    if (null != view) {
      if (iteratorForm) {
        final EntityIterator iterator = view.iterator();
        while (iterator.hasNext()) {
          action.accept(iterator.nextLong());
        }
      } else {
        view.each(action);
      }
    } else {
      runtime.each(action);
    }
    assertTrue(visited.containsAll(expected), "a view skipped an entity");
    final Set<Long> extra = new HashSet<>(visited);
    extra.removeAll(expected);
    // An entity already in the leader that gains another included component during the iteration
    // joins the view and is visited if the iteration has not passed it yet: that is not an addition
    // to the leader. Elements added to the leader itself are never visited, except (in-place only)
    // when they fill a hole ahead of the iteration.
    if (DeletionPolicy.IN_PLACE == leader.policy()) {
      for (final long entity : extra) {
        assertTrue(
            addedToLeader.contains(entity) || joined.contains(entity),
            "an in-place view visited "
                + Entity.toString(entity)
                + ", which neither joined it nor was added to its leader");
      }
    } else {
      for (final long entity : extra) {
        assertFalse(
            addedToLeader.contains(entity),
            "a swap-and-pop view visited "
                + Entity.toString(entity)
                + ", added to its leader during the iteration");
        assertTrue(
            joined.contains(entity),
            "a view visited " + Entity.toString(entity) + ", which did not join it");
      }
    }
  }

  /** A permitted mutation: on the visited entity, or additions anywhere, or creations. */
  private void mutateDuringIteration(
      final long entity,
      final ObjectModel first,
      final ObjectModel excluded,
      final SparseSet leader,
      final Set<Long> addedToLeader,
      final Set<Long> joined) {
    switch (random.nextInt(8)) {
      case 0:
        destroy(entity);
        break;
      case 1:
        if (first.has(entity)) {
          registry.erase(entity, first.type);
          first.remove(entity);
        }
        break;
      case 2:
        patch(entity, first);
        break;
      case 3:
        replace(entity, first);
        break;
      case 4:
        { // give another entity a component of a type that is not excluded
          final long other = alive.pick(random);
          final ObjectModel model = pickObject();
          if (model != excluded && !model.has(other)) {
            emplace(other, model);
            if (model.storage == leader) {
              addedToLeader.add(other);
            } else {
              joined.add(other);
            }
          }
          break;
        }
      case 5:
        { // a new entity with the leader's component
          create();
          final long fresh = everCreated[createdCount - 1];
          if (leader == first.storage) {
            emplace(fresh, first);
            addedToLeader.add(fresh);
          }
          break;
        }
      case 6:
        remove(entity);
        break;
      default:
        read(entity, first);
        break;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Full comparison.
  // ---------------------------------------------------------------------------------------------

  private void compareEverything() {
    assertEquals(alive.size(), registry.alive(), "alive count");
    assertEquals(alive.size(), liveByCreation.cardinality());
    for (int n = 0; n < createdCount; n++) {
      if (liveByCreation.get(n) != registry.valid(everCreated[n])) {
        fail(
            "validity of "
                + Entity.toString(everCreated[n])
                + ": expected "
                + liveByCreation.get(n));
      }
    }
    for (final ObjectModel model : objects) {
      final ObjectStorage<Payload> storage = model.storage;
      int live = 0;
      for (int position = 0; position < storage.size(); position++) {
        final long entity = storage.packed()[position];
        if (Entity.isTombstone(entity)) {
          assertEquals(DeletionPolicy.IN_PLACE, storage.policy());
          continue;
        }
        live++;
        assertSame(
            model.refs.get(entity),
            storage.valueAt(position),
            () -> storage.describe() + " " + Entity.toString(entity));
        assertEquals(position, storage.index(entity));
      }
      assertEquals(model.refs.size(), live, storage.describe() + " size");
      for (final Map.Entry<Long, Payload> entry : model.refs.entrySet()) {
        assertSame(entry.getValue(), storage.get(entry.getKey()));
        assertEquals((int) model.values.get(entry.getKey()), entry.getValue().value, "value");
      }
      assertEquals(
          model.expectedEvents[0], model.events[0], storage.describe() + " construct signals");
      assertEquals(
          model.expectedEvents[1], model.events[1], storage.describe() + " update signals");
      assertEquals(
          model.expectedEvents[2], model.events[2], storage.describe() + " destroy signals");
    }
    for (final TagModel model : new TagModel[] {tag, voidTag}) {
      final Set<Long> members = new HashSet<>();
      for (int position = 0; position < model.storage.size(); position++) {
        final long entity = model.storage.packed()[position];
        if (!Entity.isTombstone(entity)) {
          assertTrue(members.add(entity));
        }
      }
      assertEquals(model.members, members, model.storage.describe());
    }
    // Views as sets.
    final Set<Long> expected = new HashSet<>();
    for (final long entity : objects[0].refs.keySet()) {
      if (objects[1].has(entity) && !objects[2].has(entity) && !voidTag.members.contains(entity)) {
        expected.add(entity);
      }
    }
    final Set<Long> actual = new HashSet<>();
    registry
        .view(
            new ComponentType<?, ?>[] {objects[0].type, objects[1].type},
            new ComponentType<?, ?>[] {objects[2].type, voidTag.type})
        .each(actual::add);
    assertEquals(expected, actual, "view contents");
  }
}

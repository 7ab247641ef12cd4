package dev.phalanx.examples.docs;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ChangeSet;
import dev.phalanx.ecs.ComponentTraits;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.DeletionPolicy;
import dev.phalanx.ecs.EmptyStorage;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.EntityHandle;
import dev.phalanx.ecs.NonOwningGroup;
import dev.phalanx.ecs.ObjectStorage;
import dev.phalanx.ecs.OwningGroup;
import dev.phalanx.ecs.Reactive;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.RuntimeView;
import dev.phalanx.ecs.View;
import dev.phalanx.ecs.View2;
import dev.phalanx.ecs.VoidStorage;
import dev.phalanx.ecs.command.CommandBuffer;
import dev.phalanx.ecs.command.CommandBuffers;
import dev.phalanx.ecs.event.EventType;
import dev.phalanx.ecs.event.Observers;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import dev.phalanx.ecs.relation.Cascade;
import dev.phalanx.ecs.relation.OnTargetDestroyed;
import dev.phalanx.ecs.relation.Pairs;
import dev.phalanx.ecs.relation.Relation;
import dev.phalanx.ecs.snapshot.AckedDeltaLoader;
import dev.phalanx.ecs.snapshot.AckedDeltaWriter;
import dev.phalanx.ecs.snapshot.ContinuousLoader;
import dev.phalanx.ecs.snapshot.DeltaLoader;
import dev.phalanx.ecs.snapshot.DeltaWriter;
import dev.phalanx.ecs.snapshot.SnapshotDump;
import dev.phalanx.ecs.snapshot.SnapshotFormatException;
import dev.phalanx.ecs.snapshot.SnapshotLoader;
import dev.phalanx.ecs.snapshot.SnapshotWriter;
import dev.phalanx.examples.components.Position_Cursor;
import dev.phalanx.examples.components.Position_Storage;
import dev.phalanx.examples.components.Position_Traits;
import dev.phalanx.examples.components.Velocity_Cursor;
import dev.phalanx.examples.components.Velocity_Traits;
import dev.phalanx.examples.relations.Docked;
import dev.phalanx.examples.relations.DockedShipsQuery;
import dev.phalanx.examples.relations.Docked_Storage;
import dev.phalanx.examples.relations.Docked_Traits;
import dev.phalanx.examples.relations.Likes;
import dev.phalanx.examples.relations.Likes_Traits;
import dev.phalanx.examples.relations.Trusts;
import dev.phalanx.examples.relations.Trusts_Traits;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.ConcurrentModificationException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The code of the user guide (docs/guide.md). Each region between {@code tag::name[]} and {@code
 * end::name[]} appears verbatim in the guide; {@link DocsSnippetsTest} checks that.
 */
class GuideSnippetsTest {

  // tag::types[]
  /** A component without generated code: stored as one object per entity. */
  static final class Health {
    int points;

    Health(final int points) {
      this.points = points;
    }
  }

  /** A tag: no fields, so no payload is stored. */
  static final class Poisoned {}

  static final ComponentType<Health, ObjectStorage<Health>> HEALTH =
      ComponentType.object(Health.class);
  static final ComponentType<Poisoned, EmptyStorage<Poisoned>> POISONED =
      ComponentType.tag(Poisoned.class);

  // end::types[]

  /** Stable (in-place) object storage, for the pointer-stability section. */
  static class Node {
    long parent = Entity.NULL;
  }

  // tag::in-place-type[]
  static final ComponentType<Node, ObjectStorage<Node>> NODE =
      ComponentType.object(Node.class, ComponentTraits.DEFAULT.withPolicy(DeletionPolicy.IN_PLACE));

  // end::in-place-type[]

  @Test
  void entities() {
    // tag::entities[]
    final Registry registry = new Registry();
    final long hero = registry.create();
    registry.destroy(hero);
    final long next = registry.create(); // recycles hero's index with a new version
    assertEquals(Entity.index(hero), Entity.index(next));
    assertFalse(registry.valid(hero)); // the stale handle is detected
    assertTrue(registry.valid(next));
    // end::entities[]
  }

  @Test
  void entityLevelApi() {
    final Registry registry = new Registry();
    final List<String> log = new ArrayList<>();
    // tag::entity-api[]
    registry.onCreate().connect((r, e) -> log.add("created " + Entity.index(e)));
    registry
        .onDestroy()
        .connect((r, e) -> log.add("destroyed " + Entity.index(e))); // after its components
    final EntityHandle wolf = registry.handle(registry.create());
    wolf.emplace(HEALTH, new Health(30)).emplace(POISONED, new Poisoned());
    final long sheep = registry.create();
    final List<Long> healthy = new ArrayList<>();
    registry.entityView().exclude(POISONED).each(healthy::add); // every live entity but the wolf
    registry.destroy(sheep, 7); // recycled with version 7 instead of the next one
    assertEquals(7, Entity.version(registry.create()));
    // end::entity-api[]
    assertEquals(List.of(sheep), healthy);
    assertEquals(List.of("created 0", "created 1", "destroyed 1", "created 1"), log);
    assertEquals(List.of(HEALTH, POISONED), wolf.components());
  }

  @Test
  void bulkInsertion() {
    final int n = 1000;
    // tag::bulk[]
    final Registry registry = new Registry();
    registry.reserve(n); // room for n entities: creating them allocates nothing
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    positions.reserve(n); // packed array and payload pages for n elements
    final long[] entities = new long[n];
    final float[] xs = new float[n];
    final float[] ys = new float[n];
    for (int i = 0; i < n; i++) {
      xs[i] = i;
      ys[i] = -i;
    }
    registry.create(entities); // EnTT's registry.create(first, last)
    positions.insertColumns(entities, 0, n, xs, ys); // a value per entity, copied page by page
    registry.storage(Velocity_Traits.TYPE).insert(entities, 0, n, 1f, 0f); // one value for all
    // end::bulk[]
    assertEquals(n, positions.size());
    assertEquals(-7f, positions.y(entities[7]));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void components() {
    final Registry registry = new Registry();
    // tag::components[]
    final long e = registry.create();
    registry.emplace(e, HEALTH, new Health(100));
    registry.storage(POISONED).emplace(e);
    registry.patch(e, HEALTH, health -> health.points -= 10);
    assertEquals(90, registry.get(e, HEALTH).points);
    assertTrue(registry.has(e, POISONED));
    registry.remove(e, POISONED); // tolerant: false if it had none
    final IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> registry.erase(e, POISONED)); // strict
    // "cannot erase Poisoned of Entity(index=0, version=0): the entity has no Poisoned"
    // end::components[]
    assertTrue(error.getMessage().contains("Poisoned"), error.getMessage());
  }

  @Test
  void views() {
    final Registry registry = new Registry();
    for (int i = 0; i < 10; i++) {
      final long e = registry.create();
      registry.emplace(e, HEALTH, new Health(i));
      if (i % 2 == 0) {
        registry.storage(POISONED).emplace(e);
      }
    }
    // tag::views[]
    final ObjectStorage<Health> health = registry.storage(HEALTH);
    final View poisoned = registry.view(HEALTH, POISONED);
    poisoned.each(e -> health.get(e).points -= 1);

    final View healthy = registry.view(HEALTH).exclude(registry.storage(POISONED));
    final List<Long> survivors = new ArrayList<>();
    healthy.each(survivors::add);
    // end::views[]
    assertEquals(5, survivors.size());
    // tag::runtime-view[]
    final VoidStorage selected = registry.storage("selected"); // a named, typeless tag pool
    selected.emplace(survivors.get(0));
    final RuntimeView picked = new RuntimeView().iterate(health).iterate(selected);
    assertEquals(1, picked.sizeHint());
    // end::runtime-view[]
  }

  @Test
  void typedViews() {
    final Registry registry = new Registry();
    for (int i = 0; i < 10; i++) {
      final long e = registry.create();
      registry.storage(Position_Traits.TYPE).emplace(e, i, 0f);
      if (i % 2 == 0) {
        registry.storage(Velocity_Traits.TYPE).emplace(e, 1f, 2f);
      }
    }
    // tag::typed-view[]
    final View2<Position_Cursor, Velocity_Cursor> moving =
        registry.typedView(Position_Traits.TYPE, Velocity_Traits.TYPE); // keep it: cursors cached
    moving.each(
        (entity, position, velocity) -> {
          position.setX(position.x() + velocity.dx());
          position.setY(position.y() + velocity.dy());
        });
    // end::typed-view[]
    final long[] moved = {0};
    moving.each((entity, position, velocity) -> moved[0] += (long) position.y());
    assertEquals(5 * 2, moved[0]);
  }

  @Test
  void entityChunks() {
    final Registry registry = new Registry();
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    for (int i = 0; i < 10; i++) {
      final long e = registry.create();
      positions.emplace(e, i, 0f);
      registry.storage(Velocity_Traits.TYPE).emplace(e, 1f, 0f);
    }
    // tag::entity-chunks[]
    final OwningGroup group = registry.owningGroup(Position_Traits.TYPE, Velocity_Traits.TYPE);
    final CommandBuffer commands = new CommandBuffer(registry);
    group.eachChunk(
        (entities, from, to) -> {
          for (int p = from; p < to; p++) {
            if (positions.xAt(p) > 5f) {
              commands.destroy(entities[p]); // the storages are locked: record, apply after
            }
          }
        });
    commands.apply();
    // end::entity-chunks[]
    assertEquals(6, group.size());
  }

  @Test
  void groups() {
    final Registry registry = new Registry();
    // tag::groups[]
    final OwningGroup group = registry.owningGroup(HEALTH, NODE_FREE);
    final long e = registry.create();
    registry.emplace(e, HEALTH, new Health(1));
    registry.emplace(e, NODE_FREE, new Node());
    assertTrue(group.contains(e));
    // Members sit at positions [0, size) of both storages, in the same order.
    assertEquals(e, registry.storage(HEALTH).at(0));
    assertEquals(e, registry.storage(NODE_FREE).at(0));
    // end::groups[]
  }

  /** A swap-and-pop node type, so that it can be owned. */
  static final class FreeNode extends Node {}

  static final ComponentType<Node, ObjectStorage<Node>> NODE_FREE =
      cast(ComponentType.object(FreeNode.class));

  @SuppressWarnings("unchecked") // FreeNode is a Node: the storage only holds FreeNode instances
  private static ComponentType<Node, ObjectStorage<Node>> cast(final ComponentType<?, ?> type) {
    return (ComponentType<Node, ObjectStorage<Node>>) type;
  }

  /** A third component for the nested-groups section. */
  static final class Armor {
    int rating;
  }

  static final ComponentType<Armor, ObjectStorage<Armor>> ARMOR = ComponentType.object(Armor.class);

  @Test
  void nestedGroups() {
    final Registry registry = new Registry();
    // tag::nested-groups[]
    final OwningGroup alive = registry.owningGroup(HEALTH, NODE_FREE);
    final OwningGroup armored =
        registry.owningGroup(HEALTH, NODE_FREE, ARMOR); // nested: extends alive
    final long e = registry.create();
    registry.emplace(e, HEALTH, new Health(5));
    registry.emplace(e, NODE_FREE, new FreeNode());
    registry.emplace(e, ARMOR, new Armor());
    assertTrue(alive.contains(e) && armored.contains(e)); // armored's range is a prefix of alive's
    assertThrows(
        IllegalStateException.class, () -> alive.sort((long l, long r) -> Long.compare(l, r)));
    armored.sort((long l, long r) -> Long.compare(l, r)); // only the most restrictive one sorts
    // end::nested-groups[]
  }

  @Test
  void groupSorting() {
    final Registry registry = new Registry();
    for (int i = 0; i < 1_000; i++) {
      registry.emplace(registry.create(), HEALTH, new Health((i * 7_919) % 1_000));
    }
    // tag::group-sorting[]
    final NonOwningGroup group =
        registry.nonOwningGroup(new ComponentType<?, ?>[] {HEALTH}, new ComponentType<?, ?>[0]);
    final ObjectStorage<Health> health = registry.storage(HEALTH);
    group.sortByLongKey(e -> health.get(e).points); // one key per member, then a radix sort
    final List<Integer> ascending = new ArrayList<>();
    group.eachInOrder(e -> ascending.add(health.get(e).points)); // position 0 first
    final List<Integer> descending = new ArrayList<>();
    group.each(e -> descending.add(health.get(e).points)); // last position first
    // Next frame, a few keys moved a little: insertion sort is O(n) on almost sorted members.
    health.get(group.entityAt(10)).points += 3;
    group.insertionSortByLongKey(e -> health.get(e).points);
    // end::group-sorting[]
    for (int i = 1; i < ascending.size(); i++) {
      assertTrue(ascending.get(i - 1) <= ascending.get(i));
      assertTrue(descending.get(i - 1) >= descending.get(i));
    }
    for (int p = 1; p < group.size(); p++) {
      assertTrue(health.get(group.entityAt(p - 1)).points <= health.get(group.entityAt(p)).points);
    }
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void parallelGrain() {
    final Registry registry = new Registry();
    for (int i = 0; i < 3_000; i++) {
      final long e = registry.create();
      registry.emplace(e, HEALTH, new Health(i));
      registry.emplace(e, NODE_FREE, new FreeNode());
    }
    final java.util.concurrent.atomic.AtomicInteger runs =
        new java.util.concurrent.atomic.AtomicInteger();
    // tag::parallel-grain[]
    final OwningGroup group = registry.owningGroup(HEALTH, NODE_FREE);
    final java.util.concurrent.ForkJoinPool pool = new java.util.concurrent.ForkJoinPool(2);
    // Automatic: about four tasks per thread, of at least 1,024 positions (here three tasks).
    group.parallelEachChunk(pool, (from, to) -> runs.incrementAndGet());
    // This call: tasks of at most 512 positions, for a costly body.
    group.parallelEachChunk(pool, 512, (from, to) -> runs.incrementAndGet());
    // Every later pass of this group, and of the generated queries over it: one task.
    group.parallelGrain(1 << 20);
    // end::parallel-grain[]
    pool.shutdown();
    assertEquals(3 + 6, runs.get());
  }

  @Test
  void threading() {
    final Registry registry = new Registry();
    for (int i = 0; i < 50_000; i++) {
      final long e = registry.create();
      registry.emplace(e, HEALTH, new Health(i));
      registry.emplace(e, NODE_FREE, new FreeNode());
    }
    // tag::threading[]
    final OwningGroup group = registry.owningGroup(HEALTH, NODE_FREE);
    final ObjectStorage<Health> health = registry.storage(HEALTH);
    final java.util.concurrent.ForkJoinPool pool = java.util.concurrent.ForkJoinPool.commonPool();
    group.parallelEachChunk(
        pool,
        (from, to) -> {
          for (int position = from; position < to; position++) {
            health.valueAt(position).points += 1; // each position is written by one thread
          }
        });
    // Structural changes while it runs throw: the group's storages are locked.
    assertThrows(
        ConcurrentModificationException.class,
        () -> group.parallelEachChunk(pool, (from, to) -> registry.destroy(group.entityAt(from))));
    // end::threading[]
    assertEquals(50_000, group.size());
  }

  @Test
  void inPlace() {
    final Registry registry = new Registry();
    // tag::in-place[]
    final ObjectStorage<Node> nodes = registry.storage(NODE);
    final long a = registry.create();
    final long b = registry.create();
    nodes.emplace(a, new Node());
    nodes.emplace(b, new Node());
    final int positionOfB = nodes.index(b);
    nodes.remove(a); // leaves a tombstone: b does not move
    assertEquals(positionOfB, nodes.index(b));
    final IllegalStateException refused =
        assertThrows(
            IllegalStateException.class,
            () -> registry.owningGroup(NODE)); // in-place storages cannot be owned
    nodes.compact(); // removes the holes; now b may move
    // end::in-place[]
    assertTrue(refused.getMessage().contains("in-place"));
  }

  @Test
  void signals() {
    final Registry registry = new Registry();
    // tag::signals[]
    final List<String> log = new ArrayList<>();
    final ObjectStorage<Health> health = registry.storage(HEALTH);
    health.onConstruct().connect((r, e) -> log.add("constructed " + Entity.toString(e)));
    health.onUpdate().connect((r, e) -> log.add("updated"));
    health
        .onDestroy()
        .connect((r, e) -> log.add("destroying, still has " + r.get(e, HEALTH).points));
    final long e = registry.create();
    registry.emplace(e, HEALTH, new Health(3));
    registry.replace(e, HEALTH, new Health(4));
    registry.destroy(e);
    // log: [constructed Entity(index=0, version=0), updated, destroying, still has 4]
    // end::signals[]
    assertEquals(
        List.of("constructed Entity(index=0, version=0)", "updated", "destroying, still has 4"),
        log);
  }

  @Test
  void sorting() {
    final Registry registry = new Registry();
    for (int i = 0; i < 5; i++) {
      registry.emplace(registry.create(), HEALTH, new Health(5 - i));
    }
    // tag::sorting[]
    final ObjectStorage<Health> health = registry.storage(HEALTH);
    health.sortByPosition(
        (l, r) -> Integer.compare(health.valueAt(l).points, health.valueAt(r).points));
    // end::sorting[]
    for (int p = 1; p < health.size(); p++) {
      assertTrue(health.valueAt(p - 1).points <= health.valueAt(p).points);
    }
  }

  @Test
  void iterationRules() {
    final Registry registry = new Registry();
    final List<Long> all = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      final long e = registry.create();
      registry.emplace(e, HEALTH, new Health(i));
      all.add(e);
    }
    // tag::iteration-rules[]
    final View view = registry.view(HEALTH);
    view.each(
        e -> {
          if (registry.get(e, HEALTH).points == 0) {
            registry.destroy(e); // the visited entity: allowed
          }
          registry.emplace(
              registry.create(), HEALTH, new Health(9)); // new entities: allowed, not visited
        });
    assertThrows(
        ConcurrentModificationException.class,
        () ->
            view.each(
                e -> {
                  if (e == all.get(3)) {
                    registry.remove(
                        all.get(1), HEALTH); // another entity of the leading pool: refused
                  }
                }));
    // end::iteration-rules[]
  }

  @Test
  void commands() {
    final Registry registry = new Registry();
    for (int i = -2; i < 3; i++) {
      registry.emplace(registry.create(), HEALTH, new Health(i));
    }
    // tag::commands[]
    final CommandBuffer commands = new CommandBuffer(registry);
    registry
        .view(HEALTH)
        .each(
            e -> {
              if (registry.get(e, HEALTH).points <= 0) {
                commands.destroy(e); // the dead go after the pass
                final long ghost = commands.create(); // a reserved handle, usable in later commands
                commands.emplace(ghost, POISONED); // a tag: no value
              }
            });
    commands.apply(); // reserved entities first, then every command in recording order
    // end::commands[]
    assertEquals(2, registry.storage(HEALTH).size());
    assertEquals(3, registry.storage(POISONED).size());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void parallelCommands() {
    final Registry registry = new Registry();
    for (int i = 0; i < 50_000; i++) {
      final long e = registry.create();
      registry.emplace(e, HEALTH, new Health(i % 200));
      registry.emplace(e, NODE_FREE, new FreeNode());
    }
    final OwningGroup group = registry.owningGroup(HEALTH, NODE_FREE);
    final ObjectStorage<Health> health = registry.storage(HEALTH);
    final java.util.concurrent.ForkJoinPool pool = java.util.concurrent.ForkJoinPool.commonPool();
    // tag::parallel-commands[]
    final CommandBuffers perRun = new CommandBuffers(registry);
    perRun.parallelEachChunk(
        group, // each run gets its own buffer, that of its first position
        pool,
        (buffer, entities, from, to) -> {
          for (int position = from; position < to; position++) {
            if (health.valueAt(position).points > 100) {
              buffer.destroy(entities[position]);
            }
          }
        });
    perRun.apply(); // the runs in position order: the same world with 1 or 8 threads
    // end::parallel-commands[]
    assertEquals(50_000 / 200 * 101, group.size());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void reactive() {
    final Registry registry = new Registry();
    final long first = registry.create();
    registry.emplace(first, HEALTH, new Health(1));
    registry.emplace(registry.create(), HEALTH, new Health(2));
    final List<String> log = new ArrayList<>();
    // tag::reactive[]
    final Reactive pushed =
        Reactive.collect(registry, ComponentType.named("pushed")).onUpdate(HEALTH);
    registry.replace(first, HEALTH, new Health(7)); // an update: collected
    final View view =
        registry.view(
            new ComponentType<?, ?>[] {HEALTH, ComponentType.named("pushed")},
            new ComponentType<?, ?>[0]);
    view.each(e -> log.add("pushed " + registry.get(e, HEALTH).points));
    pushed.clear(); // processed
    // end::reactive[]
    assertEquals(List.of("pushed 7"), log);
    assertEquals(0, pushed.size());
  }

  @Test
  void reactiveRules() {
    final Registry registry = new Registry();
    final long healthy = registry.create();
    final long sick = registry.create();
    registry.emplace(healthy, HEALTH, new Health(1));
    registry.emplace(sick, HEALTH, new Health(1));
    registry.emplace(sick, POISONED, new Poisoned());
    // tag::reactive-rules[]
    final Reactive healed =
        Reactive.collect(registry, ComponentType.named("healed"))
            .onUpdate(
                HEALTH, e -> !registry.has(e, POISONED)); // EnTT's where: tested at the update
    registry.replace(healthy, HEALTH, new Health(9)); // collected
    registry.replace(sick, HEALTH, new Health(9)); // filtered out
    healed.remove(HEALTH); // no rule on Health any more; what was collected stays
    // end::reactive-rules[]
    assertEquals(1, healed.size());
    assertTrue(healed.contains(healthy));
    assertEquals(0, healed.ruleCount());
  }

  @Test
  void hierarchies() {
    final Registry registry = new Registry();
    // tag::hierarchies[]
    final Hierarchy hierarchy = Hierarchy.of(registry);
    final long ship = registry.create();
    final long turret = registry.create();
    final long gun = registry.create();
    hierarchy.attach(turret, ship);
    hierarchy.attach(gun, turret);
    assertThrows(IllegalArgumentException.class, () -> hierarchy.attach(ship, gun)); // a cycle
    final List<Long> order = new ArrayList<>();
    hierarchy.depthFirst(ship, order::add); // ship, turret, gun: parents first
    hierarchy.destroyTree(turret); // gun, then turret
    assertEquals(0, hierarchy.childCount(ship));
    // end::hierarchies[]
    assertEquals(List.of(ship, turret, gun), order);
    assertEquals(List.of(), registry.danglingReferences());
  }

  @Test
  void hierarchyEdits() {
    final Registry registry = new Registry();
    final Hierarchy hierarchy = Hierarchy.of(registry);
    final long ship = registry.create();
    final long bow = registry.create();
    final long stern = registry.create();
    final long mast = registry.create();
    // tag::hierarchy-edits[]
    hierarchy.replaceChildren(ship, new long[] {bow, stern}); // exactly these, in this order
    hierarchy.attach(mast, ship, 1); // between bow and stern
    assertEquals(mast, hierarchy.childAt(ship, 1));
    hierarchy.destroyDescendants(ship); // bow, mast and stern; the ship stays
    assertEquals(
        List.of(), hierarchy.verify()); // the hierarchy's own check, also run by registry.verify()
    // end::hierarchy-edits[]
    assertTrue(registry.valid(ship));
    assertFalse(registry.valid(mast));
    assertEquals(0, hierarchy.childCount(ship));
  }

  @Test
  void relationships() {
    final Registry registry = new Registry();
    final long carrier = registry.create();
    final long fighter = registry.create();
    final long drone = registry.create();
    // tag::relationships[]
    final Docked_Storage docked = registry.storage(Docked_Traits.TYPE);
    docked.emplace(fighter, carrier, 1); // the fighter docks in bay 1 of the carrier
    docked.emplace(drone, fighter, 0); // and a drone in the fighter
    final Relation<Docked> docking = Relation.of(registry, Docked_Traits.TYPE);
    final long[] inCarrier = docking.sources(carrier); // {fighter}, O(sources)
    final long where = docking.target(drone); // fighter, O(1)
    registry.destroy(carrier); // DESTROY_SOURCES: the fighter and the drone go with it
    // end::relationships[]
    assertEquals(1, inCarrier.length);
    assertEquals(fighter, inCarrier[0]);
    assertEquals(fighter, where);
    assertEquals(0, registry.alive());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void cascade() {
    final Registry registry = new Registry();
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    final Docked_Storage docked = registry.storage(Docked_Traits.TYPE);
    final long carrier = registry.create();
    final long fighter = registry.create();
    final long drone = registry.create();
    positions.emplace(drone, 0f, 1f); // y: the x offset from the target
    positions.emplace(fighter, 0f, 10f);
    positions.emplace(carrier, 100f, 100f);
    docked.emplace(fighter, carrier, 1);
    docked.emplace(drone, fighter, 0);
    // tag::cascade[]
    final Cascade cascade = Cascade.of(Relation.of(registry, Docked_Traits.TYPE), positions);
    final int shift = positions.pageShift();
    final int mask = positions.pageSize() - 1;
    final float[][] xs = positions.xPages(); // x in the world
    final float[][] offsets = positions.yPages(); // x relative to the target
    cascade.each(
        (from, to, parentFrom, oneParent) -> {
          final float[] x = xs[from >>> shift];
          final float[] offset = offsets[from >>> shift];
          final float[] parentX = xs[parentFrom >>> shift];
          for (int i = from; i < to; i++) {
            final int parent = oneParent ? parentFrom : parentFrom + (i - from);
            x[i & mask] = parentX[parent & mask] + offset[i & mask];
          }
        });
    // end::cascade[]
    assertEquals(110f, positions.x(fighter));
    assertEquals(111f, positions.x(drone));
    assertEquals(List.of(), registry.verify());
  }

  void pairs() {
    final Registry registry = new Registry();
    final long alice = registry.create();
    final long bob = registry.create();
    final long carol = registry.create();
    final long dave = registry.create();
    final List<Long> fans = new ArrayList<>();
    // tag::pairs[]
    final Pairs<Likes> likes =
        Pairs.declare(registry, Likes_Traits.TYPE, OnTargetDestroyed.REMOVE, false);
    likes.add(alice, bob); // (Likes, bob) on alice: the first pair adds the Likes tag
    likes.add(alice, carol); // and (Likes, carol): any number of targets
    likes.add(dave, bob);
    final boolean pair = likes.has(alice, carol); // true, O(1) expected
    for (int p = likes.firstSource(bob); Pairs.NONE != p; p = likes.nextSource(p)) {
      fans.add(likes.source(p)); // alice, then dave: O(result), no allocation
    }
    likes.replace(alice, carol, dave); // (Likes, carol) becomes (Likes, dave) in place
    registry.destroy(bob); // REMOVE: alice and dave lose (Likes, bob)
    // end::pairs[]
    assertTrue(pair);
    assertEquals(List.of(alice, dave), fans);
    assertArrayEquals(new long[] {dave}, likes.targets(alice));
    assertFalse(likes.has(dave));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void pairsByAnnotation() {
    final Registry registry = new Registry();
    // tag::pairs-annotation[]
    final Pairs<Trusts> trusts = Pairs.of(registry, Trusts_Traits.TYPE); // declared by its storage
    // end::pairs-annotation[]
    assertEquals(OnTargetDestroyed.DESTROY_SOURCES, trusts.onTargetDestroyed());
  }

  @Test
  void relationshipQueries() {
    final Registry registry = new Registry();
    final Pairs<Likes> likes =
        Pairs.declare(registry, Likes_Traits.TYPE, OnTargetDestroyed.REMOVE, false);
    final Position_Storage positions = registry.storage(Position_Traits.TYPE);
    final Docked_Storage docked = registry.storage(Docked_Traits.TYPE);
    final long bob = registry.create();
    final long alice = registry.create();
    final long dave = registry.create();
    final long carrier = registry.create();
    positions.emplace(alice, 0f, 0f);
    positions.emplace(dave, 1f, 0f);
    likes.add(alice, bob);
    docked.emplace(dave, carrier, 3);
    final List<Long> near = new ArrayList<>();
    final List<Long> carriers = new ArrayList<>();
    // tag::relationship-queries[]
    // (Likes, *) with a Position: the kind's tag is the term; exclude it for "likes nobody".
    final RuntimeView likers = new RuntimeView().iterate(positions).iterate(likes.storage());
    final RuntimeView loners = new RuntimeView().iterate(positions).exclude(likes.storage());
    // (Likes, bob) with a Position: the target fixed, O(sources of bob).
    likes.eachSource(bob, new RuntimeView().iterate(positions), fan -> near.add(fan));
    // An exclusive kind in a generated query: its cursor reads the target.
    DockedShipsQuery.of(registry).each((ship, dock, position) -> carriers.add(dock.carrier()));
    // end::relationship-queries[]
    assertTrue(likers.contains(alice));
    assertFalse(likers.contains(dave));
    assertTrue(loners.contains(dave));
    assertEquals(List.of(alice), near);
    assertEquals(List.of(carrier), carriers);
  }

  /** A hit on a turret, as the guide's observers section triggers it. */
  record Hit(int damage) {}

  @Test
  void observers() {
    final Registry registry = new Registry();
    final Hierarchy hierarchy = Hierarchy.of(registry);
    final long ship = registry.create();
    final long turret = registry.create();
    hierarchy.attach(turret, ship);
    final List<String> heard = new ArrayList<>();
    // tag::observers[]
    final EventType<Hit> hit = EventType.propagating("hit", Hit.class); // a constant, in a game
    final Observers observers = Observers.of(registry);
    observers.observe(hit, turret, t -> heard.add("turret takes " + t.event().damage()));
    observers.observe(
        hit,
        t -> {
          heard.add(Entity.toString(t.entity()) + " hears of it");
          if (t.entity() == ship) {
            t.stopPropagation(); // nothing above the ship hears it
          }
        });
    observers.trigger(hit, turret, new Hit(5)); // the turret's observers, then the ship's
    // end::observers[]
    assertEquals(
        List.of(
            "turret takes 5",
            Entity.toString(turret) + " hears of it",
            Entity.toString(ship) + " hears of it"),
        heard);
  }

  @Test
  void userCodeThatThrows() {
    final Registry registry = new Registry();
    // tag::user-code-throws[]
    registry
        .storage(HEALTH)
        .onDestroy()
        .connect(
            (r, e) -> {
              throw new IllegalStateException("a listener that fails");
            });
    final long doomed = registry.create();
    registry.emplace(doomed, HEALTH, new Health(1));
    assertThrows(IllegalStateException.class, () -> registry.destroy(doomed));
    assertFalse(registry.valid(doomed)); // the destroy completed all the same
    assertEquals(List.of(), registry.verify());
    // end::user-code-throws[]
    assertEquals(0, registry.storage(HEALTH).size());
  }

  @Test
  void snapshots() throws IOException {
    final Registry registry = new Registry();
    final long ship = registry.create();
    registry.storage(Position_Traits.TYPE).emplace(ship, 1f, 2f);
    // tag::snapshots[]
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    new SnapshotWriter(registry).write(out); // or .types(...), .entities(...), .extra(name, bytes)
    final Registry copy = new Registry(); // never created an entity
    new SnapshotLoader(copy) // a stream names only the types a loader is given, or its target has
        .types(Position_Traits.TYPE)
        .load(new ByteArrayInputStream(out.toByteArray()));
    assertEquals(
        registry.get(ship, Position_Traits.TYPE), copy.get(ship, Position_Traits.TYPE)); // same ids
    assertThrows(
        SnapshotFormatException.class, // bad input: nothing changes
        () ->
            new SnapshotLoader(new Registry())
                .load(new ByteArrayInputStream(new byte[] {'P', 'H'})));
    // end::snapshots[]
    // tag::continuous[]
    final Registry mirror = new Registry();
    final long own = mirror.create(); // the mirror's own entities are left alone
    final ContinuousLoader loader = new ContinuousLoader(mirror).types(Position_Traits.TYPE);
    loader.load(ByteBuffer.wrap(out.toByteArray())); // in memory: read in place; again per snapshot
    final long local = loader.map(ship); // the mirror's entity for the remote ship
    assertEquals(1f, mirror.storage(Position_Traits.TYPE).x(local));
    // end::continuous[]
    // tag::dump[]
    final StringBuilder text = new StringBuilder();
    SnapshotDump.write(copy, text); // {"entities": ..., "storages": [...], "components": [...]}
    // end::dump[]
    assertTrue(mirror.valid(own));
    assertTrue(text.toString().contains("\"x\": 1.0"), text.toString());
  }

  @Test
  void deltas() throws IOException {
    final Registry server = new Registry();
    final long ship = server.create();
    server.storage(Position_Traits.TYPE).emplace(ship, 1f, 2f);
    final Registry client = new Registry();
    // tag::deltas[]
    final DeltaWriter toClient = new DeltaWriter(server).interest(e -> true); // one per client
    final DeltaLoader replica = new DeltaLoader(client).types(Position_Traits.TYPE);
    int length = toClient.write(); // the first delta: everything
    replica.load(toClient.bytes(), length); // (write first: it may grow the array bytes() returns)
    server.remove(ship, Position_Traits.TYPE);
    final long rock = server.create();
    length = toClient.write(); // then only what changed since
    replica.load(toClient.bytes(), length);
    assertFalse(client.has(replica.map(ship), Position_Traits.TYPE));
    assertTrue(client.valid(replica.map(rock)));
    assertThrows( // a delta on another base: refused, nothing changes
        SnapshotFormatException.class, () -> new DeltaLoader(client).load(toClient.bytes(), 60));
    // end::deltas[]
    toClient.close();
  }

  @Test
  void acknowledgedDeltas() throws IOException {
    final Registry server = new Registry();
    final long ship = server.create();
    server.storage(Position_Traits.TYPE).emplace(ship, 1f, 2f);
    final Registry client = new Registry();
    // tag::acked-deltas[]
    final AckedDeltaWriter toClient = new AckedDeltaWriter(server, 32); // keeps 32 baselines
    final AckedDeltaLoader replica = new AckedDeltaLoader(client).types(Position_Traits.TYPE);
    int length = toClient.write(); // sequence 1: a resync, as nothing is acknowledged yet
    assertEquals(AckedDeltaLoader.Outcome.RESYNCED, replica.load(toClient.bytes(), length));
    toClient.acknowledge(replica.sequence()); // the client sends its sequence back, every frame
    server.remove(ship, Position_Traits.TYPE);
    toClient.write(); // sequence 2, against 1: lost on the way
    final long rock = server.create();
    length = toClient.write(); // sequence 3, against 1 still: it carries the removal too
    final byte[] datagram = Arrays.copyOf(toClient.bytes(), length);
    assertEquals(AckedDeltaLoader.Outcome.APPLIED, replica.load(datagram, length));
    assertEquals(AckedDeltaLoader.Outcome.STALE, replica.load(datagram, length)); // a duplicate
    assertFalse(client.has(replica.map(ship), Position_Traits.TYPE));
    assertTrue(client.valid(replica.map(rock)));
    // end::acked-deltas[]
    toClient.close();
  }

  @Test
  void aChangeSetLandsWholeOrNotAtAll() {
    final Registry registry = new Registry();
    final long wreck = registry.create();
    // tag::change-set[]
    final ChangeSet level = new ChangeSet(registry);
    final long ship = level.create(); // a staged handle: usable now, created by the commit
    level.emplace(ship, HEALTH, new Health(100));
    level.emplace(ship, POISONED); // a tag
    level.destroy(wreck);
    level.commit(); // checked in full, then applied, then announced
    final long created = level.entityOf(ship);
    // end::change-set[]
    assertTrue(registry.valid(created));
    assertEquals(100, registry.get(created, HEALTH).points);
    assertFalse(registry.valid(wreck));
    // tag::change-set-refused[]
    final ChangeSet edit = new ChangeSet(registry);
    edit.emplace(edit.create(), HEALTH, new Health(1));
    edit.emplace(created, HEALTH, new Health(2)); // it has one already: the commit is refused
    final int alive = registry.alive();
    assertThrows(IllegalArgumentException.class, edit::commit);
    assertEquals(alive, registry.alive()); // nothing was created
    assertEquals(100, registry.get(created, HEALTH).points); // nothing was written
    // end::change-set-refused[]
    assertEquals(List.of(), registry.verify());
  }
}

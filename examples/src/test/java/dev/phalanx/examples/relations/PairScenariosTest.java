package dev.phalanx.examples.relations;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.RuntimeView;
import dev.phalanx.ecs.clone.EntityCloner;
import dev.phalanx.ecs.clone.Prefab;
import dev.phalanx.ecs.relation.OnTargetDestroyed;
import dev.phalanx.ecs.relation.Pairs;
import dev.phalanx.ecs.relation.Relation;
import dev.phalanx.ecs.snapshot.ContinuousLoader;
import dev.phalanx.ecs.snapshot.DeltaWriter;
import dev.phalanx.ecs.snapshot.SnapshotFormatException;
import dev.phalanx.ecs.snapshot.SnapshotLoader;
import dev.phalanx.ecs.snapshot.SnapshotWriter;
import dev.phalanx.examples.components.Position;
import dev.phalanx.examples.components.Position_Traits;
import dev.phalanx.examples.components.Velocity_Traits;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Pair kinds one behaviour at a time, many ported from flecs's pair and delete tests ({@code
 * test/core/src/Pairs.c}, {@code OnDelete.c}) and Bevy's relationship tests ({@code
 * crates/bevy_ecs/src/relationship/mod.rs}); each test names the upstream test whose idea it ports.
 */
class PairScenariosTest {

  private final Registry registry = new Registry();
  private final Pairs<Likes> likes =
      Pairs.declare(registry, Likes_Traits.TYPE, OnTargetDestroyed.REMOVE, false);
  private final Pairs<Escorts> escorts =
      Pairs.declare(registry, Escorts_Traits.TYPE, OnTargetDestroyed.DESTROY_SOURCES, false);
  private final Pairs<DependsOn> depends =
      Pairs.declare(registry, DependsOn_Traits.TYPE, OnTargetDestroyed.REFUSE, true);

  /**
   * Bevy {@code custom_relationship}: the target lists its sources in the order they were added.
   */
  @Test
  void targetListsItsSourcesInAddOrder() {
    final long a = registry.create();
    final long b = registry.create();
    final long c = registry.create();
    likes.add(b, a);
    likes.add(c, a);
    assertArrayEquals(new long[] {b, c}, likes.sources(a));
    assertArrayEquals(new long[] {a}, likes.targets(b));
    assertEquals(List.of(), registry.verify());
  }

  /** flecs {@code Pairs_remove_wildcard}: removing (A, *) leaves the pairs of other kinds. */
  @Test
  void removingEveryPairOfOneKindLeavesTheOthers() {
    final long e = registry.create();
    final long objA = registry.create();
    final long objB = registry.create();
    likes.add(e, objA);
    likes.add(e, objB);
    escorts.add(e, objA);
    escorts.add(e, objB);
    assertTrue(likes.removeAll(e));
    assertFalse(likes.has(e, objA));
    assertFalse(likes.has(e, objB));
    assertFalse(likes.has(e));
    assertTrue(escorts.has(e, objA));
    assertTrue(escorts.has(e, objB));
    assertEquals(0, likes.sourceCount(objA));
    assertEquals(List.of(), registry.verify());
  }

  /** flecs {@code Pairs_has_wildcard_w_pair}: (Kind, *) holds while any pair does. */
  @Test
  void wildcardHoldsWhileAnyPairDoes() {
    final long e = registry.create();
    final long x = registry.create();
    final long y = registry.create();
    assertFalse(likes.has(e));
    likes.add(e, x);
    likes.add(e, y);
    assertTrue(likes.has(e));
    likes.remove(e, x);
    assertTrue(likes.storage().contains(e), "one pair left: the tag stays");
    likes.remove(e, y);
    assertFalse(likes.storage().contains(e), "no pair left: the tag goes");
  }

  /**
   * flecs {@code Pairs_add_not_alive_relation} and Bevy {@code
   * relationship_with_missing_target_fails}: a pair naming a dead entity is refused, changing
   * nothing.
   */
  @Test
  void aDeadEntityIsRefusedChangingNothing() {
    final long e = registry.create();
    final long gone = registry.create();
    registry.destroy(gone);
    final IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> likes.add(e, gone));
    assertTrue(refused.getMessage().contains("Likes"), refused.getMessage());
    assertTrue(refused.getMessage().contains("not a live entity"), refused.getMessage());
    assertThrows(IllegalArgumentException.class, () -> likes.add(gone, e));
    assertFalse(likes.has(e));
    assertEquals(0, likes.size());
    assertEquals(List.of(), registry.verify());
  }

  /**
   * Bevy {@code self_relationship_fails}: an acyclic kind refuses an entity paired with itself, and
   * a longer cycle; a kind that allows cycles takes both.
   */
  @Test
  void anAcyclicKindRefusesSelfPairsAndCycles() {
    final long a = registry.create();
    final long b = registry.create();
    final long c = registry.create();
    assertThrows(IllegalArgumentException.class, () -> depends.add(a, a));
    depends.add(a, b);
    depends.add(b, c);
    final IllegalArgumentException cycle =
        assertThrows(IllegalArgumentException.class, () -> depends.add(c, a));
    assertTrue(cycle.getMessage().contains("acyclic"), cycle.getMessage());
    depends.add(a, c); // a diamond is no cycle
    assertThrows(IllegalArgumentException.class, () -> depends.replace(a, b, a));
    assertArrayEquals(new long[] {b, c}, depends.targets(a));
    likes.add(a, a);
    assertTrue(likes.has(a, a));
    assertEquals(List.of(), registry.verify());
  }

  /**
   * flecs {@code OnDelete_id_default}, for targets: destroying a target of a {@code REMOVE} kind
   * removes the pairs naming it and keeps the sources; their other pairs stay.
   */
  @Test
  void destroyingATargetRemovesItsPairs() {
    final long e = registry.create();
    final long bob = registry.create();
    final long carol = registry.create();
    likes.add(e, bob);
    likes.add(e, carol);
    registry.destroy(bob);
    assertTrue(registry.valid(e));
    assertArrayEquals(new long[] {carol}, likes.targets(e));
    registry.destroy(carol);
    assertFalse(likes.has(e));
    assertEquals(List.of(), registry.verify());
  }

  /** flecs's {@code (OnDeleteTarget, Delete)}: the sources go with the target, transitively. */
  @Test
  void destroyingATargetDestroysItsEscortsInChains() {
    final long carrier = registry.create();
    final long frigate = registry.create();
    final long fighter = registry.create();
    final long bystander = registry.create();
    escorts.add(frigate, carrier);
    escorts.add(fighter, frigate);
    escorts.add(bystander, registry.create());
    likes.add(bystander, fighter);
    registry.destroy(carrier);
    assertFalse(registry.valid(frigate));
    assertFalse(registry.valid(fighter));
    assertTrue(registry.valid(bystander));
    assertFalse(likes.has(bystander));
    assertEquals(List.of(), registry.verify());
  }

  /**
   * flecs {@code OnDelete_object_throw}: a {@code REFUSE} kind refuses the destroy of a target (an
   * exception rather than an abort), changing nothing; a batch taking the source too passes.
   */
  @Test
  void aRefusingKindRefusesTheDestroyOfATarget() {
    final long task = registry.create();
    final long dependency = registry.create();
    depends.add(task, dependency);
    final IllegalStateException refused =
        assertThrows(IllegalStateException.class, () -> registry.destroy(dependency));
    assertTrue(refused.getMessage().contains("DependsOn"), refused.getMessage());
    assertTrue(registry.valid(dependency));
    assertTrue(depends.has(task, dependency));
    registry.destroy(new long[] {dependency, task}, 0, 2);
    assertEquals(0, depends.size());
    assertEquals(List.of(), registry.verify());
  }

  /**
   * Bevy {@code parent_child_relationship_with_custom_relationship}: destroying a source drops its
   * pairs from its targets' lists.
   */
  @Test
  void destroyingASourceDropsItsPairs() {
    final long a = registry.create();
    final long b = registry.create();
    final long t = registry.create();
    likes.add(a, t);
    likes.add(b, t);
    depends.add(a, t);
    registry.destroy(a);
    assertArrayEquals(new long[] {b}, likes.sources(t));
    assertEquals(0, depends.sourceCount(t));
    registry.destroy(t); // nothing refuses it any more
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aDuplicatePairChangesNothing() {
    final long a = registry.create();
    final long b = registry.create();
    final long c = registry.create();
    assertTrue(likes.add(a, b));
    assertTrue(likes.add(a, c));
    assertFalse(likes.add(a, b));
    assertArrayEquals(new long[] {b, c}, likes.targets(a));
    assertFalse(likes.remove(a, a));
    assertEquals(2, likes.size());
  }

  @Test
  void replaceKeepsThePlaceAmongTheSourcesTargets() {
    final long a = registry.create();
    final long b = registry.create();
    final long c = registry.create();
    final long d = registry.create();
    likes.add(a, b);
    likes.add(a, c);
    likes.add(d, d);
    likes.replace(a, b, d);
    assertArrayEquals(new long[] {d, c}, likes.targets(a));
    assertArrayEquals(new long[] {d, a}, likes.sources(d));
    assertEquals(0, likes.sourceCount(b));
    likes.replace(a, d, c); // it has (a, c): the pair with d goes, (a, c) stays where it was
    assertArrayEquals(new long[] {c}, likes.targets(a));
    final IllegalArgumentException missing =
        assertThrows(IllegalArgumentException.class, () -> likes.replace(a, b, c));
    assertTrue(missing.getMessage().contains("no such pair"), missing.getMessage());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void theTagListenersSeeThePairAlreadyThereAndAlreadyGone() {
    final long a = registry.create();
    final long b = registry.create();
    final List<Integer> seen = new ArrayList<>();
    likes.storage().onConstruct().connect((r, e) -> seen.add(likes.targetCount(e)));
    likes.storage().onDestroy().connect((r, e) -> seen.add(likes.targetCount(e)));
    likes.add(a, b);
    likes.remove(a, b);
    assertEquals(List.of(1, 0), seen);
  }

  @Test
  void aTagAddedByHandIsRefusedAndNamedByVerify() {
    final long a = registry.create();
    final IllegalStateException refused =
        assertThrows(IllegalStateException.class, () -> likes.storage().emplace(a));
    assertTrue(refused.getMessage().contains("Pairs.add"), refused.getMessage());
    assertEquals(1, registry.verify().size(), registry.verify().toString());
    likes.storage().remove(a);
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void declaringAgainTakesTheSamePoliciesOnly() {
    assertSame(likes, Pairs.declare(registry, Likes_Traits.TYPE, OnTargetDestroyed.REMOVE, false));
    assertSame(likes, Pairs.of(registry, Likes_Traits.TYPE));
    assertThrows(
        IllegalStateException.class,
        () -> Pairs.declare(registry, Likes_Traits.TYPE, OnTargetDestroyed.REFUSE, false));
    assertThrows(IllegalStateException.class, () -> Pairs.of(new Registry(), Likes_Traits.TYPE));
  }

  @Test
  void viewsRequireExcludeAndFixTheTarget() {
    final long bob = registry.create();
    final long alice = registry.create();
    final long carol = registry.create();
    final long dave = registry.create();
    for (final long e : new long[] {alice, carol, dave}) {
      registry.emplace(e, Position_Traits.TYPE, new Position(1f, 2f));
    }
    likes.add(alice, bob);
    likes.add(carol, bob);
    likes.add(carol, alice);
    registry
        .storage(Velocity_Traits.TYPE)
        .emplace(carol, new dev.phalanx.examples.components.Velocity(0f, 0f));
    // (Likes, *) with Position, and Position without (Likes, *): the tag is the term.
    final List<Long> with = new ArrayList<>();
    new RuntimeView()
        .iterate(registry.storage(Position_Traits.TYPE))
        .iterate(likes.storage())
        .each(e -> with.add(e));
    assertEquals(2, with.size());
    final List<Long> without = new ArrayList<>();
    new RuntimeView()
        .iterate(registry.storage(Position_Traits.TYPE))
        .exclude(likes.storage())
        .each(e -> without.add(e));
    assertEquals(List.of(dave), without);
    // (Likes, bob) with Position and without Velocity.
    final RuntimeView filter =
        new RuntimeView()
            .iterate(registry.storage(Position_Traits.TYPE))
            .exclude(registry.storage(Velocity_Traits.TYPE));
    final List<Long> fans = new ArrayList<>();
    likes.eachSource(bob, filter, fans::add);
    assertEquals(List.of(alice), fans);
  }

  @Test
  void anExclusiveKindFixesTheTargetToo() {
    final Docked_Storage docked = registry.storage(Docked_Traits.TYPE);
    final Relation<Docked> docking = Relation.of(registry, Docked_Traits.TYPE);
    final long carrier = registry.create();
    final long a = registry.create();
    final long b = registry.create();
    docked.emplace(a, carrier, 1);
    docked.emplace(b, carrier, 2);
    registry.emplace(b, Position_Traits.TYPE, new Position(0f, 0f));
    final List<Long> seen = new ArrayList<>();
    docking.eachSource(
        carrier, new RuntimeView().iterate(registry.storage(Position_Traits.TYPE)), seen::add);
    assertEquals(List.of(b), seen);
    // The visitor may take the relationship of the source it is called for.
    final RuntimeView all = new RuntimeView().iterate(docked);
    docking.eachSource(carrier, all, docked::remove);
    assertEquals(0, docking.sourceCount(carrier));
  }

  @Test
  void aWalkMayRemoveThePairItVisits() {
    final long t = registry.create();
    final long[] fans = {registry.create(), registry.create(), registry.create()};
    for (final long fan : fans) {
      likes.add(fan, t);
    }
    final List<Long> seen = new ArrayList<>();
    likes.eachSource(
        t,
        new RuntimeView().iterate(likes.storage()),
        source -> {
          seen.add(source);
          likes.remove(source, t);
        });
    assertEquals(List.of(fans[0], fans[1], fans[2]), seen);
    assertEquals(0, likes.size());
    assertEquals(List.of(), registry.verify());
  }

  private static byte[] save(final SnapshotWriter writer) throws IOException {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    writer.write(bytes);
    return bytes.toByteArray();
  }

  @Test
  void pairsSurviveASnapshotRoundTrip() throws IOException {
    final long a = registry.create();
    final long b = registry.create();
    final long c = registry.create();
    likes.add(a, b);
    likes.add(a, c);
    likes.add(c, b);
    depends.add(b, c);
    final byte[] snapshot = save(new SnapshotWriter(registry).extra("mine", new byte[] {7}));
    final Registry loaded = new Registry();
    final Pairs<Likes> loadedLikes =
        Pairs.declare(loaded, Likes_Traits.TYPE, OnTargetDestroyed.REMOVE, false);
    final Pairs<DependsOn> loadedDepends =
        Pairs.declare(loaded, DependsOn_Traits.TYPE, OnTargetDestroyed.REFUSE, true);
    Pairs.declare(loaded, Escorts_Traits.TYPE, OnTargetDestroyed.DESTROY_SOURCES, false);
    final var extras = new SnapshotLoader(loaded).load(new ByteArrayInputStream(snapshot));
    assertEquals(List.of("mine"), List.copyOf(extras.keySet()), "pair blocks are not the caller's");
    assertArrayEquals(new long[] {b, c}, loadedLikes.targets(a));
    assertArrayEquals(new long[] {a, c}, loadedLikes.sources(b));
    assertArrayEquals(new long[] {c}, loadedDepends.targets(b));
    assertEquals(List.of(), loaded.verify());
    assertThrows(IllegalStateException.class, () -> loaded.destroy(c), "REFUSE still applies");
  }

  @Test
  void writersAndLoadersThatCannotCarryPairsRefuseNamingTheKind() throws IOException {
    final long a = registry.create();
    final long b = registry.create();
    likes.add(a, b);
    final IllegalStateException chosen =
        assertThrows(
            IllegalStateException.class, () -> save(new SnapshotWriter(registry).entities(a, b)));
    assertTrue(chosen.getMessage().contains("Likes"), chosen.getMessage());
    // Types without the tag leave the kind out, pairs and all.
    save(new SnapshotWriter(registry).types(Position_Traits.TYPE).entities(a, b));
    final byte[] snapshot = save(new SnapshotWriter(registry));
    final Registry plain = new Registry(); // the tags' storages, but no pair kind declared
    plain.storage(Likes_Traits.TYPE);
    plain.storage(Escorts_Traits.TYPE);
    plain.storage(DependsOn_Traits.TYPE);
    plain.storage(Position_Traits.TYPE);
    final SnapshotFormatException undeclared =
        assertThrows(
            SnapshotFormatException.class,
            () -> new SnapshotLoader(plain).load(new ByteArrayInputStream(snapshot)));
    assertTrue(undeclared.getMessage().contains("Likes"), undeclared.getMessage());
    final Registry replica = new Registry();
    Pairs.declare(replica, Likes_Traits.TYPE, OnTargetDestroyed.REMOVE, false);
    Pairs.declare(replica, Escorts_Traits.TYPE, OnTargetDestroyed.DESTROY_SOURCES, false);
    Pairs.declare(replica, DependsOn_Traits.TYPE, OnTargetDestroyed.REFUSE, true);
    replica.storage(Position_Traits.TYPE);
    final SnapshotFormatException continuous =
        assertThrows(
            SnapshotFormatException.class,
            () -> new ContinuousLoader(replica).load(new ByteArrayInputStream(snapshot)));
    assertTrue(continuous.getMessage().contains("Likes"), continuous.getMessage());
    assertEquals(0, replica.alive());
    final IllegalStateException delta =
        assertThrows(IllegalStateException.class, () -> new DeltaWriter(registry).write());
    assertTrue(delta.getMessage().contains("Likes"), delta.getMessage());
  }

  @Test
  void clonesAndPrefabsRefuseAnEntityWithPairsUnlessTheKindIsSkipped() {
    final long a = registry.create();
    final long b = registry.create();
    registry.emplace(a, Position_Traits.TYPE, new Position(1f, 1f));
    likes.add(a, b);
    final int alive = registry.alive();
    final IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> EntityCloner.within(registry).clone(a));
    assertTrue(refused.getMessage().contains("Likes"), refused.getMessage());
    assertEquals(alive, registry.alive());
    assertThrows(IllegalArgumentException.class, () -> Prefab.of(registry, a));
    final long copy = EntityCloner.within(registry).skip(Likes_Traits.TYPE).clone(a);
    assertTrue(registry.has(copy, Position_Traits.TYPE));
    assertFalse(likes.has(copy));
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void clearingTheRegistryOrTheTagStorageDropsEveryPair() {
    final long a = registry.create();
    final long b = registry.create();
    likes.add(a, b);
    likes.add(b, a);
    likes.storage().clear();
    assertEquals(0, likes.size());
    assertEquals(List.of(), registry.verify());
    likes.add(a, b);
    depends.add(a, b);
    escorts.add(b, a);
    registry.clear();
    assertEquals(0, likes.size() + depends.size() + escorts.size());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void listenersMayReenterTheKind() {
    final long a = registry.create();
    final long b = registry.create();
    final long c = registry.create();
    // A source's first pair brings a second; losing the tag takes c's pairs too.
    likes.storage().onConstruct().connect((r, e) -> likes.add(e, c));
    likes.storage().onDestroy().connect((r, e) -> likes.removeAll(c));
    likes.add(a, b);
    assertArrayEquals(new long[] {b, c}, likes.targets(a));
    likes.add(c, b);
    assertArrayEquals(new long[] {b, c}, likes.targets(c), "c's own first pair brought (c, c)");
    likes.removeAll(a);
    assertFalse(likes.has(a));
    assertFalse(likes.has(c));
    assertEquals(0, likes.size());
    // A listener adding a pair to the source being untagged is refused: the tag is still there.
    likes.storage().onDestroy().connect((r, e) -> likes.add(e, b));
    likes.add(a, b);
    assertThrows(IllegalArgumentException.class, () -> likes.removeAll(a));
    assertFalse(likes.has(a));
    assertEquals(0, likes.size());
    assertEquals(List.of(), registry.verify());
  }
}

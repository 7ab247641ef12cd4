package dev.phalanx.examples.relations;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.relation.OnTargetDestroyed;
import dev.phalanx.ecs.relation.PairStorage;
import dev.phalanx.ecs.relation.Pairs;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A pair kind declared with {@code @Relationship} on a tag ({@link Trusts}): its generated storage
 * declares the kind with the annotation's policies when the registry creates it, so nothing is
 * declared by hand, and the policies hold as for a kind declared at run time.
 */
class PairsByAnnotationTest {

  @Test
  void theKindIsDeclaredByItsStorageWithTheAnnotationsPolicies() {
    final Registry registry = new Registry();
    final Pairs<Trusts> trusts = Pairs.of(registry, Trusts_Traits.TYPE);
    assertSame(trusts, Pairs.of(registry, Trusts_Traits.TYPE));
    assertEquals(OnTargetDestroyed.DESTROY_SOURCES, trusts.onTargetDestroyed());
    assertTrue(trusts.acyclic());
    assertTrue(registry.storage(Trusts_Traits.TYPE) instanceof PairStorage);
    assertEquals(List.of(trusts), Pairs.declared(registry));
    // Declaring it again with the same policies finds it; with others is refused.
    assertSame(
        trusts,
        Pairs.declare(registry, Trusts_Traits.TYPE, OnTargetDestroyed.DESTROY_SOURCES, true));
    assertThrows(
        IllegalStateException.class,
        () -> Pairs.declare(registry, Trusts_Traits.TYPE, OnTargetDestroyed.REMOVE, true));
    // A storage made first declares the kind too.
    final Registry other = new Registry();
    other.storage(Trusts_Traits.TYPE);
    assertEquals(1, Pairs.declared(other).size());
  }

  @Test
  void itsPoliciesHold() {
    final Registry registry = new Registry();
    final Pairs<Trusts> trusts = Pairs.of(registry, Trusts_Traits.TYPE);
    final long ann = registry.create();
    final long bob = registry.create();
    final long cid = registry.create();
    assertTrue(trusts.add(ann, bob));
    assertTrue(trusts.add(ann, cid));
    assertTrue(trusts.add(bob, cid));
    assertThrows(IllegalArgumentException.class, () -> trusts.add(cid, ann), "acyclic");
    assertFalse(trusts.has(cid, ann));
    assertEquals(2, trusts.targetCount(ann));
    assertEquals(2, trusts.sourceCount(cid));
    assertEquals(List.of(), registry.verify());
    // Whoever trusts cid goes with it, and so on: bob, then ann.
    registry.destroy(cid);
    assertFalse(registry.valid(bob));
    assertFalse(registry.valid(ann));
    assertEquals(0, registry.storage(Trusts_Traits.TYPE).size());
    assertEquals(List.of(), registry.verify());
  }
}

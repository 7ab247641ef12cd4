package dev.phalanx.ecs;

import static dev.phalanx.ecs.GroupTypes.TA;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.GroupTypes.A;
import org.junit.jupiter.api.Test;

/**
 * How a set numbers its creations: each staging numbers on from the last, a retired handle (of a
 * clear or a commit that passed) is refused, {@code entityOf} answers only for the last commit's
 * handles, and when the numbers run out the set takes a new serial and numbers from 0 again,
 * refusing the creations that do not fit before that.
 */
class ChangeSetNumberingTest {

  private static final int CHUNK = 1 << 20;

  @Test
  void eachStagingNumbersOnAndRetiresTheHandlesBefore() {
    final Registry registry = new Registry();
    final ChangeSet changes = new ChangeSet(registry);
    assertSame(registry, changes.registry());
    final long first = changes.create();
    changes.clear();
    final long second = changes.create();
    assertEquals(Entity.version(first) + 1, Entity.version(second));
    assertEquals(Entity.index(first), Entity.index(second), "the same serial");
    final IllegalArgumentException retired =
        assertThrows(IllegalArgumentException.class, () -> changes.emplace(first, TA, new A(1)));
    assertTrue(retired.getMessage().contains(changes.toString()), retired.getMessage());
    assertTrue(changes.toString().startsWith("change set #"), changes.toString());
  }

  @Test
  void entityOfAnswersForTheLastCommitsHandlesOnly() {
    final Registry registry = new Registry();
    final ChangeSet changes = new ChangeSet(registry);
    final long committed = changes.create();
    changes.commit();
    final long entity = changes.entityOf(committed);
    assertTrue(registry.valid(entity));
    // Numbered right after the commit's creations: no creation of that commit.
    final long next = changes.create();
    assertEquals(Entity.NULL, changes.entityOf(next));
    assertEquals(entity, changes.entityOf(committed));
  }

  @Test
  void whenTheNumbersRunOutTheSetRefusesThenRenumbersUnderANewSerial() {
    final Registry registry = new Registry();
    final ChangeSet changes = new ChangeSet(registry);
    final String named = changes.toString();
    final long[] out = new long[CHUNK];
    // Stage and clear until the next number is the last that leaves room for a whole chunk.
    final int last = Integer.MAX_VALUE - CHUNK;
    int next = 0;
    while (next < last) {
      final int count = Math.min(CHUNK, last - next);
      changes.create(out, 0, count);
      changes.clear();
      next += count;
    }
    final long early = changes.create();
    assertEquals(last, Entity.version(early), "numbered on, under the same serial");
    assertEquals(named, changes.toString());

    // Room for exactly CHUNK creations from here: the last ones fit, one more does not.
    changes.create(out, 0, CHUNK - 5);
    changes.create(out, 0, 4);
    assertEquals(Integer.MAX_VALUE - 1, Entity.version(out[3]));
    final IllegalStateException one = assertThrows(IllegalStateException.class, changes::create);
    assertTrue(one.getMessage().contains("more than " + CHUNK + " creations"), one.getMessage());
    final IllegalStateException more =
        assertThrows(IllegalStateException.class, () -> changes.create(out, 0, 1));
    assertTrue(more.getMessage().contains("cannot stage 1 more"), more.getMessage());
    assertEquals(CHUNK, changes.size());

    changes.clear();
    final long renewed = changes.create();
    assertEquals(0, Entity.version(renewed), "numbered from 0 again");
    assertNotEquals(named, changes.toString(), "under a new serial");
    assertThrows(IllegalArgumentException.class, () -> changes.emplace(early, TA, new A(1)));
    // Serials count up: a set made later has a higher one.
    final int serial = serial(changes);
    assertTrue(serial > serial(named), changes.toString());
    assertTrue(serial(new ChangeSet(registry).toString()) > serial, changes.toString());
    changes.emplace(renewed, TA, new A(2));
    changes.commit();
    assertEquals(new A(2), registry.get(changes.entityOf(renewed), TA));
  }

  private static int serial(final ChangeSet changes) {
    return serial(changes.toString());
  }

  private static int serial(final String named) {
    return Integer.parseInt(named.substring("change set #".length()));
  }
}

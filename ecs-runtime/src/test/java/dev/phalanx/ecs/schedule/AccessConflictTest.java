package dev.phalanx.ecs.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.DeletionPolicy;
import dev.phalanx.ecs.Fixtures;
import dev.phalanx.ecs.Fixtures.Payload;
import dev.phalanx.ecs.ObjectStorage;
import dev.phalanx.ecs.Registry;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** How accesses conflict, kind by kind, and the ambiguity report of {@link ScheduleBuilder}. */
class AccessConflictTest {

  static final ComponentType<Payload, ObjectStorage<Payload>> A =
      Fixtures.alpha(DeletionPolicy.SWAP_AND_POP);
  static final ComponentType<Payload, ObjectStorage<Payload>> B =
      Fixtures.beta(DeletionPolicy.SWAP_AND_POP);

  private static final String[] KINDS = {"read", "write", "iterate", "structure"};

  private static void declare(final Access.Builder access, final String kind) {
    switch (kind) {
      case "read" -> access.reads(A);
      case "write" -> access.writes(A);
      case "iterate" -> access.iterates(A);
      case "structure" -> access.changesStructure(A);
      default -> throw new AssertionError(kind);
    }
  }

  /** The rule, written as a table a reader can check line by line. */
  private static boolean expected(final String mine, final String theirs) {
    if (mine.equals("structure") || theirs.equals("structure")) {
      return true;
    }
    return switch (mine + "/" + theirs) {
      case "read/read", "read/iterate", "iterate/read" -> false;
      case "read/write", "write/read", "write/write" -> true;
      // An iterate alone (an exclusion filter) reads no value.
      case "write/iterate", "iterate/write" -> false;
      // Loops over a storage no system of the wave changes are shared reads of a frozen set.
      case "iterate/iterate" -> false;
      default -> throw new AssertionError(mine + "/" + theirs);
    };
  }

  @Test
  void everyPairOfKindsOnOneComponentIsClassified() {
    for (final String mine : KINDS) {
      for (final String theirs : KINDS) {
        final Access.Builder a = Access.builder();
        declare(a, mine);
        final Access.Builder b = Access.builder();
        declare(b, theirs);
        final String why = a.build().conflictWith(b.build());
        assertEquals(expected(mine, theirs), null != why, mine + " against " + theirs + ": " + why);
        if (null != why) {
          assertTrue(why.startsWith(A.name() + ": "), why);
        }
        // Symmetric.
        assertEquals(null != why, null != b.build().conflictWith(a.build()));
      }
    }
  }

  @Test
  void differentComponentsNeverConflict() {
    for (final String mine : KINDS) {
      for (final String theirs : KINDS) {
        final Access.Builder a = Access.builder();
        declare(a, mine);
        final Access.Builder b = Access.builder();
        switch (theirs) {
          case "read" -> b.reads(B);
          case "write" -> b.writes(B);
          case "iterate" -> b.iterates(B);
          default -> b.changesStructure(B);
        }
        assertNull(a.build().conflictWith(b.build()), mine + " A against " + theirs + " B");
      }
    }
  }

  @Test
  void resourcesEntitiesAndExclusiveSystems() {
    final Access readR = Access.builder().readsResource(String.class).build();
    final Access writeR = Access.builder().writesResource(String.class).build();
    final Access writeOther = Access.builder().writesResource(Integer.class).build();
    assertNull(readR.conflictWith(readR));
    assertEquals(
        "resource java.lang.String: one writes what the other reads", readR.conflictWith(writeR));
    assertEquals("resource java.lang.String: both write it", writeR.conflictWith(writeR));
    assertNull(writeR.conflictWith(writeOther));
    final Access creates = Access.builder().createsEntities().build();
    assertEquals("entities: both create entities", creates.conflictWith(creates));
    assertNull(creates.conflictWith(readR));
    final Access exclusive = Access.builder().exclusive().build();
    assertNotNull(exclusive.conflictWith(Access.none()));
    assertNotNull(Access.none().conflictWith(exclusive));
    assertNull(Access.none().conflictWith(Access.none()));
    assertTrue(exclusive.touches(A) && exclusive.writesResource(String.class));
    assertFalse(Access.none().touches(A));
  }

  @Test
  void declarationsAddUp() {
    final Access access = Access.builder().reads(A).iterates(A).writes(B).build();
    assertTrue(access.reads(A) && access.iterates(A) && !access.writes(A));
    assertTrue(access.reads(B) && access.writes(B) && !access.iterates(B));
    assertFalse(access.changesStructure(A));
    assertTrue(access.toString().contains(A.name() + ":read+iterate"), access.toString());
    assertTrue(access.toString().contains(B.name() + ":write"), access.toString());
  }

  /** Random systems without constraints: the report lists exactly the conflicting pairs. */
  @Test
  void theAmbiguityReportIsExactOnRandomSchedules() {
    final Random random = new Random(7);
    for (int round = 0; round < 200; round++) {
      final Registry registry = new Registry();
      final ScheduleBuilder builder = Schedule.builder(registry);
      final int n = 2 + random.nextInt(7);
      final List<Access> accesses = new ArrayList<>();
      for (int s = 0; s < n; s++) {
        final SystemDeclaration system = builder.system("s" + s, context -> {});
        final Access.Builder access = Access.builder();
        final List<Consumer<SystemDeclaration>> kinds =
            List.of(
                d -> d.reads(A),
                d -> d.writes(A),
                d -> d.iterates(A),
                d -> d.changesStructure(A),
                d -> d.reads(B),
                d -> d.writes(B),
                d -> d.iterates(B),
                d -> d.readsResource(String.class),
                d -> d.writesResource(String.class));
        final int k = random.nextInt(3);
        for (int i = 0; i < k; i++) {
          final int pick = random.nextInt(kinds.size());
          kinds.get(pick).accept(system);
          List.<Consumer<Access.Builder>>of(
                  b -> b.reads(A),
                  b -> b.writes(A),
                  b -> b.iterates(A),
                  b -> b.changesStructure(A),
                  b -> b.reads(B),
                  b -> b.writes(B),
                  b -> b.iterates(B),
                  b -> b.readsResource(String.class),
                  b -> b.writesResource(String.class))
              .get(pick)
              .accept(access);
        }
        accesses.add(access.build());
      }
      int expected = 0;
      for (int x = 0; x < n; x++) {
        for (int y = x + 1; y < n; y++) {
          if (null != accesses.get(x).conflictWith(accesses.get(y))) {
            expected++;
          }
        }
      }
      if (0 == expected) {
        final Schedule schedule = builder.build();
        // No conflict at all: one wave.
        assertEquals(1, schedule.waves(Schedule.UPDATE).size(), schedule.toString());
      } else {
        final IllegalStateException refused =
            assertThrows(IllegalStateException.class, builder::build);
        assertTrue(
            refused
                .getMessage()
                .startsWith("cannot build the schedule: " + expected + " problem(s)"),
            refused.getMessage());
        for (int x = 0; x < n; x++) {
          for (int y = x + 1; y < n; y++) {
            final boolean listed =
                refused.getMessage().contains("systems 's" + x + "' and 's" + y + "' conflict on");
            assertEquals(
                null != accesses.get(x).conflictWith(accesses.get(y)),
                listed,
                refused.getMessage());
          }
        }
      }
    }
  }
}

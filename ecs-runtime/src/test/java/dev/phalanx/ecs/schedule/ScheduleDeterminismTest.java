package dev.phalanx.ecs.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.DeletionPolicy;
import dev.phalanx.ecs.Fixtures;
import dev.phalanx.ecs.Fixtures.Payload;
import dev.phalanx.ecs.ObjectStorage;
import dev.phalanx.ecs.Registry;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.Test;

/**
 * Random systems reading, writing and recording random commands give the same world, frame after
 * frame, on 1, 2, 4 and 16 threads.
 */
class ScheduleDeterminismTest {

  @SuppressWarnings("unchecked")
  static final ComponentType<Payload, ObjectStorage<Payload>>[] TYPES =
      new ComponentType[] {
        Fixtures.alpha(DeletionPolicy.SWAP_AND_POP),
        Fixtures.beta(DeletionPolicy.SWAP_AND_POP),
        Fixtures.gamma(DeletionPolicy.SWAP_AND_POP),
        Fixtures.paged(DeletionPolicy.SWAP_AND_POP, 4)
      };

  /** One random system: a type it iterates (or -1), what it reads and writes, what it records. */
  private record Plan(int driver, boolean[] reads, boolean[] writes, boolean commands, int id) {}

  @Test
  void theWorldIsTheSameOnAnyNumberOfThreads() {
    sameOnAnyNumberOfThreads(3, false);
  }

  @Test
  void withSetsAndConditionsThatSeeTheWorldTheWorldIsTheSameOnAnyNumberOfThreads() {
    sameOnAnyNumberOfThreads(5, true);
  }

  private static void sameOnAnyNumberOfThreads(final long master, final boolean sets) {
    final Random random = new Random(master);
    for (int round = 0; round < 12; round++) {
      final long seed = random.nextLong();
      final List<Plan> plans = plans(new Random(seed));
      List<Long> reference = null;
      for (final int threads : new int[] {1, 2, 4, 16}) {
        final List<Long> fingerprints = run(seed, plans, threads, sets);
        if (null == reference) {
          reference = fingerprints;
        } else {
          assertEquals(reference, fingerprints, "round " + round + " on " + threads + " threads");
        }
      }
    }
  }

  private static List<Plan> plans(final Random random) {
    final List<Plan> plans = new ArrayList<>();
    final int n = 4 + random.nextInt(8);
    for (int s = 0; s < n; s++) {
      final boolean[] reads = new boolean[TYPES.length];
      final boolean[] writes = new boolean[TYPES.length];
      for (int t = 0; t < TYPES.length; t++) {
        final int kind = random.nextInt(5);
        reads[t] = kind == 1 || kind == 2;
        writes[t] = kind == 2;
      }
      final int driver = random.nextInt(TYPES.length + 1) - 1;
      if (driver >= 0) {
        reads[driver] = true;
      }
      plans.add(new Plan(driver, reads, writes, random.nextInt(3) == 0, s));
    }
    return plans;
  }

  private static List<Long> run(
      final long seed, final List<Plan> plans, final int threads, final boolean sets) {
    final ForkJoinPool pool = threads > 1 ? new ForkJoinPool(threads) : null;
    try {
      final Registry registry = new Registry();
      final Random random = new Random(seed);
      final long[] initial = new long[300];
      for (int i = 0; i < initial.length; i++) {
        initial[i] = registry.create();
        for (final ComponentType<Payload, ObjectStorage<Payload>> type : TYPES) {
          if (random.nextInt(3) != 0) {
            registry.emplace(initial[i], type, new Payload(random.nextInt(1000)));
          }
        }
      }
      final ScheduleBuilder builder = Schedule.builder(registry).executor(pool);
      for (final Plan plan : plans) {
        final SystemDeclaration system =
            builder.system("s" + plan.id(), context -> body(context, plan, initial));
        for (int t = 0; t < TYPES.length; t++) {
          if (plan.writes()[t]) {
            system.writes(TYPES[t]);
          } else if (plan.reads()[t]) {
            system.reads(TYPES[t]);
          }
        }
        if (plan.driver() >= 0) {
          system.iterates(TYPES[plan.driver()]);
        }
        // Every pair that conflicts runs in declaration order: allowed on purpose.
        for (final Plan other : plans) {
          if (other.id() != plan.id()) {
            system.ambiguousWith("s" + other.id());
          }
        }
        if (plan.id() % 3 == 2) {
          system.in(Schedule.POST_UPDATE);
        }
        if (sets) {
          // A set with a condition of its own, and conditions on what changed.
          if (plan.id() % 2 == 0) {
            system.inSet("even");
          }
          if (plan.id() % 4 == 1) {
            system.runIf(RunCondition.componentsChanged(TYPES[plan.id() % TYPES.length]));
          }
          if (plan.id() % 5 == 3) {
            system.runIf(RunCondition.anyWithComponent(TYPES[plan.id() % TYPES.length]));
          }
        }
      }
      if (sets) {
        builder.set("even").runIf(c -> c.frame() % 3 != 1);
      }
      final Schedule schedule = builder.build();
      final List<Long> fingerprints = new ArrayList<>();
      for (int frame = 0; frame < 8; frame++) {
        schedule.run();
        assertEquals(List.of(), registry.verify());
        fingerprints.add(fingerprint(registry));
      }
      return fingerprints;
    } finally {
      if (null != pool) {
        pool.shutdown();
      }
    }
  }

  private static void body(final SystemContext context, final Plan plan, final long[] initial) {
    final Registry registry = context.registry();
    // Seeded by system and frame: what a system does cannot depend on the thread it runs on.
    final SplittableRandom random = new SplittableRandom(plan.id() * 1_000_003L + context.frame());
    final long[] sum = {plan.id()};
    final java.util.function.LongConsumer visit =
        entity -> {
          for (int t = 0; t < TYPES.length; t++) {
            final Payload payload = registry.tryGet(entity, TYPES[t]);
            if (null == payload) {
              continue;
            }
            if (plan.writes()[t]) {
              payload.value = (int) (payload.value * 31 + sum[0]) & 0xFFFF;
            } else if (plan.reads()[t]) {
              sum[0] += payload.value;
            }
          }
          if (plan.commands()) {
            final int roll = random.nextInt(40);
            if (roll == 0) {
              context.commands().destroy(entity);
            } else if (roll < 3) {
              final long created = context.commands().create();
              context.commands().emplace(created, TYPES[roll], new Payload((int) sum[0] & 0xFF));
            } else if (roll < 5) {
              context.commands().remove(entity, TYPES[roll - 3]);
            } else if (roll < 7) {
              context.commands().emplaceIfAbsent(entity, TYPES[roll - 3], new Payload(roll));
            }
          }
        };
    if (plan.driver() >= 0) {
      registry.view(TYPES[plan.driver()]).each(visit);
    } else {
      for (final long entity : initial) {
        if (registry.valid(entity)) {
          visit.accept(entity);
        }
      }
    }
  }

  static long fingerprint(final Registry registry) {
    long hash = registry.alive();
    for (final ComponentType<Payload, ObjectStorage<Payload>> type : TYPES) {
      final ObjectStorage<Payload> storage = registry.storage(type);
      hash = hash * 31 + storage.size();
      for (int position = 0; position < storage.size(); position++) {
        final long entity = storage.at(position);
        hash = hash * 1_000_003L + entity * 17 + storage.get(entity).value;
      }
    }
    return hash;
  }
}

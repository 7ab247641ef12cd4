package dev.phalanx.ecs.event;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Seeded random worlds (a forest, a component on some entities) with observers of every entity, of
 * the component and of single entities, opened and closed at random, entities destroyed and events
 * triggered: every dispatch must run exactly the observers a plain model names, in its order, with
 * propagation and its stops. Then the same runs with an observer throwing at every k: the log must
 * not change, the first exception must surface, and triggers must work after it.
 */
class ObserversModelTest {

  private static final EventType<Integer> LOCAL = EventType.define("local", Integer.class);
  private static final EventType<Integer> UP = EventType.propagating("up", Integer.class);
  private static final ComponentType<Void, ?> MARK = ComponentType.named("mark");

  /** One observation as the model keeps it. */
  private static final class Watch {
    final int id;
    final EventType<Integer> type;
    final boolean marked;
    final long entity;
    boolean open = true;
    Observation real;

    Watch(final int id, final EventType<Integer> type, final boolean marked, final long entity) {
      this.id = id;
      this.type = type;
      this.marked = marked;
      this.entity = entity;
    }
  }

  /** A run of the random scenario against the real observers and the model at once. */
  private static final class Run {
    final Registry registry = new Registry();
    final Hierarchy hierarchy = Hierarchy.of(registry);
    final Observers observers = Observers.of(registry);
    final SplittableRandom random;
    final List<Long> live = new ArrayList<>();
    final Map<Long, Long> parent = new HashMap<>();
    final Set<Long> marked = new HashSet<>();
    final List<Watch> watches = new ArrayList<>();
    final List<String> realLog = new ArrayList<>();
    final List<String> modelLog = new ArrayList<>();
    final long throwAt;
    long calls;
    final List<RuntimeException> thrown = new ArrayList<>();
    int surfaced;

    Run(final long seed, final long throwAt) {
      random = new SplittableRandom(seed);
      this.throwAt = throwAt;
    }

    static boolean stops(final int watch, final long entity) {
      return 0 == (watch * 31 + Entity.index(entity)) % 4;
    }

    void step() {
      final int roll = random.nextInt(100);
      if (live.size() < 4 || roll < 15) {
        create();
      } else if (roll < 35) {
        open();
      } else if (roll < 45) {
        close();
      } else if (roll < 52) {
        destroy();
      } else {
        trigger();
      }
    }

    void create() {
      final long entity = registry.create();
      if (random.nextBoolean()) {
        registry.emplace(entity, MARK, null);
        marked.add(entity);
      }
      if (!live.isEmpty() && random.nextInt(3) > 0) {
        final long to = live.get(random.nextInt(live.size()));
        hierarchy.attach(entity, to);
        parent.put(entity, to);
      }
      live.add(entity);
    }

    void open() {
      final EventType<Integer> type = random.nextBoolean() ? LOCAL : UP;
      final int kind = random.nextInt(3);
      final Watch watch =
          new Watch(
              watches.size(),
              type,
              1 == kind,
              2 == kind ? live.get(random.nextInt(live.size())) : Entity.NULL);
      final Observer<Integer> body =
          trigger -> {
            realLog.add(watch.id + "@" + trigger.entity() + "<" + trigger.target());
            if (stops(watch.id, trigger.entity())) {
              trigger.stopPropagation();
            }
            if (++calls == throwAt) {
              final RuntimeException failure = new IllegalStateException("fault " + calls);
              thrown.add(failure);
              throw failure;
            }
          };
      watch.real =
          switch (kind) {
            case 0 -> observers.observe(type, body);
            case 1 -> observers.observe(type, MARK, body);
            default -> observers.observe(type, watch.entity, body);
          };
      watches.add(watch);
    }

    void close() {
      if (!watches.isEmpty()) {
        final Watch watch = watches.get(random.nextInt(watches.size()));
        watch.real.close();
        watch.open = false;
      }
    }

    void destroy() {
      final long entity = live.remove(random.nextInt(live.size()));
      registry.destroy(entity);
      marked.remove(entity);
      parent.remove(entity);
      parent.values().removeIf(p -> p == entity);
      for (final Watch watch : watches) {
        if (watch.entity == entity) {
          watch.open = false;
        }
      }
    }

    void trigger() {
      final EventType<Integer> type = random.nextBoolean() ? LOCAL : UP;
      final long entity = live.get(random.nextInt(live.size()));
      model(type, entity);
      try {
        observers.trigger(type, entity, 0);
      } catch (final IllegalStateException failure) {
        assertSame(thrown.get(0), failure, "the first exception surfaces");
        surfaced++;
      }
    }

    void model(final EventType<Integer> type, final long target) {
      long current = target;
      while (true) {
        boolean stopped = false;
        for (final Watch watch : watches) {
          if (watch.open && watch.type == type && watch.entity == current) {
            modelLog.add(watch.id + "@" + current + "<" + target);
            stopped |= stops(watch.id, current);
          }
        }
        for (final Watch watch : watches) {
          if (watch.open
              && watch.type == type
              && Entity.isNull(watch.entity)
              && (!watch.marked || marked.contains(current))) {
            modelLog.add(watch.id + "@" + current + "<" + target);
            stopped |= stops(watch.id, current);
          }
        }
        final Long up = parent.get(current);
        if (!type.propagates() || stopped || null == up) {
          return;
        }
        current = up;
      }
    }

    void check() {
      assertEquals(modelLog, realLog);
      int open = 0;
      for (final Watch watch : watches) {
        assertEquals(watch.open, watch.real.isOpen(), watch.real.toString());
        open += watch.open ? 1 : 0;
      }
      assertEquals(open, observers.size());
      assertEquals(List.of(), registry.verify());
    }
  }

  @Test
  void randomWorldsDispatchAsThePlainModelSays() {
    for (long seed = 1; seed <= 200; seed++) {
      final Run run = new Run(seed, -1);
      for (int step = 0; step < 300; step++) {
        run.step();
      }
      run.check();
      assertTrue(run.realLog.size() > 0, "seed " + seed + " dispatched nothing");
    }
  }

  @Test
  void anObserverThrowingAtEveryKChangesNothingElse() {
    final long seed = 11;
    final Run clean = new Run(seed, -1);
    for (int step = 0; step < 150; step++) {
      clean.step();
    }
    clean.check();
    assertTrue(clean.calls > 50, "the scenario runs observers");
    for (long k = 1; k <= clean.calls; k++) {
      final Run faulty = new Run(seed, k);
      for (int step = 0; step < 150; step++) {
        faulty.step();
      }
      faulty.check();
      assertEquals(clean.realLog, faulty.realLog, "k = " + k);
      assertEquals(1, faulty.thrown.size(), "k = " + k);
      assertEquals(1, faulty.surfaced, "the exception reached the trigger's caller, k = " + k);
    }
  }
}

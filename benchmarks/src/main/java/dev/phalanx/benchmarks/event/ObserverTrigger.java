package dev.phalanx.benchmarks.event;

import dev.phalanx.benchmarks.IterationBenchmark;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.event.EventType;
import dev.phalanx.ecs.event.Observer;
import dev.phalanx.ecs.event.Observers;
import dev.phalanx.ecs.event.Trigger;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What triggering an event costs, in ns per trigger, over {@value #ENTITIES} entities: {@code
 * unobserved} triggers a type nothing observes (target: under 20 ns); {@code observed} one that one
 * observer of every entity counts; {@code bubbling} a propagating type, observed the same way, on
 * the leaves of chains {@value #DEPTH} deep, so each trigger runs the observer {@value #DEPTH} + 1
 * times.
 */
@OperationsPerInvocation(ObserverTrigger.ENTITIES)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class ObserverTrigger extends IterationBenchmark {

  static final int ENTITIES = 4_096;
  static final int DEPTH = 4;

  private static final EventType<Object> SILENT = EventType.define("silent", Object.class);
  private static final EventType<Object> COUNTED = EventType.define("counted", Object.class);
  private static final EventType<Object> BUBBLE = EventType.propagating("bubble", Object.class);

  /** A registry whose entities are the leaves of chains, with one counting observer per type. */
  @State(Scope.Benchmark)
  public static class Events {
    final Registry registry = new Registry();
    Observers observers;
    long[] leaves;
    long count;
    final Object payload = new Object();

    @Setup(Level.Trial)
    public void setup() {
      observers = Observers.of(registry);
      final Hierarchy hierarchy = Hierarchy.of(registry);
      leaves = new long[ENTITIES];
      for (int i = 0; i < ENTITIES; i++) {
        long below = registry.create();
        leaves[i] = below;
        for (int level = 0; level < DEPTH; level++) {
          final long above = registry.create();
          hierarchy.attach(below, above);
          below = above;
        }
      }
      final Observer<Object> counter = this::count;
      observers.observe(COUNTED, counter);
      observers.observe(BUBBLE, counter);
    }

    private void count(final Trigger<Object> trigger) {
      count += trigger.entity();
    }
  }

  @Benchmark
  public long unobserved(final Events events) {
    final Observers observers = events.observers;
    for (final long leaf : events.leaves) {
      observers.trigger(SILENT, leaf, events.payload);
    }
    return events.count;
  }

  @Benchmark
  public long observed(final Events events) {
    final Observers observers = events.observers;
    for (final long leaf : events.leaves) {
      observers.trigger(COUNTED, leaf, events.payload);
    }
    return events.count;
  }

  @Benchmark
  public long bubbling(final Events events) {
    final Observers observers = events.observers;
    for (final long leaf : events.leaves) {
      observers.trigger(BUBBLE, leaf, events.payload);
    }
    return events.count;
  }
}

package dev.phalanx.examples.queries;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Registry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A generated non-owning query sorts through its group by key, against a sorted model list. */
class DrawOrderTest {

  @Test
  void aGeneratedNonOwningQuerySortsByKeyAndByInsertion() {
    final Registry registry = new Registry();
    final DrawnQuery drawn = DrawnQuery.of(registry);
    final Position_Storage positions = drawn.positionStorage();
    final Random random = new Random(12);
    final List<Long> model = new ArrayList<>();
    for (int i = 0; i < 2_000; i++) {
      final long e = registry.create();
      positions.emplace(e, random.nextFloat(), random.nextInt(100));
      model.add(e);
    }
    // The group's members in position order, sorted stably by y, then by x (the model's order).
    drawn.sortByFloatKey(positions::x);
    model.sort(Comparator.comparingDouble(positions::x));
    drawn.insertionSortByLongKey(e -> (long) positions.y(e));
    model.sort(Comparator.comparingDouble(positions::y));
    final List<Long> order = new ArrayList<>();
    drawn.group().eachInOrder(order::add);
    assertEquals(model, order, "stable: equal y keep the x order");
    drawn.insertionSortByFloatKey(positions::y);
    drawn.sortByLongKey(e -> (long) positions.y(e));
    drawn.insertionSort((l, r) -> Float.compare(positions.y(l), positions.y(r)));
    final List<Long> again = new ArrayList<>();
    drawn.group().eachInOrder(again::add);
    assertEquals(model, again, "every form keeps a sorted, stable order");
    assertTrue(registry.verify().isEmpty());
  }
}

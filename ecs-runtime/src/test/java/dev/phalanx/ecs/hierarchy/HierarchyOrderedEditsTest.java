package dev.phalanx.ecs.hierarchy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.EmptyStorage;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.snapshot.DeltaLoader;
import dev.phalanx.ecs.snapshot.DeltaWriter;
import dev.phalanx.ecs.snapshot.SnapshotLoader;
import dev.phalanx.ecs.snapshot.SnapshotWriter;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * The edits that place children: {@code attach} and {@code reparent} at an index, {@code
 * replaceChildren}, and {@code destroyDescendants}, against a plain model that keeps every list of
 * children in order. Each seeded run has a node construct listener that throws at its k-th call,
 * for every k up to the run's number of calls: every edit still completes, so the hierarchy must
 * equal the model after every step, order included, and both verifies be empty. Every few steps the
 * world goes through a snapshot and a delta of chosen types (a tag every entity holds, not the
 * hierarchy's type), and the copies must equal the model too, order included: writers of chosen
 * types carry the links.
 */
class HierarchyOrderedEditsTest {

  /** Each live entity's parent and ordered children. */
  private static final class Model {
    final Map<Long, Long> parents = new HashMap<>();
    final Map<Long, List<Long>> children = new HashMap<>();

    void create(final long e) {
      parents.put(e, Entity.NULL);
      children.put(e, new ArrayList<>());
    }

    boolean isAncestor(final long ancestor, final long e) {
      for (long p = parents.get(e); !Entity.isNull(p); p = parents.get(p)) {
        if (p == ancestor) {
          return true;
        }
      }
      return false;
    }

    void cut(final long e) {
      final long p = parents.get(e);
      if (!Entity.isNull(p)) {
        children.get(p).remove(e);
        parents.put(e, Entity.NULL);
      }
    }

    void place(final long e, final long p, final int index) {
      cut(e);
      children.get(p).add(index, e);
      parents.put(e, p);
    }

    void destroy(final long e) {
      cut(e);
      for (final long c : children.remove(e)) {
        parents.put(c, Entity.NULL);
      }
      parents.remove(e);
    }

    List<Long> descendants(final long root) {
      final List<Long> out = new ArrayList<>();
      for (final long c : children.get(root)) {
        out.add(c);
        out.addAll(descendants(c));
      }
      return out;
    }
  }

  /** The game's own type of the round trips: every entity holds it. */
  private record Mark() {}

  private static final ComponentType<Mark, EmptyStorage<Mark>> MARK = ComponentType.tag(Mark.class);

  /** Throws at its {@code throwAt}-th call. */
  private static final class Injected extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Injected() {
      super("injected", null, true, false);
    }
  }

  @Test
  void orderedEditsMatchTheModelWhateverTheListenersThrow() {
    for (int seed = 0; seed < 12; seed++) {
      for (int throwAt = 0; throwAt <= 40; throwAt += seed % 2 == 0 ? 1 : 7) {
        run(seed, throwAt);
      }
    }
  }

  private static void run(final long seed, final int throwAt) {
    final Random random = new Random(seed);
    final Registry registry = new Registry();
    final Hierarchy hierarchy = Hierarchy.of(registry);
    final int[] calls = {0};
    hierarchy
        .nodes()
        .onConstruct()
        .connect(
            (r, e) -> {
              if (++calls[0] == throwAt) {
                throw new Injected();
              }
            });
    final Model model = new Model();
    for (int i = 0; i < 14; i++) {
      final long e = registry.create();
      model.create(e);
    }
    for (final long e : model.parents.keySet()) {
      registry.emplace(e, MARK, new Mark());
    }
    final DeltaWriter writer = new DeltaWriter(registry).types(MARK).everyValue(Hierarchy.TYPE);
    final Registry client = new Registry();
    final DeltaLoader replica = new DeltaLoader(client).types(MARK);
    for (int step = 0; step < 120; step++) {
      final List<Long> live = new ArrayList<>(model.parents.keySet());
      live.sort(null);
      if (live.size() < 4) {
        final long e = registry.create();
        registry.emplace(e, MARK, new Mark());
        model.create(e);
        continue;
      }
      final long a = live.get(random.nextInt(live.size()));
      final long b = live.get(random.nextInt(live.size()));
      final String where = "seed " + seed + " throwAt " + throwAt + " step " + step;
      final int op = random.nextInt(6);
      try {
        switch (op) {
          case 0 -> {
            final int size = model.children.get(b).size();
            final int index = random.nextInt(size + 2);
            final boolean allowed =
                a != b
                    && Entity.isNull(model.parents.get(a))
                    && !model.isAncestor(a, b)
                    && index <= size;
            if (!allowed) {
              assertThrows(RuntimeException.class, () -> hierarchy.attach(a, b, index), where);
            } else {
              model.place(a, b, index);
              hierarchy.attach(a, b, index);
            }
          }
          case 1 -> {
            final boolean allowed = a != b && !model.isAncestor(a, b);
            final int others = model.children.get(b).size() - (model.parents.get(a) == b ? 1 : 0);
            final int index = random.nextInt(others + 1);
            if (!allowed) {
              assertThrows(RuntimeException.class, () -> hierarchy.reparent(a, b, index), where);
            } else {
              model.place(a, b, index);
              hierarchy.reparent(a, b, index);
            }
          }
          case 2 -> {
            final int n = random.nextInt(4);
            final List<Long> listed = new ArrayList<>();
            boolean allowed = true;
            for (int i = 0; i < n; i++) {
              final long c = live.get(random.nextInt(live.size()));
              allowed &= c != b && !listed.contains(c) && !model.isAncestor(c, b);
              listed.add(c);
            }
            final long[] array = listed.stream().mapToLong(Long::longValue).toArray();
            if (!allowed) {
              assertThrows(
                  IllegalArgumentException.class, () -> hierarchy.replaceChildren(b, array), where);
            } else {
              for (final long old : new ArrayList<>(model.children.get(b))) {
                model.cut(old);
              }
              for (int i = 0; i < array.length; i++) {
                model.place(array[i], b, i);
              }
              hierarchy.replaceChildren(b, array);
            }
          }
          case 3 -> {
            for (final long d : model.descendants(a)) {
              model.destroy(d);
            }
            hierarchy.destroyDescendants(a);
          }
          case 4 -> {
            model.cut(a);
            hierarchy.detach(a);
          }
          default -> {
            final long e = registry.create();
            registry.emplace(e, MARK, new Mark());
            model.create(e);
          }
        }
      } catch (final Injected injected) {
        // The listener's fault, rethrown once the edit completed: the model already has it.
      }
      check(registry, hierarchy, model, where);
      if (0 == step % 10) {
        checkRoundTrips(registry, model, writer, client, replica, where);
      }
    }
  }

  /** A snapshot and a delta of {@link #MARK} only: the copies hold the model's links, in order. */
  private static void checkRoundTrips(
      final Registry registry,
      final Model model,
      final DeltaWriter writer,
      final Registry client,
      final DeltaLoader replica,
      final String where) {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();
    final Registry copy = new Registry();
    try {
      new SnapshotWriter(registry).types(MARK).write(out);
      new SnapshotLoader(copy).types(MARK).load(new ByteArrayInputStream(out.toByteArray()));
      final int length = writer.write();
      replica.load(writer.bytes(), length);
    } catch (final IOException e) {
      throw new AssertionError(where, e);
    }
    checkCopy(copy, model, e -> e, where + ", snapshot of chosen types");
    checkCopy(client, model, replica::map, where + ", delta of chosen types");
  }

  private static void checkCopy(
      final Registry copy, final Model model, final LongUnaryOperator map, final String where) {
    assertEquals(List.of(), copy.verify(), where);
    final Hierarchy copied = Hierarchy.of(copy);
    for (final Map.Entry<Long, List<Long>> entry : model.children.entrySet()) {
      final long e = entry.getKey();
      final long parent = model.parents.get(e);
      final long mine = map.applyAsLong(e);
      assertEquals(
          Entity.isNull(parent) ? Entity.NULL : map.applyAsLong(parent),
          copied.parent(mine),
          where + ": parent of " + Entity.toString(e));
      final List<Long> expected = new ArrayList<>();
      for (final long c : entry.getValue()) {
        expected.add(map.applyAsLong(c));
      }
      final List<Long> actual = new ArrayList<>();
      copied.eachChild(mine, actual::add);
      assertEquals(expected, actual, where + ": children of " + Entity.toString(e));
    }
  }

  private static void check(
      final Registry registry, final Hierarchy hierarchy, final Model model, final String where) {
    assertEquals(List.of(), registry.verify(), where);
    assertEquals(model.parents.size(), registry.alive(), where);
    for (final Map.Entry<Long, List<Long>> entry : model.children.entrySet()) {
      final long e = entry.getKey();
      assertEquals(model.parents.get(e), hierarchy.parent(e), where);
      final List<Long> actual = new ArrayList<>();
      hierarchy.eachChild(e, actual::add);
      assertEquals(entry.getValue(), actual, where + ": children of " + Entity.toString(e));
      for (int i = 0; i < actual.size(); i++) {
        assertEquals(actual.get(i), hierarchy.childAt(e, i), where);
      }
      assertEquals(Entity.NULL, hierarchy.childAt(e, actual.size()), where);
    }
  }

  @Test
  void refusedEditsNameTheRuleAndChangeNothing() {
    final Registry registry = new Registry();
    final Hierarchy hierarchy = Hierarchy.of(registry);
    final long root = registry.create();
    final long a = registry.create();
    final long b = registry.create();
    hierarchy.attach(a, root);
    final IndexOutOfBoundsException index =
        assertThrows(IndexOutOfBoundsException.class, () -> hierarchy.attach(b, root, 2));
    assertTrue(index.getMessage().contains("[0, 1]"), index.getMessage());
    final IllegalArgumentException twice =
        assertThrows(
            IllegalArgumentException.class,
            () -> hierarchy.replaceChildren(root, new long[] {b, b}));
    assertTrue(twice.getMessage().contains("listed twice"), twice.getMessage());
    final IllegalArgumentException cycle =
        assertThrows(
            IllegalArgumentException.class, () -> hierarchy.replaceChildren(a, new long[] {root}));
    assertTrue(cycle.getMessage().contains("no cycles"), cycle.getMessage());
    assertEquals(root, hierarchy.parent(a));
    assertEquals(Entity.NULL, hierarchy.parent(b));
    assertEquals(1, hierarchy.childCount(root));
    assertFalse(hierarchy.nodes().contains(b), "no node was made for a refused edit");
    hierarchy.destroyDescendants(root);
    assertTrue(registry.valid(root));
    assertFalse(registry.valid(a));
    assertEquals(0, hierarchy.childCount(root));
    assertEquals(List.of(), registry.verify());
  }
}

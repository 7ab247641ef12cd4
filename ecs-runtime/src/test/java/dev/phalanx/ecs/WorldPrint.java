package dev.phalanx.ecs;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Full fingerprints of a registry for the change set tests: what "the world is exactly as before"
 * means. {@link #contents} is what a model can predict (live entities, every storage's members and
 * values); {@link #layout} adds every position (entity handles with versions, packed arrays, group
 * orders), for comparing a world with itself before a refused change.
 */
public final class WorldPrint {

  private WorldPrint() {}

  /** What stands for a tag's element: membership only. */
  public static final String TAG = "tag";

  /** Live entities and every storage's entity-to-value contents (tags as {@link #TAG}). */
  public record Contents(TreeSet<Long> alive, Map<String, Map<Long, Object>> components) {}

  /** {@link Contents}, every position, and the groups' members in order. */
  public record Layout(
      Contents contents,
      List<Long> handles,
      int alive,
      Map<String, List<Long>> packed,
      Map<String, List<Long>> groups) {}

  public static Contents contents(final Registry registry) {
    final TreeSet<Long> alive = new TreeSet<>();
    registry.entities().each(alive::add);
    final Map<String, Map<Long, Object>> components = new TreeMap<>();
    for (int i = 0; i < registry.storageCount(); i++) {
      final Storage<?> storage = registry.storageAt(i);
      final Map<Long, Object> values = new TreeMap<>();
      for (int p = 0; p < storage.size(); p++) {
        final long e = storage.packed()[p];
        if (!Entity.isTombstone(e)) {
          values.put(e, valueOf(storage, e));
        }
      }
      components.put(storage.type().name(), values);
    }
    return new Contents(alive, components);
  }

  /** The value a fingerprint records for {@code entity}'s element of {@code storage}. */
  public static Object valueOf(final Storage<?> storage, final long entity) {
    return storage.type().traits().empty() ? TAG : storage.get(entity);
  }

  public static Layout layout(final Registry registry) {
    final List<Long> handles = new ArrayList<>();
    for (int i = 0; i < registry.entities().size(); i++) {
      handles.add(registry.entities().current(i));
    }
    final Map<String, List<Long>> packed = new LinkedHashMap<>();
    for (int i = 0; i < registry.storageCount(); i++) {
      final Storage<?> storage = registry.storageAt(i);
      final List<Long> order = new ArrayList<>();
      for (int p = 0; p < storage.size(); p++) {
        order.add(storage.packed()[p]);
      }
      packed.put(storage.type().name(), order);
    }
    final Map<String, List<Long>> groups = new LinkedHashMap<>();
    for (int g = 0; g < registry.groups().size(); g++) {
      final Group group = registry.groups().get(g);
      final List<Long> order = new ArrayList<>();
      for (int p = 0; p < group.size(); p++) {
        order.add(group.entityAt(p));
      }
      groups.put(group.toString(), order);
    }
    return new Layout(contents(registry), handles, registry.alive(), packed, groups);
  }

  /** {@return a list of what is wrong: verify()'s problems and groups whose members are wrong} */
  public static List<String> problems(final Registry registry) {
    final List<String> problems = new ArrayList<>(registry.verify());
    for (int g = 0; g < registry.groups().size(); g++) {
      final Group group = registry.groups().get(g);
      final TreeSet<Long> members = new TreeSet<>();
      for (int p = 0; p < group.size(); p++) {
        members.add(group.entityAt(p));
      }
      final TreeSet<Long> expected = new TreeSet<>(FaultWorld.expectedMembers(registry, group));
      if (!members.equals(expected)) {
        problems.add(group + " has " + members + ", expected " + expected);
      }
    }
    return problems;
  }
}

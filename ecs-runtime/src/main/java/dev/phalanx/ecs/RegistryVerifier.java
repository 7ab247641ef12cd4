package dev.phalanx.ecs;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The consistency checks of a {@link Registry}: what {@link Registry#verify()} and {@link
 * Registry#danglingReferences()} report, and the checks that features registered with {@link
 * Registry#addCheck}. A debugging and testing aid: nothing here runs on a hot path, and nothing
 * here changes the registry.
 *
 * <p>Invariants kept: the registered checks and their names are two parallel lists of equal size,
 * in the order they were added, and stay registered for the registry's life.
 */
final class RegistryVerifier {

  private final Registry registry;
  // The checks that features registered with addCheck, and their names: verify() runs them after
  // its own, in the order they were added.
  private final List<Consumer<List<String>>> checks = new ArrayList<>();
  private final List<String> checkNames = new ArrayList<>();

  RegistryVerifier(final Registry registry) {
    this.registry = registry;
  }

  /** Registers a feature's check; see {@link Registry#addCheck}. */
  void addCheck(final String name, final Consumer<List<String>> check) {
    Objects.requireNonNull(name, "name");
    checks.add(Objects.requireNonNull(check, "check"));
    checkNames.add(name);
  }

  /** Returns the broken invariants of the registry, in words; see {@link Registry#verify()}. */
  List<String> verify() {
    final List<String> problems = new ArrayList<>();
    final EntityStorage entities = registry.entities();
    entities.verify(problems);
    for (int i = 0; i < registry.storageCount(); i++) {
      final Storage<?> storage = registry.storageAt(i);
      storage.verify(problems);
      verifyOwners(storage, entities, problems);
    }
    registry.groups().verify(problems);
    final int destroying = registry.destroysInProgress();
    if (0 != destroying) {
      problems.add(destroying + " destroy(s) still registered as in progress");
    }
    if (registry.isClearing()) {
      problems.add("a clear() is still registered as in progress");
    }
    for (int i = 0; i < checks.size(); i++) {
      try {
        checks.get(i).accept(problems);
      } catch (final RuntimeException failed) {
        problems.add("the " + checkNames.get(i) + " check failed: " + failed);
      }
    }
    return problems;
  }

  /** Reports every component of {@code storage} that belongs to an entity that is not live. */
  private static void verifyOwners(
      final Storage<?> storage, final EntityStorage entities, final List<String> problems) {
    final long[] packed = storage.packed();
    for (int position = 0; position < storage.size(); position++) {
      final long entity = packed[position];
      if (!Entity.isTombstone(entity) && !entities.valid(entity)) {
        problems.add(
            storage.describe()
                + ": holds a component of "
                + Entity.toString(entity)
                + ", which is not a live entity");
      }
    }
  }

  /**
   * Returns every entity reference that names neither {@link Entity#NULL} nor a live entity; see
   * {@link Registry#danglingReferences()}.
   */
  List<String> danglingReferences() {
    final List<String> dangling = new ArrayList<>();
    final EntityStorage entities = registry.entities();
    for (int i = 0; i < registry.storageCount(); i++) {
      final Storage<?> storage = registry.storageAt(i);
      storage.eachEntityRef(
          (owner, field, reference) -> {
            if (!Entity.isNull(reference) && !entities.valid(reference)) {
              dangling.add(
                  storage.type().name()
                      + "."
                      + field
                      + " of "
                      + Entity.toString(owner)
                      + " names "
                      + Entity.toString(reference)
                      + ", which is not a live entity");
            }
          });
    }
    return dangling;
  }
}

package dev.phalanx.ecs;

/**
 * Creates the storage of a component type. Generated code passes a constructor reference ({@code
 * Position_Storage::new}); the registry calls it once per registry, on first use.
 *
 * @param <T> the component class
 * @param <S> the storage class
 */
@FunctionalInterface
public interface StorageFactory<T, S extends Storage<T>> {
  /**
   * {@return a new, empty storage for {@code type}}
   *
   * @param type the component type the storage holds
   */
  S create(ComponentType<T, S> type);
}

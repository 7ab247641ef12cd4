package dev.phalanx.ecs;

import java.util.HashMap;
import java.util.Map;

/**
 * World-wide singletons of a registry (EnTT's context variables), one value per class: time steps,
 * configuration, resources. Keyed by class through a hash map: fetch a value once per system run,
 * not per entity.
 */
public final class Context {

  private final Map<Class<?>, Object> values = new HashMap<>();

  Context() {}

  /**
   * Stores {@code value} under {@code type}.
   *
   * @param <T> the value's type
   * @param type the key
   * @param value the value, not {@code null}
   * @return {@code value}
   * @throws IllegalArgumentException if a value of that type is already stored
   */
  public <T> T emplace(final Class<T> type, final T value) {
    if (values.containsKey(type)) {
      throw new IllegalArgumentException(
          "context already holds a " + type.getSimpleName() + "; use insertOrAssign");
    }
    values.put(type, type.cast(java.util.Objects.requireNonNull(value, "value")));
    return value;
  }

  /**
   * Stores {@code value} under {@code type}, replacing any previous one.
   *
   * @param <T> the value's type
   * @param type the key
   * @param value the value, not {@code null}
   * @return {@code value}
   */
  public <T> T insertOrAssign(final Class<T> type, final T value) {
    values.put(type, type.cast(java.util.Objects.requireNonNull(value, "value")));
    return value;
  }

  /**
   * {@return the value stored under {@code type}}
   *
   * @param <T> the value's type
   * @param type the key
   * @throws IllegalArgumentException if there is none
   */
  public <T> T get(final Class<T> type) {
    final Object value = values.get(type);
    if (null == value) {
      throw new IllegalArgumentException("context holds no " + type.getSimpleName());
    }
    return type.cast(value);
  }

  /**
   * {@return the value stored under {@code type}, or {@code null}}
   *
   * @param <T> the value's type
   * @param type the key
   */
  public <T> T find(final Class<T> type) {
    return type.cast(values.get(type));
  }

  /**
   * {@return whether a value is stored under {@code type}}
   *
   * @param type the key
   */
  public boolean contains(final Class<?> type) {
    return values.containsKey(type);
  }

  /**
   * Removes the value stored under {@code type}; returns whether there was one.
   *
   * @param type the key
   * @return whether a value was stored under {@code type}
   */
  public boolean erase(final Class<?> type) {
    return null != values.remove(type);
  }
}

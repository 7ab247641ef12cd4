package dev.phalanx.ecs.annotations;

/**
 * What a component storage does with a type that has no instance fields (EnTT's empty-type
 * optimization). Used by {@link Component#empty()}.
 */
public enum Empty {
  /**
   * Decide from the class: a type without instance fields (in the class and its superclasses) is a
   * tag and stores no payload; any other type stores its fields. The default.
   */
  AUTO,

  /**
   * Always a tag: no payload is stored and {@code get} returns one shared instance (created with
   * the class's no-argument constructor if it has an accessible one, else {@code null}). The type
   * must have no instance fields ({@code [PhalanxTagWithFields]}).
   */
  TAG,

  /**
   * Never a tag: a type without instance fields keeps one reference per element, so that {@code
   * get} returns the very instance that was stored (identity matters to the user). A type with
   * fields is stored field by field as under {@link #AUTO}.
   */
  STORE
}

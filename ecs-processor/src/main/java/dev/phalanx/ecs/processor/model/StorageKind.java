package dev.phalanx.ecs.processor.model;

/** How a component's storage keeps its payload. */
public enum StorageKind {
  /** One paged array per field (struct of arrays); the usual case. */
  FIELDS,
  /**
   * No payload at all: a tag (a type without instance fields, {@code Empty.AUTO} or {@code TAG}).
   */
  TAG,
  /** One reference per element: a field-less type with {@code Empty.STORE} (identity is kept). */
  INSTANCES
}

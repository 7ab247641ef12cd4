/**
 * Phalanx's runtime: the registry, entities, storages, views, groups and signals, all in the one
 * package {@code dev.phalanx.ecs}. Hooks that only the registry, storages and groups call are
 * package-private; what generated code needs is public and documented as such ("For generated code"
 * sections of {@link dev.phalanx.ecs.Storage} and {@link dev.phalanx.ecs.SparseSet}). No
 * dependency.
 */
module dev.phalanx.ecs {
  exports dev.phalanx.ecs;
}

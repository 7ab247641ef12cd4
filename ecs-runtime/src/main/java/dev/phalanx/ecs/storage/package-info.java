/**
 * Sparse sets and component storages.
 *
 * <p>{@link dev.phalanx.ecs.storage.SparseSet} maps entities to dense positions with a paged sparse
 * array; {@link dev.phalanx.ecs.storage.Storage} adds a payload in pages that never move and lifecycle
 * signals. Three payload layouts ship with the runtime: {@link
 * dev.phalanx.ecs.storage.ObjectStorage} (one reference per element), {@link
 * dev.phalanx.ecs.storage.EmptyStorage} (tags, no payload) and {@link
 * dev.phalanx.ecs.storage.VoidStorage} (named typeless tags). The annotation processor generates a
 * fourth kind per {@code @Component}: one primitive page array per field.
 */
package dev.phalanx.ecs.storage;

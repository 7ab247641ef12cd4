/**
 * Lifecycle signals of storages: construct (after insertion), update (after replace or patch) and
 * destroy (before removal). Listeners run in connection order, on the thread that made the change.
 */
package dev.phalanx.ecs.signal;

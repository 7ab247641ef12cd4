/**
 * Saving, loading and streaming worlds: whole snapshots, continuous loads into a live replica, and
 * deltas with interest sets.
 *
 * <p>A {@link dev.phalanx.ecs.snapshot.SnapshotWriter} writes a registry's entities and the columns
 * of its storages (through {@link dev.phalanx.ecs.ColumnVisitor}, no reflection); {@link
 * dev.phalanx.ecs.snapshot.SnapshotLoader} restores it into a registry, {@link
 * dev.phalanx.ecs.snapshot.ContinuousLoader} mirrors it into a live one, remapping entity
 * references, and {@link dev.phalanx.ecs.snapshot.DeltaWriter}/{@link
 * dev.phalanx.ecs.snapshot.DeltaLoader} stream only what changed since a tick ({@link
 * dev.phalanx.ecs.snapshot.AckedDeltaWriter}/{@link dev.phalanx.ecs.snapshot.AckedDeltaLoader}:
 * since the state a client acknowledged, over a lossy link). Streams are untrusted input: every
 * loader stages and checks the whole stream (format, bounds, keys, entity rules, hierarchy links)
 * before the first change, then applies it fully, collecting listener exceptions; a refused stream
 * has no effect.
 *
 * <p>Links are structure: a writer given {@code types(...)} streams, besides those types, the
 * hierarchy and every relationship kind ({@link dev.phalanx.ecs.Storage#isRelationship()}) for the
 * entities it streams, so that a copy of chosen types keeps its parents and relationship targets.
 *
 * <p>User code the writers and loaders run (an interest predicate, a codec, a listener) may throw
 * anywhere: a failed write leaves its writer as before the call, so the next write is right; a
 * codec that throws refuses a load before any change, and a listener's exception is rethrown once
 * the load completed; either way the loader takes the next input. Such code may not call back into
 * the object running it: each writer and loader refuses a nested call that would change it, with an
 * {@link java.lang.IllegalStateException} naming the call under way, before changing anything.
 *
 * <h2>Costs</h2>
 *
 * <p>Saving is O(entities + elements), one pass per storage column. A full load is O(entities +
 * elements) and adopts staged pages where the layouts match. A delta costs O(changes) to apply plus
 * a scan of the tracked storages' change ticks to write; the first delta after a whole load into
 * the streamed registry carries, and costs, the whole world.
 *
 * <h2>Files</h2>
 *
 * <ul>
 *   <li>{@code SnapshotWriter}, {@code SnapshotLoader}, {@code ContinuousLoader}: whole snapshots;
 *       {@code LoaderSettings} (their base: what both loaders accept), {@code ValueCodec} (values
 *       of reference types), {@code SnapshotDump} (a text dump).
 *   <li>{@code DeltaWriter}, {@code DeltaLoader}, {@code DeltaFormat}: deltas per replica; {@code
 *       EntityIndexMap}, a replica's remote-to-local handles, indexed by the remote index.
 *   <li>{@code AckedDeltaWriter}, {@code AckedDeltaLoader}: deltas for lossy links, each against
 *       the newest state the client acknowledged; their choosing, encoding, checks and apply are
 *       {@code DeltaWriter}'s and {@code DeltaLoader}'s (an acknowledged mode of each).
 *   <li>{@code StagedSnapshot}: a stream read and checked, before any change.
 *   <li>{@code HierarchySection}: the hierarchy's links checked before a load (the loaders then
 *       write nodes raw between {@code Hierarchy.beginRelink()} and {@code endRelink()}).
 *   <li>{@code SnapshotFormat}, {@code BinaryInput}, {@code BinaryOutput}, {@code StreamChannels},
 *       {@code SnapshotFormatException}: the wire format and its primitives, the binary input and
 *       output shared by snapshots and deltas.
 * </ul>
 */
package dev.phalanx.ecs.snapshot;

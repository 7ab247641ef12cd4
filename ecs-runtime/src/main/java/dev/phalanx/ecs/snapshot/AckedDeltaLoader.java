package dev.phalanx.ecs.snapshot;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;

/**
 * Applies the deltas of one {@link AckedDeltaWriter} to a local registry, the replica, in whatever
 * order and number the link delivers them: it applies a delta newer than the last one it applied
 * when the replica holds that delta's baseline or a newer state of the same writer, ignores the
 * others, and tells which ({@link Outcome}). After each load the client acknowledges {@link
 * #sequence()} to the writer (every frame, say: acknowledgements may be lost too).
 *
 * <pre>{@code
 * final AckedDeltaLoader replica = new AckedDeltaLoader(clientWorld);
 * // for each datagram received:
 * replica.load(packet, packetLength);
 * sendAcknowledgement(replica.sequence());    // the server: writer.acknowledge(sequence)
 * }</pre>
 *
 * <h2>The rules</h2>
 *
 * <ul>
 *   <li>A delta whose sequence is not after its baseline's is refused ({@link
 *       SnapshotFormatException}), as is one whose checksum, layout or contents are bad: the checks
 *       of {@link DeltaLoader} apply, and nothing changes.
 *   <li>{@link Outcome#STALE}: the replica applied this sequence (a duplicate) or a newer one of
 *       the same writer (a late packet); ignored.
 *   <li>{@link Outcome#RESYNCED}: a resync (baseline 0, a full snapshot of the interest set) that
 *       is not stale; the replica drops every entity it holds from the stream and takes the
 *       resync's, whichever writer sent it (a new writer starts with one).
 *   <li>{@link Outcome#APPLIED}: a delta of the writer of the replica's last delta whose baseline
 *       is at or before the replica's sequence: the replica holds the baseline or a newer state, on
 *       which the delta, which carries everything that changed since its baseline as it is now, is
 *       right. An index listed as lost drops whatever version the replica holds there; an entity
 *       listed as gained that the replica holds already is kept, with the values and removals the
 *       delta carries for it.
 *   <li>{@link Outcome#NO_BASELINE}: a delta of another writer, or whose baseline is newer than the
 *       replica's sequence (the replica never held it: it was made anew, say); ignored. The writer
 *       sends resyncs once told ({@link AckedDeltaWriter#resync()}).
 * </ul>
 *
 * <p>An applied delta's apply is {@link DeltaLoader}'s: staged and checked whole, then committed as
 * one change set, listeners running at the end; a listener's exception is rethrown once the apply
 * completed (the delta is applied and {@link #sequence()} moved on). A codec that throws refuses
 * the delta before any change. While a load runs, a nested call to {@link #load}, {@link #codec} or
 * {@link #types} throws {@link IllegalStateException} naming the load under way.
 *
 * <h2>Costs</h2>
 *
 * <p>Those of {@link DeltaLoader}, plus a hash look-up per listed entity (the remote entity held at
 * each remote index); an ignored delta costs its checksum. A resync destroys and recreates the
 * replica's entities of the stream. No garbage per delta once warm, with the same exceptions as
 * {@link DeltaLoader}.
 *
 * <h2>Threading</h2>
 *
 * <p>Not thread-safe; no other thread may change the registry during a load.
 */
public final class AckedDeltaLoader {

  /** What a load did with a delta. */
  public enum Outcome {
    /** Applied on the replica's state, which held its baseline or a newer one. */
    APPLIED,
    /** A full snapshot of the interest set: it replaced what the replica held of the stream. */
    RESYNCED,
    /** Ignored: the replica applied this sequence or a newer one (a duplicate or a late packet). */
    STALE,
    /**
     * Ignored: from another writer, or on a baseline the replica never held; the writer sends a
     * resync once it is told with {@link AckedDeltaWriter#resync()}.
     */
    NO_BASELINE
  }

  private final DeltaLoader loader;

  /**
   * Creates a loader into {@code registry}, the replica, holding nothing of the remote world yet
   * (sequence 0): it takes a resync first.
   *
   * @param registry the local registry
   */
  public AckedDeltaLoader(final Registry registry) {
    this.loader = new DeltaLoader(registry, true);
  }

  /**
   * Registers the codec of reference type {@code type}.
   *
   * @param type the class of the values
   * @param codec reads them
   * @param <T> the value type
   * @return this loader
   * @throws IllegalStateException if called from a codec or listener of a load under way
   */
  public <T> AckedDeltaLoader codec(final Class<T> type, final ValueCodec<T> codec) {
    loader.codec(type, codec);
    return this;
  }

  /**
   * Adds types the deltas may name, besides those the registry has storages for, as {@link
   * DeltaLoader#types}: each call adds to the earlier ones.
   *
   * @param types the types, besides those of earlier calls
   * @return this loader
   * @throws IllegalStateException if called from a codec or listener of a load under way
   */
  public AckedDeltaLoader types(final ComponentType<?, ?>... types) {
    loader.types(types);
    return this;
  }

  /**
   * {@return the sequence of the newest delta applied (0 before the first): what the client
   * acknowledges}
   */
  public long sequence() {
    return loader.tick();
  }

  /**
   * Returns the local entity of {@code remote}, or {@link Entity#NULL} if it is not mapped.
   *
   * @param remote a remote entity handle
   * @return the local handle
   */
  public long map(final long remote) {
    return loader.map(remote);
  }

  /** {@return the number of mapped remote entities} */
  public int size() {
    return loader.size();
  }

  /**
   * Applies the delta held in {@code bytes[0, length)}, or ignores it (see the rules above).
   *
   * @param bytes the delta
   * @param length its length
   * @return what became of it
   * @throws SnapshotFormatException if it is not a well-formed acknowledged delta, or not one this
   *     replica can take on its state; nothing changed
   * @throws IllegalStateException if called from a codec or listener of a load under way, or if the
   *     replica has too few identifiers left for the entities the delta gains; nothing changed
   * @throws RuntimeException the first exception a listener threw, once the apply completed
   */
  public Outcome load(final byte[] bytes, final int length) throws SnapshotFormatException {
    return loader.loadAcknowledged(bytes, length);
  }
}

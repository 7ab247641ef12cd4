package dev.phalanx.ecs.snapshot;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Registry;
import java.util.function.LongPredicate;

/**
 * Streams a registry to one client over a lossy link (UDP, say) as deltas, each computed against
 * the last state that client <b>acknowledged</b>, for an {@link AckedDeltaLoader} on the client to
 * apply: packets lost, duplicated or reordered, and acknowledgements late or lost, cost bandwidth,
 * never correctness. One writer per client, with that client's interest set.
 *
 * <pre>{@code
 * final AckedDeltaWriter toClient =
 *     new AckedDeltaWriter(server, 32).interest(e -> visibleTo(client, e));
 * // each frame, after the systems ran:
 * final int length = toClient.write();
 * socket.send(toClient.bytes(), length);        // the client: replica.load(bytes, length)
 * // whenever an acknowledgement arrives (the client sends replica.sequence()):
 * toClient.acknowledge(ackedSequence);
 * }</pre>
 *
 * <h2>Sequences and baselines</h2>
 *
 * <p>Every write is numbered: its <b>sequence</b>, 1 for the first, one more for each successful
 * write. A delta names its own sequence and that of its <b>baseline</b>, the newest sequence the
 * client acknowledged ({@link #acknowledge}), and carries everything that differs from the
 * baseline, each as it is now: the entity indices whose holder changed since (the entity now held,
 * sent with all its components, or the index listed as lost), the held entities whose components
 * were added or removed since (sent with all their components, and listed as removed from the types
 * they lack when such a type lost any element since), the values written since (tracked types, and
 * those opted in with {@link #everyValue}), and the elements whose {@code @EntityRef} names an
 * index that changed hands. Since the client holds the baseline's state or a newer one from this
 * writer, and the delta sets everything that changed after the baseline to its value now, the delta
 * is right on any of those states: a delta against an older baseline still applies when newer ones
 * were lost, and one that arrives after a newer delta is ignored by the client as stale.
 *
 * <p>A delta with baseline 0 is a <b>resync</b>, a full snapshot of the interest set: the client
 * replaces what it holds with it. The writer sends one when the client has acknowledged nothing
 * yet, when its newest acknowledgement is older than the {@link #baselines()} sequences the writer
 * keeps (it fell too far behind), after {@link #resync()}, and after a {@link SnapshotLoader} load
 * into the registry (until the client acknowledges a delta written after it).
 *
 * <h2>Memory</h2>
 *
 * <p>Per client: a ring of {@link #baselines()} ticks (one {@code long} per sequence kept: the
 * registry's change tick at that write), three {@code long}s per entity index of the registry (the
 * entity the client holds there, the tick at which that changed, and the tick at which the entity's
 * components last changed) and two {@code int}s of scratch marks, an {@code int} per element of the
 * largest streamed storage, and the buffers of the largest delta. Nothing grows with the number of
 * sequences in flight or with time: the ring can be long (a second or more of frames) at the cost
 * of a {@code long} per frame, since a baseline is a tick, not a copy of the world. A baseline
 * older than the ring is not a delta's base, which is what bounds it.
 *
 * <h2>Costs</h2>
 *
 * <p>A write is one pass over the entity storage (evaluating the interest predicate for each live
 * entity), a tick compare per element of each tracked storage, every element of the types opted in
 * with {@link #everyValue}, a look-up per storage for each entity sent whole, and, in a write that
 * gains or loses entities, one pass over the references of the storages with {@code @EntityRef}
 * fields. What changed is sent until the client acknowledges a delta that carried it: with a round
 * trip of k frames, about k times. No garbage once warm, as for {@link DeltaWriter}.
 *
 * <h2>Failures and nested calls</h2>
 *
 * <p>A write that fails (the interest predicate or a codec threw) writes nothing, takes no sequence
 * and leaves {@link #bytes()} as it was; the next write is a correct delta (it may send more than
 * needed). While a write runs, a call from its predicate or codecs to any method of this writer but
 * {@link #sequence()}, {@link #acknowledged()}, {@link #baselines()} and {@link #bytes()} throws
 * {@link IllegalStateException}, before changing anything.
 *
 * <h2>Threading</h2>
 *
 * <p>Not thread-safe; no thread may change the registry during a write. Acknowledgements arriving
 * on a network thread must be handed to the writer's thread.
 */
public final class AckedDeltaWriter implements AutoCloseable {

  private final DeltaWriter writer;
  // The registry's change tick at the write of sequence s, at ticks[s % length].
  private final long[] ticks;
  private long sequence;
  private long acknowledged;
  // Acknowledgements at or below it are ignored: sequences written before a resync() call.
  private long floor;

  /**
   * Creates a writer of {@code registry} to one client that holds nothing yet: its first delta is a
   * resync.
   *
   * @param registry the registry to stream
   * @param baselines how many of the latest sequences can serve as a baseline (at least 1): a
   *     client whose newest acknowledgement is older gets a resync
   * @throws IllegalArgumentException if {@code baselines} is less than 1
   */
  public AckedDeltaWriter(final Registry registry, final int baselines) {
    if (baselines < 1) {
      throw new IllegalArgumentException(
          "cannot keep " + baselines + " baselines: a writer keeps at least 1");
    }
    this.writer = new DeltaWriter(registry);
    this.writer.acknowledged();
    this.ticks = new long[baselines];
  }

  /**
   * Sends this client only the live entities {@code chosen} accepts, evaluated at every write, as
   * {@link DeltaWriter#interest}.
   *
   * @param chosen the interest predicate, or {@code null} for every entity
   * @return this writer
   */
  public AckedDeltaWriter interest(final LongPredicate chosen) {
    writer.interest(chosen);
    return this;
  }

  /**
   * Sends this client only {@code chosen} (those of them alive at each write).
   *
   * @param chosen the entities
   * @return this writer
   */
  public AckedDeltaWriter entities(final long... chosen) {
    writer.entities(chosen);
    return this;
  }

  /**
   * Adds {@code types} to the storages streamed, as {@link DeltaWriter#types}: each call adds to
   * the earlier ones; only before the first write. The links of every relationship kind and the
   * hierarchy are streamed with the client's entities, listed or not.
   *
   * @param types the types to stream, besides those of earlier calls
   * @return this writer
   * @throws IllegalStateException after the first write
   */
  public AckedDeltaWriter types(final ComponentType<?, ?>... types) {
    writer.types(types);
    return this;
  }

  /**
   * Sends every element of these types in every delta, as {@link DeltaWriter#everyValue}.
   *
   * @param types the types
   * @return this writer
   */
  public AckedDeltaWriter everyValue(final ComponentType<?, ?>... types) {
    writer.everyValue(types);
    return this;
  }

  /**
   * Declares that these untracked types are never written in place once added, as {@link
   * DeltaWriter#whenAdded}.
   *
   * @param types the types
   * @return this writer
   */
  public AckedDeltaWriter whenAdded(final ComponentType<?, ?>... types) {
    writer.whenAdded(types);
    return this;
  }

  /**
   * Registers the codec of reference type {@code type}.
   *
   * @param type the class of the values
   * @param codec writes them
   * @param <T> the value type
   * @return this writer
   */
  public <T> AckedDeltaWriter codec(final Class<T> type, final ValueCodec<T> codec) {
    writer.codec(type, codec);
    return this;
  }

  /** {@return how many of the latest sequences can serve as a baseline} */
  public int baselines() {
    return ticks.length;
  }

  /** {@return the sequence of the last delta written (0 before the first)} */
  public long sequence() {
    return sequence;
  }

  /**
   * {@return the newest sequence the client acknowledged (0 if none, or none since {@link
   * #resync()}): the next delta's baseline if the writer still keeps it, else the next is a resync}
   */
  public long acknowledged() {
    return acknowledged;
  }

  /**
   * Records that the client applied the delta of {@code sequence} (its {@link
   * AckedDeltaLoader#sequence()}): later deltas are computed against it, or a newer one. An
   * acknowledgement older than the newest one, or of a sequence written before {@link #resync()},
   * is ignored (acknowledgements may arrive late, twice, or out of order).
   *
   * @param sequence the sequence the client applied
   * @return whether it is now the newest acknowledgement
   * @throws IllegalArgumentException if {@code sequence} is not one this writer wrote (below 1 or
   *     past {@link #sequence()}); nothing changed
   * @throws IllegalStateException if called from the interest predicate or a codec of a write under
   *     way; nothing changed
   */
  public boolean acknowledge(final long sequence) {
    writer.checkIdle("acknowledge a sequence");
    if (sequence < 1 || sequence > this.sequence) {
      throw new IllegalArgumentException(
          "cannot acknowledge sequence "
              + sequence
              + ": this writer wrote sequences 1 to "
              + this.sequence
              + ", and a client acknowledges only a delta it applied; nothing changed");
    }
    if (sequence <= acknowledged || sequence <= floor) {
      return false;
    }
    acknowledged = sequence;
    return true;
  }

  /**
   * Forgets the client's acknowledgements: the next deltas are resyncs until the client
   * acknowledges one of them. For a client that lost its state (a new {@link AckedDeltaLoader}), or
   * that reports a delta it cannot apply ({@link AckedDeltaLoader.Outcome#NO_BASELINE}).
   *
   * @throws IllegalStateException if called from the interest predicate or a codec of a write under
   *     way; nothing changed
   */
  public void resync() {
    writer.checkIdle("resync the client");
    acknowledged = 0;
    floor = sequence;
  }

  /**
   * Writes the next delta into a reused array: against the newest acknowledged baseline if the
   * writer still keeps it, else a resync. The bytes are {@code [0, returned length)} of {@link
   * #bytes()}. Advances the registry's change tick.
   *
   * @return the delta's length in bytes
   * @throws IllegalStateException if a field's type has no codec, or if called from the interest
   *     predicate or a codec of a write under way; nothing is written or changed
   * @throws IllegalArgumentException if a type listed in {@link #types} is untracked and neither
   *     opted in to {@link #everyValue} nor declared {@link #whenAdded}; nothing is written
   * @throws RuntimeException what the interest predicate or a codec threw; nothing is written, no
   *     sequence is taken, and the next write is correct
   */
  public int write() {
    final long baseline = baseline();
    final long since = 0 == baseline ? 0 : ticks[(int) (baseline % ticks.length)];
    final int length = writer.writeAcknowledged(sequence + 1, baseline, since);
    sequence++;
    ticks[(int) (sequence % ticks.length)] = writer.base();
    return length;
  }

  /** The newest acknowledged sequence if the ring still holds it, else 0 (a resync). */
  private long baseline() {
    return 0 != acknowledged && sequence - acknowledged < ticks.length ? acknowledged : 0;
  }

  /**
   * Returns the array the last successful write filled: the delta is its {@code [0, length)}, the
   * length being what {@link #write()} returned. Call {@link #write()} first, then this.
   *
   * @return the array of the last delta
   * @throws IllegalStateException if no write succeeded yet
   */
  public byte[] bytes() {
    return writer.bytes();
  }

  /**
   * Disconnects this writer from the registry's storages; it must not write afterwards.
   *
   * @throws IllegalStateException if called from the interest predicate or a codec of a write under
   *     way; nothing changed
   */
  @Override
  public void close() {
    writer.close();
  }
}

package dev.phalanx.ecs.snapshot;

import dev.phalanx.ecs.ColumnVisitor;
import dev.phalanx.ecs.ComponentListener;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.EntityRefVisitor;
import dev.phalanx.ecs.EntityStorage;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.SparseSet;
import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.WriteLog;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import dev.phalanx.ecs.internal.LongLongMap;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongPredicate;
import java.util.zip.CRC32C;

/**
 * Streams a registry to one replica as deltas: each {@link #write} sends only what changed since
 * the previous one, for a {@link DeltaLoader} on the replica to apply. One writer per replica (per
 * client): it remembers which entities that replica holds.
 *
 * <pre>{@code
 * final DeltaWriter toClient = new DeltaWriter(server).interest(e -> visibleTo(client, e));
 * // each frame, after the systems ran:
 * toClient.write(socketStream);          // the client: replica.load(socketStream)
 * }</pre>
 *
 * <h2>What a delta holds</h2>
 *
 * <ul>
 *   <li>The base tick (the tick of the previous delta, 0 for the first) and the new tick, both this
 *       registry's change ticks ({@link Registry#changeTick()}; a write advances it), and the
 *       writer's random stream identity: a replica applies a delta only on the state of its base.
 *   <li>Entities the replica loses: destroyed since the base, or no longer in the interest set
 *       (after a restore: see the last item).
 *   <li>Entities the replica gains: created since the base, or new in the interest set; each with
 *       all its components.
 *   <li>Per storage: the replica's entities that lost the component, and the elements whose values
 *       it must take: components added since the base (and all components of gained entities); for
 *       a <b>tracked</b> storage ({@code Component(tracked = true)}) also the elements whose change
 *       tick is newer than the base; for an <b>untracked</b> storage, nothing more unless the type
 *       is opted in with {@link #everyValue}, which sends every element of the replica's entities
 *       in every delta. An untracked write leaves no trace, so that is the rule: a component
 *       written in place after it was added is replicated only if it is tracked (the cheap way: a
 *       tick compare per element, the changed ones sent) or opted in (all sent). The hierarchy's
 *       storage is untracked: opt it in when links change after they are made. An untracked type
 *       listed in {@link #types} must say which it is ({@link #everyValue} or {@link #whenAdded}),
 *       or the write is refused, naming it.
 *   <li>Elements that refer to an entity the replica gains or loses in this delta, so that its
 *       references follow.
 *   <li>After a restore (a {@link SnapshotLoader} load into the cleared registry since the base):
 *       the whole restored world of the interest set, as in a first delta. The replica loses the
 *       entities the restored world lacks (those at indices past its entity storage's size
 *       included) and gains the restored identifiers it does not hold; every element of every
 *       entity it then holds is sent, whether gained or kept (an identifier the replica holds may
 *       come back with other components), and a kept entity's components the restored world lacks
 *       are listed as lost (the clear's removals are in the logs).
 * </ul>
 *
 * <h2>Bookkeeping</h2>
 *
 * <p>Components added and removed since the base are known from a log: the writer connects one
 * listener to the internal after-insert and after-remove signals of each storage, which appends the
 * entity to that storage's list. A registry without a delta writer pays nothing; with one, an add
 * or a remove costs one listener call and the quiet fast paths (removal without checks, bulk
 * destroy) give way to the observed ones. Entities created and destroyed are found by one pass over
 * the entity storage against the writer's record of what the replica holds (one {@code long} per
 * entity index), which also evaluates the interest predicate. The log is emptied by each write;
 * {@link #close} disconnects the listeners.
 *
 * <p>A {@link SnapshotLoader} load fills the storages in bulk, without the after-insert signal, and
 * may give back the very identifiers the replica holds at the positions they had, which no compare
 * of the entity storage sees; so the loader tells the registry's writers (a count in the registry's
 * context, shared by its writers, each remembering the value it last saw: one compare per write),
 * and the next write after a load is a whole one: the whole entity pass, and every storage scanned
 * as a new one's.
 *
 * <h2>Interest sets</h2>
 *
 * <p>{@link #interest} (a predicate, evaluated for every live entity at each write) or {@link
 * #entities} (a fixed set) chooses what this replica gets. A reference ({@code @EntityRef} field)
 * to an entity the replica does not have is sent as {@link Entity#NULL} (a {@link DeltaLoader}
 * refuses any other reference to an entity it does not hold); when an entity enters or leaves the
 * replica, every element of its storages that refers to it is sent again (one pass over the
 * storages with references, only in writes where the replica gains or loses entities), so the
 * replica's references always name the mapped entity or {@code NULL}, as a full snapshot's would.
 * Hierarchy links are references too; the {@link DeltaLoader} rebuilds the replica's children lists
 * and counts from the parent links that arrive, so its hierarchy is whole with any interest set.
 *
 * <h2>Costs</h2>
 *
 * <p>O(entity storage size) for the entity pass (O(1) without an interest predicate when no entity
 * was created or destroyed since the previous write: {@link EntityStorage#changes()} tells), plus
 * per tracked storage O(written) when it keeps a {@link dev.phalanx.ecs.WriteLog} (generated
 * storages do: the writer reads the entities written in place since its previous write, looks each
 * up and sorts their positions, and sends the same bytes a compare of every tick would), else, in
 * its first write or when it fell behind the log's bound, O(size) (a tick compare per element, page
 * by page over a generated storage's tick pages), plus O(size) for those opted in with {@link
 * #everyValue}, plus O(log + sent), plus, in a write where the replica gains or loses entities, one
 * pass over the references of each storage that has {@code @EntityRef} fields. Without an interest
 * predicate the entity pass is a sequential compare against the writer's copy of the entity storage
 * ({@link Arrays#mismatch}, updated where it changed), and gained entities are found through the
 * logs; with one (and in the first write), every gained entity is looked up in every storage. A
 * write after a restore costs what a first write costs: O(entity storage size + elements), every
 * element of the replica's entities sent. The delta is built in an array of its own and copied into
 * the one {@link #bytes()} returns when the write succeeds (one copy of the delta's bytes); those
 * arrays, the copy of the entity storage, the sets and the undo logs (one entry per changed entity
 * index or position, for a failed write's rollback) are reused, as are each section's encoded
 * headers and the checksum: a write allocates nothing once warm, except for codec fields (their
 * encoder's buffers), a delta larger than any before, and errors.
 *
 * <h2>Failures and nested calls</h2>
 *
 * <p>A write is all or nothing for the writer: it computes the delta and the replica's new record
 * first, and makes them the writer's (the base, what the replica holds, the emptied logs, {@link
 * #bytes()}) only once every call of user code of the write has returned: the interest predicate,
 * the codecs and, for {@link #write(OutputStream)}, the stream. If one of them throws, the writer
 * is left exactly as before the call (the registry's change tick has advanced, which costs
 * nothing), and the next write is a correct delta on the last successful one's base.
 *
 * <p>Nested calls are refused: while a write runs, a call from its predicate or codecs to {@link
 * #write()}, {@link #write(OutputStream)}, {@link #interest}, {@link #entities}, {@link #types},
 * {@link #everyValue}, {@link #whenAdded}, {@link #codec} or {@link #close} throws {@link
 * IllegalStateException} naming the write under way, before changing anything. {@link #base()} and
 * {@link #bytes()} may be called and show the last successful write.
 *
 * <h2>Threading</h2>
 *
 * <p>Reads the registry and is told of its changes on the mutating thread: not thread-safe, and no
 * thread may change the registry during a write.
 */
public final class DeltaWriter implements AutoCloseable {

  private final Registry registry;
  private final long stream = ThreadLocalRandom.current().nextLong();
  private final Map<Class<?>, ValueCodec<?>> codecs = new HashMap<>();
  private final List<Tracker> trackers = new ArrayList<>();
  private final CallGuard guard = new CallGuard("DeltaWriter");
  private final CRC32C crc = new CRC32C();
  // The capacity up to which the churn set is kept however small the churn (see churnSet).
  private static final int SMALL_CHURN_SET = 1 << 12;
  // The delta of the last successful write (what bytes() shows: one array, as long as it need not
  // grow), and the one being built, copied into it when a write commits: a failed write leaves the
  // last delta as it was.
  private final BinaryOutput<RuntimeException> done = BinaryOutput.inMemory();
  private final BinaryOutput<RuntimeException> out = BinaryOutput.inMemory();
  private final ColumnWriter columns = new ColumnWriter();
  private LongPredicate interest;
  // The entity storage's packed array and counts at the previous write (lastAlive -1: none).
  private long[] lastPacked = new long[0];
  private int lastAlive = -1;
  private int lastSize;
  // The entity storage's change count when the copy was made equal to it (see passChanged).
  private long lastChanges = -1;
  private final java.util.Set<ComponentType<?, ?>> everyValue = new java.util.HashSet<>();
  private final java.util.Set<ComponentType<?, ?>> whenAdded = new java.util.HashSet<>();
  // The types streamed, or null for every storage; and how many of the registry's storages have
  // been looked at for a tracker.
  private java.util.Set<ComponentType<?, ?>> chosenTypes;
  private int attachedUpTo;
  private long base;
  // The replica's handle at each entity index, or Entity.NULL: what the previous deltas gave it.
  private long[] has = new long[0];
  // The entity storage's size at the previous write: the replica holds no index at or past it. The
  // size only shrinks in a restore (SnapshotLoader), whose indices past the new size are then lost.
  private int heldBound;
  // The write at which each index entered the replica (created or newly interesting): its
  // components all go out.
  private int[] entered = new int[0];
  private int generation;
  // The section (one per storage and write) in which a position was chosen, and in which an
  // entity index was listed as removed: to send each element and each removal once.
  private int[] chosenAt = new int[0];
  private int[] removedAt = new int[0];
  private int section;
  private int[] positions = new int[16];
  // Whether tracked storages' write logs are read (false: every tick compared; for tests).
  boolean useWriteLogs = true;
  // The positions read from a write log, before they are sorted (see chooseWritten).
  private int[] written = new int[16];
  private int positionCount;
  private long[] removed = new long[16];
  private int removedCount;
  private long[] gone = new long[16];
  private int goneCount;
  private long[] arrived = new long[16];
  private int arrivedCount;
  // The entities lost and gained by this write, when there are any: elements that refer to them
  // are sent again, so that the replica's references follow (NULL for an entity it lacks).
  private LongLongMap churn;
  // The reused set behind churn (null until a write needs one).
  private LongLongMap churnSet;
  // Whether every entity this write gains is in the storages' logs with all its components: true
  // after a pass over the changed positions only (each gained entity was created since the base).
  private boolean arrivalsLogged;
  private final RefChooser refChooser = new RefChooser();
  // The state of an acknowledged writer (see AckedDeltaWriter), or null for a plain one.
  private Acked acked;
  // The registry's count of whole loads (shared by its writers) and its value at the previous
  // write: a load since then makes the next write a whole one (see restored).
  private final Restores restores;
  private long restoresSeen;
  // A write is computed, then committed (see compose). Until the commit, these undo it: the
  // previous handle of each index of has[] the pass changed, and of each position of the copy.
  private int[] undoIndex = new int[16];
  private long[] undoHad = new long[16];
  private int undoCount;
  private int[] copyUndoAt = new int[16];
  private long[] copyUndoHad = new long[16];
  private int copyUndoCount;
  // Whether this pass replaced the whole copy (keepCopy), which no undo log covers.
  private boolean copyReplaced;
  // The state the write under way started from, restored if it fails.
  private int trackersBefore;
  private int attachedBefore;
  private long restoresSeenBefore;
  private int lastAliveBefore;
  private int lastSizeBefore;
  private long lastChangesBefore;
  private int heldBoundBefore;
  // The tick of the write under way: the base once it commits.
  private long pendingBase;

  /**
   * Creates a writer of {@code registry} to one replica that holds nothing yet: its first delta
   * carries every entity of the interest set.
   *
   * @param registry the registry to stream
   */
  public DeltaWriter(final Registry registry) {
    this.registry = registry;
    final Restores known = registry.context().find(Restores.class);
    this.restores =
        null != known ? known : registry.context().emplace(Restores.class, new Restores());
    this.restoresSeen = restores.count;
    attachNewStorages();
  }

  /**
   * Sends this replica only the live entities {@code chosen} accepts, evaluated at every write (an
   * entity that stops being accepted is removed from the replica, one that starts is sent whole).
   *
   * @param chosen the interest predicate, or {@code null} for every entity
   * @return this writer
   */
  public DeltaWriter interest(final LongPredicate chosen) {
    guard.check("set the interest");
    this.interest = chosen;
    return this;
  }

  /**
   * Sends this replica only {@code chosen} (those of them alive at each write).
   *
   * @param chosen the entities
   * @return this writer
   */
  public DeltaWriter entities(final long... chosen) {
    // interest(...) refuses a nested call; building the set changes nothing.
    final LongLongMap set = new LongLongMap(chosen.length);
    for (final long entity : chosen) {
      set.put(entity, 1);
    }
    return interest(set::containsKey);
  }

  /**
   * Adds {@code types} to the storages streamed: the first call limits the writer to its types (by
   * default it streams every storage of the registry, the hierarchy's and void ones included), and
   * each later call adds more, so that {@code types(a).types(b)} streams both. Every writer and
   * loader of this package reads {@code types(...)} this way (as EnTT's snapshot calls, flecs'
   * filters and Bevy's replication rules are built up one component at a time): a call never drops
   * what an earlier one chose. To stream other types, make a new writer (one per replica anyway).
   *
   * <p>Links are streamed whether listed or not: the storage of every relationship kind and the
   * hierarchy's ({@link Storage#isRelationship()}), for the replica's entities, as a writer of
   * every type streams them; so a replica of chosen types keeps every parent and relationship
   * target instead of seeing each child as a root. Links are the world's structure, not one
   * entity's data. Like every storage a writer of every type streams, an unlisted link storage that
   * is untracked carries its links when they are made; opt it in with {@link #everyValue} (or track
   * the kind) if sources change targets in place later. A listed one follows the rule below.
   *
   * <p>A listed type with fields whose in-place writes this writer cannot see must say how it is
   * replicated, or the next {@link #write} throws {@link IllegalArgumentException} naming it: an
   * untracked one needs {@link #everyValue} (written in place: every value sent in every delta) or
   * {@link #whenAdded} (never written in place after it is added); a tracked type ({@code
   * Component(tracked = true)}) and a type without fields need nothing.
   *
   * @param types the types to stream, besides those of earlier calls
   * @return this writer
   * @throws IllegalStateException if this writer has written a delta (the replica holds what the
   *     earlier types gave it: make a new writer), or if called from the interest predicate or a
   *     codec of a write under way; nothing changed
   */
  public DeltaWriter types(final ComponentType<?, ?>... types) {
    guard.check("choose the types");
    if (0 != base) {
      throw new IllegalStateException(
          "cannot add types after the first write: the replica holds what the earlier types gave"
              + " it; choose every type before the first write, or make a new writer and a new"
              + " replica");
    }
    close();
    if (null == chosenTypes) {
      chosenTypes = new java.util.HashSet<>();
    }
    chosenTypes.addAll(Arrays.asList(types));
    attachedUpTo = 0;
    attachNewStorages();
    return this;
  }

  /**
   * Sends every element of these untracked types (of the replica's entities) in every delta, not
   * only when the component is added: for untracked components written in place. A tracked type
   * needs no opting in (its changed elements are sent); opting it in sends all of it too. Like
   * {@link #types}, each call adds to the earlier ones.
   *
   * @param types the types
   * @return this writer
   */
  public DeltaWriter everyValue(final ComponentType<?, ?>... types) {
    guard.check("opt types in to every value");
    everyValue.addAll(Arrays.asList(types));
    return this;
  }

  /**
   * Declares that these untracked types are never written in place once added: a delta sends an
   * element's values when the component is added (or its entity enters the replica), and nothing
   * more. That is what the writer does for any untracked type; the declaration is what lets {@link
   * #types} list such a type (see there), so that an untracked type never loses its in-place writes
   * without a word. A write in place after the add does not reach the replica: track the type, or
   * use {@link #everyValue}, if that may happen. Like {@link #types}, each call adds to the earlier
   * ones.
   *
   * @param types the types
   * @return this writer
   */
  public DeltaWriter whenAdded(final ComponentType<?, ?>... types) {
    guard.check("declare types sent when added");
    whenAdded.addAll(Arrays.asList(types));
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
  public <T> DeltaWriter codec(final Class<T> type, final ValueCodec<T> codec) {
    guard.check("register a codec");
    codecs.put(type, codec);
    return this;
  }

  /** {@return the tick of the last delta written (0 before the first): the replica's base next} */
  public long base() {
    return base;
  }

  /**
   * Writes the delta since the previous write to {@code target} (flushed, not closed) and makes
   * this write the next one's base. Advances the registry's change tick.
   *
   * @param target the stream
   * @return the number of bytes written
   * @throws IOException if the stream fails; the writer is left as before the call, and the next
   *     write is again on the last successful one's base: a replica that did not get this delta
   *     takes the next one; one that did refuses it (naming both ticks), and is then started anew
   *     with a new writer
   * @throws IllegalStateException if a field's type has no codec, or if called from the interest
   *     predicate or a codec of a write under way; nothing is written or changed
   * @throws IllegalArgumentException if a type listed in {@link #types} is untracked and neither
   *     opted in to {@link #everyValue} nor declared {@link #whenAdded}; nothing is written or
   *     changed
   * @throws RuntimeException what the interest predicate or a codec threw; the writer is left as
   *     before the call
   */
  public int write(final OutputStream target) throws IOException {
    guard.enter("write(OutputStream)", "write a delta");
    try {
      compose();
      try {
        target.write(out.bytes(), 0, out.size());
        target.flush();
      } catch (final IOException | RuntimeException | Error e) {
        rollback();
        throw e;
      }
      commit();
      return done.size();
    } finally {
      guard.exit();
    }
  }

  /**
   * Writes the delta since the previous write into a reused array and makes this write the next
   * one's base; the bytes are {@code [0, returned length)} of {@link #bytes()}.
   *
   * @return the delta's length in bytes
   * @throws IllegalStateException if a field's type has no codec, or if called from the interest
   *     predicate or a codec of a write under way; nothing is written or changed
   * @throws IllegalArgumentException if a type listed in {@link #types} is untracked and neither
   *     opted in to {@link #everyValue} nor declared {@link #whenAdded}; nothing is written or
   *     changed
   * @throws RuntimeException what the interest predicate or a codec threw; the writer is left as
   *     before the call, {@link #bytes()} included
   */
  public int write() {
    guard.enter("write()", "write a delta");
    try {
      compose();
      commit();
      return done.size();
    } finally {
      guard.exit();
    }
  }

  /**
   * Returns the array the last successful write filled: the delta is its {@code [0, length)}, the
   * length being what {@link #write()} returned. Call {@link #write()} first, then this: the next
   * write may grow the array, and an array taken before it then holds the previous delta. So {@code
   * loader.load(writer.bytes(), writer.write())}, in which Java calls {@code bytes()} first, is a
   * mistake: before the first write this method refuses it; later, {@link DeltaLoader} refuses the
   * stale array before changing anything (its length does not fit), and the delta stays here until
   * the next write, so that {@code loader.load(writer.bytes(), length)} still applies it. A failed
   * write leaves the array as it was.
   *
   * @return the array of the last delta
   * @throws IllegalStateException if no write succeeded yet: there is no delta to read
   */
  public byte[] bytes() {
    if (0 == done.size()) {
      throw new IllegalStateException(
          "no delta written yet: call write() before bytes() (int length = writer.write(); then"
              + " loader.load(writer.bytes(), length)); in load(writer.bytes(), writer.write())"
              + " Java calls bytes() first");
    }
    return done.bytes();
  }

  /**
   * Disconnects this writer from the registry's storages; it must not write afterwards.
   *
   * @throws IllegalStateException if called from the interest predicate or a codec of a write under
   *     way; nothing changed
   */
  @Override
  public void close() {
    guard.check("close the writer");
    for (final Tracker tracker : trackers) {
      tracker.detach();
    }
    trackers.clear();
  }

  // ---------------------------------------------------------------------------------------------
  // Acknowledged deltas (AckedDeltaWriter): each against a baseline the client acknowledged.
  // ---------------------------------------------------------------------------------------------

  /**
   * What an acknowledged writer keeps besides the plain writer's record of the replica ({@code
   * has}: what the last write gave it): per entity index, the tick at which that record last
   * changed and the tick at which the entity's components last changed. A delta against a baseline
   * of tick {@code since} carries every index, component and value that changed after it, each as
   * it is now, so that it is right on any state the replica may hold from the baseline on.
   */
  private static final class Acked {
    long[] heldTick = new long[0];
    long[] shapeTick = new long[0];
    // The entities sent with all their components by the write under way: gained or reshaped.
    long[] whole = new long[16];
    int wholeCount;
    // The baseline's tick during a write; the tick of the first committed write after a restore
    // (an older baseline cannot be used); whether the write under way follows a restore.
    long since;
    long restoredAt;
    boolean restoring;
  }

  /** Makes this writer an acknowledged one (see {@link AckedDeltaWriter}); before any write. */
  void acknowledged() {
    acked = new Acked();
  }

  /** Refuses {@code what} if a write is under way (see {@link CallGuard#check}). */
  void checkIdle(final String what) {
    guard.check(what);
  }

  /**
   * Writes an acknowledged delta into a reused array ({@link #bytes()}): number {@code sequence},
   * against the baseline of number {@code baseline} written at tick {@code since}, or a resync
   * (every entity of the interest set with all its components) if {@code baseline} is 0 or the
   * registry was restored since that baseline. All or nothing for the bytes; on failure, what the
   * write recorded only widens what later deltas send. {@link #base()} is then this write's tick.
   *
   * @return the delta's length
   */
  int writeAcknowledged(final long sequence, final long baseline, final long since) {
    guard.enter("write()", "write a delta");
    try {
      checkCodecs();
      buildAcknowledged(sequence, baseline, since);
      for (int k = 0; k < trackers.size(); k++) {
        final Tracker tracker = trackers.get(k);
        tracker.sentTick = 0 == tracker.sentTick ? pendingBase : tracker.sentTick;
      }
      if (acked.restoring) {
        acked.restoring = false;
        acked.restoredAt = pendingBase;
        restoresSeen = restores.count;
      }
      base = pendingBase;
      done.reset();
      done.putBytes(out.bytes(), 0, out.size());
      return done.size();
    } finally {
      guard.exit();
    }
  }

  private void buildAcknowledged(final long sequence, final long baseline, final long since) {
    attachNewStorages();
    final Acked state = acked;
    state.restoring = restores.count != restoresSeen;
    final boolean resync = 0 == baseline || since < state.restoredAt || state.restoring;
    final long now = registry.advanceChangeTick();
    state.since = resync ? Long.MAX_VALUE : since;
    stampShapes(now);
    out.reset();
    out.putBytes(DeltaFormat.ACKED_MAGIC, 0, 4);
    out.putInt(DeltaFormat.VERSION);
    out.putInt(0); // the length, set at the end
    out.putLong(stream);
    out.putLong(resync ? 0 : baseline);
    out.putLong(sequence);
    passAcknowledged(resync, since, now);
    out.putInt(goneCount);
    out.longs(gone, 0, goneCount);
    out.putInt(arrivedCount);
    out.longs(arrived, 0, arrivedCount);
    final int storageCountAt = out.size();
    out.putInt(0);
    final boolean churned = 0 != goneCount + arrivedCount;
    int sections = 0;
    for (int k = 0; k < trackers.size(); k++) {
      final Tracker tracker = trackers.get(k);
      final boolean fresh = resync || 0 == tracker.sentTick || tracker.sentTick > since;
      if (writeAcknowledgedStorage(tracker, resync, fresh, since, churned)) {
        sections++;
      }
    }
    out.putIntAt(storageCountAt, sections);
    out.putIntAt(8, out.size() + DeltaFormat.TRAILER);
    out.putInt(DeltaFormat.crc(crc, out.bytes(), 0, out.size()));
    pendingBase = now;
  }

  /**
   * Empties the storages' logs into the entities' component ticks (and each storage's last removal
   * tick). Done first and kept whatever follows: a failed write leaves ticks newer than any
   * committed baseline, which only widens what the next deltas send.
   */
  private void stampShapes(final long now) {
    ensureIndices(registry.entities().size());
    final long[] shapes = acked.shapeTick;
    for (int k = 0; k < trackers.size(); k++) {
      final Tracker tracker = trackers.get(k);
      for (int i = 0; i < tracker.size; i++) {
        final long entity = tracker.log[i];
        final int index = Entity.index(entity);
        if (index < shapes.length) {
          shapes[index] = now;
        }
        if (SparseSet.ABSENT == tracker.storage.indexOf(entity)) {
          tracker.removedTick = now;
        }
      }
      tracker.size = 0;
      tracker.consumed = 0;
    }
  }

  /** Grows the per-index records to {@code size} indices. */
  private void ensureIndices(final int size) {
    if (has.length < size) {
      final int old = has.length;
      has = Arrays.copyOf(has, size);
      Arrays.fill(has, old, size, Entity.NULL);
      entered = Arrays.copyOf(entered, size);
      removedAt = Arrays.copyOf(removedAt, size);
    }
    if (acked.heldTick.length < has.length) {
      acked.heldTick = Arrays.copyOf(acked.heldTick, has.length);
      acked.shapeTick = Arrays.copyOf(acked.shapeTick, has.length);
    }
  }

  /**
   * One pass over the entity storage: records what the replica holds now, and lists, of the indices
   * whose holder changed after the baseline, those now held (gained: sent whole) and the others
   * (lost, whatever version the replica holds); then the held entities whose components changed
   * after it (sent whole too). A resync gains every held entity and lists nothing lost.
   */
  private void passAcknowledged(final boolean resync, final long since, final long now) {
    final EntityStorage entities = registry.entities();
    final long[] packed = entities.packed();
    final int size = entities.size();
    final int alive = entities.alive();
    final Acked state = acked;
    final long[] heldTick = state.heldTick;
    final long[] shapeTick = state.shapeTick;
    final LongPredicate chosen = interest;
    goneCount = 0;
    arrivedCount = 0;
    state.wholeCount = 0;
    generation++;
    for (int position = 0; position < size; position++) {
      final long entity = packed[position];
      final int index = Entity.index(entity);
      final boolean wanted = position < alive && (null == chosen || chosen.test(entity));
      final long holder = wanted ? entity : Entity.NULL;
      if (has[index] != holder) {
        has[index] = holder;
        heldTick[index] = now;
      }
      if (resync || heldTick[index] > since) {
        if (wanted) {
          arrived = push(arrived, arrivedCount++, entity);
          state.whole = push(state.whole, state.wholeCount++, entity);
          entered[index] = generation;
        } else if (!resync) {
          gone = push(gone, goneCount++, entity);
        }
      } else if (wanted && shapeTick[index] > since) {
        state.whole = push(state.whole, state.wholeCount++, entity);
      }
    }
    // The indices a restore took away (a restore makes this write a resync).
    for (int index = size; index < heldBound; index++) {
      has[index] = Entity.NULL;
      heldTick[index] = now;
    }
    heldBound = size;
  }

  /**
   * Chooses one storage's elements for an acknowledged delta and writes its section: every held
   * element when {@code fresh} (a resync, or a storage the baseline may lack), else the changed
   * values (tracked, or all with {@link #everyValue}); unless a resync, the elements of the
   * entities sent whole (listed as removed where they lack the component, if the storage lost any
   * element since the baseline: the replica may hold a newer state that has it), and those whose
   * references changed hands.
   */
  private boolean writeAcknowledgedStorage(
      final Tracker tracker,
      final boolean resync,
      final boolean fresh,
      final long since,
      final boolean churned) {
    final Storage<?> storage = tracker.storage;
    final long[] packed = storage.packed();
    final int size = storage.size();
    if (chosenAt.length < size) {
      chosenAt = Arrays.copyOf(chosenAt, Math.max(size, 2 * chosenAt.length));
    }
    positionCount = 0;
    removedCount = 0;
    final int mark = ++section;
    chooseValues(tracker, packed, size, fresh, since, mark);
    if (resync) {
      return writeSection(tracker, packed);
    }
    final boolean removals = tracker.removedTick > since;
    final Acked state = acked;
    for (int i = 0; i < state.wholeCount; i++) {
      final long entity = state.whole[i];
      final int position = storage.indexOf(entity);
      if (SparseSet.ABSENT != position) {
        choose(position, mark);
      } else if (removals) {
        removed = push(removed, removedCount++, entity);
      }
    }
    if (tracker.refs && churned) {
      refChooser.storage = storage;
      refChooser.mark = mark;
      storage.eachEntityRef(refChooser);
    }
    return writeSection(tracker, packed);
  }

  // ---------------------------------------------------------------------------------------------
  // Building a delta.
  // ---------------------------------------------------------------------------------------------

  /**
   * Builds the delta since the base into {@code out}, without committing it: everything this writer
   * changes on the way can be undone ({@link #rollback}) until {@link #commit}, and is undone here
   * if the interest predicate or a codec throws. The registry's change tick advances either way (a
   * later write's base is still the last committed tick, so nothing is missed).
   */
  private void compose() {
    checkCodecs();
    trackersBefore = trackers.size();
    attachedBefore = attachedUpTo;
    restoresSeenBefore = restoresSeen;
    lastAliveBefore = lastAlive;
    lastSizeBefore = lastSize;
    lastChangesBefore = lastChanges;
    heldBoundBefore = heldBound;
    undoCount = 0;
    copyUndoCount = 0;
    copyReplaced = false;
    try {
      build(trackersBefore);
    } catch (final RuntimeException | Error e) {
      rollback();
      throw e;
    }
  }

  /**
   * Makes the composed delta the last one: its tick the next base, its bytes {@link #bytes()}, the
   * logs it read emptied (entries appended meanwhile stay for the next write).
   */
  private void commit() {
    for (int k = 0; k < trackers.size(); k++) {
      trackers.get(k).consume();
    }
    base = pendingBase;
    done.reset();
    done.putBytes(out.bytes(), 0, out.size());
    undoCount = 0;
    copyUndoCount = 0;
  }

  /**
   * Undoes what {@link #compose} changed: the replica's record and the copy of the entity storage
   * from the undo logs, the counts, the restore count seen, the logs read (kept whole), and the
   * trackers it attached (disconnected: the next write attaches them again and sends their storages
   * whole). The bytes built are left in the build buffer, which nothing else reads.
   */
  private void rollback() {
    for (int i = undoCount - 1; i >= 0; i--) {
      has[undoIndex[i]] = undoHad[i];
    }
    for (int i = copyUndoCount - 1; i >= 0; i--) {
      lastPacked[copyUndoAt[i]] = copyUndoHad[i];
    }
    undoCount = 0;
    copyUndoCount = 0;
    // A copy replaced whole is not undone: the next pass without a predicate is a whole one.
    lastAlive = copyReplaced ? -1 : lastAliveBefore;
    lastSize = lastSizeBefore;
    lastChanges = lastChangesBefore;
    heldBound = heldBoundBefore;
    restoresSeen = restoresSeenBefore;
    for (int k = 0; k < trackers.size(); k++) {
      trackers.get(k).rollback();
    }
    for (int k = trackers.size() - 1; k >= trackersBefore; k--) {
      trackers.remove(k).detach();
    }
    attachedUpTo = attachedBefore;
    churn = null;
  }

  private void build(final int known) {
    attachNewStorages();
    final long since = base;
    final long now = registry.advanceChangeTick();
    // A whole load since the previous write: the logs miss what it filled in (see restored).
    final boolean restored = restores.count != restoresSeen;
    restoresSeen = restores.count;
    generation++;
    out.reset();
    out.putBytes(DeltaFormat.MAGIC, 0, 4);
    out.putInt(DeltaFormat.VERSION);
    out.putInt(0); // the length, set at the end
    out.putLong(stream);
    out.putLong(since);
    out.putLong(now);
    passEntities(restored);
    churn = null;
    if (0 != goneCount + arrivedCount && anyRefs()) {
      churn = churnSet(goneCount + arrivedCount);
      for (int i = 0; i < goneCount; i++) {
        churn.put(gone[i], 1);
      }
      for (int i = 0; i < arrivedCount; i++) {
        churn.put(arrived[i], 1);
      }
    }
    out.putInt(goneCount);
    out.longs(gone, 0, goneCount);
    out.putInt(arrivedCount);
    out.longs(arrived, 0, arrivedCount);
    final int storageCountAt = out.size();
    out.putInt(0);
    int sections = 0;
    for (int k = 0; k < trackers.size(); k++) {
      if (writeStorage(trackers.get(k), restored || k >= known, since)) {
        sections++;
      }
    }
    out.putIntAt(storageCountAt, sections);
    out.putIntAt(8, out.size() + DeltaFormat.TRAILER);
    out.putInt(DeltaFormat.crc(crc, out.bytes(), 0, out.size()));
    pendingBase = now;
  }

  /**
   * Whether a streamed storage has entity references (whose elements follow churn). Only the
   * trackers count: {@link #build} attached every storage first, and one created later (by the
   * interest predicate) is not written by this write; the next sends it whole.
   */
  private boolean anyRefs() {
    for (int k = 0; k < trackers.size(); k++) {
      if (trackers.get(k).refs) {
        return true;
      }
    }
    return false;
  }

  /** The reused churn set, emptied, for {@code expected} entities. */
  private LongLongMap churnSet(final int expected) {
    // Shrunk only when large as well as far too large: a small set is cleared faster than it is
    // made again, and churn that varies from write to write would otherwise remake it each time.
    if (null == churnSet
        || churnSet.capacity() < 2L * expected
        || (churnSet.capacity() > 16L * expected && churnSet.capacity() > SMALL_CHURN_SET)) {
      churnSet = new LongLongMap(expected);
    } else {
      churnSet.clear();
    }
    return churnSet;
  }

  private void checkCodecs() {
    for (int k = 0; k < trackers.size(); k++) {
      checkCodecs(trackers.get(k).storage, trackers.get(k).columns);
      checkReplicable(trackers.get(k).storage, trackers.get(k).fields);
    }
    for (int i = attachedUpTo; i < registry.storageCount(); i++) {
      final Storage<?> storage = registry.storageAt(i);
      if (streams(storage)) {
        final List<SnapshotFormat.Column> columns = SnapshotFormat.columns(storage);
        checkCodecs(storage, columns);
        checkReplicable(storage, !columns.isEmpty());
      }
    }
  }

  /**
   * Refuses a type listed in {@link #types} whose in-place writes would never reach the replica
   * without a word: untracked, with fields, and neither opted in to every value nor declared sent
   * when added.
   */
  private void checkReplicable(final Storage<?> storage, final boolean fields) {
    final ComponentType<?, ?> type = storage.type();
    if (null == chosenTypes
        || !chosenTypes.contains(type)
        || !fields
        || storage.isTracked()
        || everyValue.contains(type)
        || whenAdded.contains(type)) {
      return;
    }
    throw new IllegalArgumentException(
        "cannot write a delta of "
            + storage.describe()
            + ": it is listed in types(...) but untracked, so a write in place leaves no trace and"
            + " would never reach the replica; track it (@Component(tracked = true)), send all its"
            + " values in every delta (everyValue(type)), or declare that it is never written in"
            + " place once added (whenAdded(type))");
  }

  private void checkCodecs(final Storage<?> storage, final List<SnapshotFormat.Column> columns) {
    PairSection.refuseUncarried(registry, storage, "a delta");
    {
      // Indexed, not an iterator: this runs at every write.
      for (int c = 0; c < columns.size(); c++) {
        final SnapshotFormat.Column column = columns.get(c);
        if (SnapshotFormat.CODEC == column.code() && !codecs.containsKey(column.type())) {
          throw new IllegalStateException(
              "cannot write a delta of "
                  + storage.describe()
                  + ": field '"
                  + column.name()
                  + "' is of type "
                  + column.type().getName()
                  + ", which deltas do not encode natively; register a ValueCodec for it with"
                  + " codec("
                  + column.type().getSimpleName()
                  + ".class, ...)");
        }
      }
    }
  }

  /**
   * {@return whether this writer streams {@code storage}: every storage by default; else those of
   * the chosen types and, listed or not, the links of every relationship kind and the hierarchy}
   */
  private boolean streams(final Storage<?> storage) {
    return null == chosenTypes || chosenTypes.contains(storage.type()) || storage.isRelationship();
  }

  /** Connects a tracker to each storage created since the last call. */
  private void attachNewStorages() {
    for (; attachedUpTo < registry.storageCount(); attachedUpTo++) {
      final Storage<?> storage = registry.storageAt(attachedUpTo);
      if (!streams(storage)) {
        continue;
      }
      final Tracker tracker = new Tracker(storage);
      tracker.storage.afterInsert().connect(tracker);
      tracker.storage.afterRemove().connect(tracker);
      trackers.add(tracker);
    }
  }

  /**
   * Finds what the replica loses and gains. With an interest predicate, one pass over every live
   * entity ({@link #passAll}); without, only the positions of the entity storage whose handle
   * changed since the previous write ({@link #passChanged}): a sequential compare against a copy.
   */
  private void passEntities(final boolean restored) {
    final EntityStorage entities = registry.entities();
    final int size = entities.size();
    if (has.length < size) {
      final int old = has.length;
      has = Arrays.copyOf(has, size);
      Arrays.fill(has, old, size, Entity.NULL);
      entered = Arrays.copyOf(entered, size);
      removedAt = Arrays.copyOf(removedAt, size);
    }
    goneCount = 0;
    arrivedCount = 0;
    arrivalsLogged = null == interest && lastAlive >= 0 && !restored;
    if (arrivalsLogged) {
      passChanged(entities);
    } else {
      passAll(entities);
      if (null == interest) {
        keepCopy(entities);
      } else {
        lastAlive = -1; // no copy: the next pass without a predicate is a whole one again
      }
    }
    heldBound = size;
  }

  private void keepCopy(final EntityStorage entities) {
    final int size = entities.size();
    if (lastPacked.length < size) {
      lastPacked = Arrays.copyOf(lastPacked, Math.max(size, 2 * lastPacked.length));
    }
    System.arraycopy(entities.packed(), 0, lastPacked, 0, size);
    copyReplaced = true;
    lastAlive = entities.alive();
    lastSize = size;
    lastChanges = entities.changes();
  }

  /** One pass over the entity storage: loses what is dead or not chosen, gains the rest. */
  private void passAll(final EntityStorage entities) {
    final long[] packed = entities.packed();
    final int size = entities.size();
    final int alive = entities.alive();
    final LongPredicate chosen = interest;
    for (int position = 0; position < size; position++) {
      final long entity = packed[position];
      final boolean wanted = position < alive && (null == chosen || chosen.test(entity));
      if (wanted) {
        gain(entity);
      } else {
        lose(entity);
      }
    }
    // The indices a restore took away (the size never shrinks otherwise: an empty loop).
    for (int index = size; index < heldBound; index++) {
      final long had = has[index];
      if (!Entity.isNull(had)) {
        gone = push(gone, goneCount++, had);
        noteHas(index, had);
        has[index] = Entity.NULL;
      }
    }
  }

  /**
   * Compares the entity storage with the copy taken at the previous write: a live entity whose
   * handle still sits where it sat, inside both live prefixes, has not changed; every other
   * position is looked at (the handle there now, and the one there then). A destroyed entity's
   * released handle carries its next version, so a death always changes its position's handle;
   * positions between the two live counts changed liveness and are looked at whatever they hold.
   */
  private void passChanged(final EntityStorage entities) {
    if (entities.changes() == lastChanges) {
      return; // the copy equals the entity storage: nothing created or destroyed
    }
    final long[] packed = entities.packed();
    final int size = entities.size();
    final int alive = entities.alive();
    if (lastPacked.length < size) {
      lastPacked = Arrays.copyOf(lastPacked, Math.max(size, 2 * lastPacked.length));
    }
    final long[] last = lastPacked;
    final int wasAlive = lastAlive;
    final int wasSize = lastSize;
    final int stable = Math.min(alive, wasAlive);
    // Arrays.mismatch skips the runs that did not change (vectorised): most of them.
    int position = 0;
    while (position < stable) {
      final int skipped = Arrays.mismatch(packed, position, stable, last, position, stable);
      if (skipped < 0) {
        break;
      }
      position += skipped;
      lookAt(position, packed, last, alive, wasAlive);
      noteCopy(position, last[position]);
      last[position] = packed[position];
      position++;
    }
    for (position = stable; position < Math.max(size, wasSize); position++) {
      lookAt(position, packed, last, alive, wasAlive);
      if (position < size) {
        noteCopy(position, last[position]);
        last[position] = packed[position];
      }
    }
    // The copy now equals the entity storage's [0, size): only changed positions were written.
    lastAlive = alive;
    lastSize = size;
    lastChanges = entities.changes();
  }

  private void lookAt(
      final int position,
      final long[] packed,
      final long[] last,
      final int alive,
      final int wasAlive) {
    if (position < wasAlive && !registry.valid(last[position])) {
      lose(last[position]);
    }
    if (position < alive) {
      gain(packed[position]);
    }
  }

  /** The replica gets {@code entity} if it has not got it (losing an older incarnation). */
  private void gain(final long entity) {
    final int index = Entity.index(entity);
    final long had = has[index];
    if (had != entity) {
      if (!Entity.isNull(had)) {
        gone = push(gone, goneCount++, had);
      }
      arrived = push(arrived, arrivedCount++, entity);
      noteHas(index, had);
      has[index] = entity;
      entered[index] = generation;
    }
  }

  /** The replica loses {@code entity}, or the incarnation of its index it holds, if any. */
  private void lose(final long entity) {
    final int index = Entity.index(entity);
    final long had = has[index];
    if (!Entity.isNull(had) && (had == entity || !registry.valid(had))) {
      gone = push(gone, goneCount++, had);
      noteHas(index, had);
      has[index] = Entity.NULL;
    }
  }

  /** Logs the handle {@code has[index]} held before this pass changed it, for a rollback. */
  private void noteHas(final int index, final long had) {
    if (undoCount == undoIndex.length) {
      undoIndex = Arrays.copyOf(undoIndex, 2 * undoCount);
      undoHad = Arrays.copyOf(undoHad, 2 * undoCount);
    }
    undoIndex[undoCount] = index;
    undoHad[undoCount++] = had;
  }

  /** Logs the handle the copy held at {@code position} before this pass changed it. */
  private void noteCopy(final int position, final long had) {
    if (copyUndoCount == copyUndoAt.length) {
      copyUndoAt = Arrays.copyOf(copyUndoAt, 2 * copyUndoCount);
      copyUndoHad = Arrays.copyOf(copyUndoHad, 2 * copyUndoCount);
    }
    copyUndoAt[copyUndoCount] = position;
    copyUndoHad[copyUndoCount++] = had;
  }

  static long[] push(final long[] array, final int at, final long value) {
    final long[] target = at == array.length ? Arrays.copyOf(array, 2 * at) : array;
    target[at] = value;
    return target;
  }

  /** Whether the replica holds {@code entity} from an earlier delta (not gained by this one). */
  private boolean kept(final long entity) {
    final int index = Entity.index(entity);
    return index < has.length && has[index] == entity && entered[index] != generation;
  }

  private boolean held(final long entity) {
    final int index = Entity.index(entity);
    return index < has.length && has[index] == entity;
  }

  /** Writes one storage's section if it has anything to say; returns whether it did. */
  private boolean writeStorage(final Tracker tracker, final boolean fresh, final long since) {
    final Storage<?> storage = tracker.storage;
    final long[] packed = storage.packed();
    final int size = storage.size();
    if (chosenAt.length < size) {
      chosenAt = Arrays.copyOf(chosenAt, Math.max(size, 2 * chosenAt.length));
    }
    positionCount = 0;
    removedCount = 0;
    final int mark = ++section;
    // What changed membership: the log (with the gained entities' components when they are all
    // in it, see arrivalsLogged).
    final boolean arrivals = arrivalsLogged && !fresh;
    chooseLogged(tracker, arrivals, mark);
    tracker.consumed = tracker.size;
    // The replica's new entities, all their components, unless the log had them.
    if (!arrivals) {
      chooseArrived(storage, mark);
    }
    chooseValues(tracker, packed, size, fresh, since, mark);
    return writeSection(tracker, packed);
  }

  /**
   * Writes the section of the chosen positions and removals, if there are any; returns whether it
   * did: the one encoder of both kinds of delta.
   */
  private boolean writeSection(final Tracker tracker, final long[] packed) {
    final Storage<?> storage = tracker.storage;
    if (0 == positionCount && 0 == removedCount) {
      return false;
    }
    writeColumnHeaders(tracker);
    out.putInt(removedCount);
    out.longs(removed, 0, removedCount);
    out.putInt(positionCount);
    for (int i = 0; i < positionCount; i++) {
      out.putLong(packed[positions[i]]);
    }
    columns.start(storage);
    storage.columns(columns);
    return true;
  }

  /**
   * Chooses the logged entities the replica keeps (or, with {@code arrivals}, holds) that have the
   * component, and lists as removed the kept ones that no longer have it.
   */
  private void chooseLogged(final Tracker tracker, final boolean arrivals, final int mark) {
    final Storage<?> storage = tracker.storage;
    for (int i = 0; i < tracker.size; i++) {
      final long entity = tracker.log[i];
      final boolean kept = kept(entity);
      if (!kept && !(arrivals && held(entity))) {
        continue;
      }
      final int position = storage.indexOf(entity);
      if (SparseSet.ABSENT != position) {
        choose(position, mark);
      } else if (kept && removedAt[Entity.index(entity)] != mark) {
        removedAt[Entity.index(entity)] = mark;
        removed = push(removed, removedCount++, entity);
      }
    }
  }

  /** Chooses the element of every entity the replica gains in this delta that has one. */
  private void chooseArrived(final Storage<?> storage, final int mark) {
    for (int i = 0; i < arrivedCount; i++) {
      final int position = storage.indexOf(arrived[i]);
      if (SparseSet.ABSENT != position) {
        choose(position, mark);
      }
    }
  }

  /**
   * Chooses the elements whose values are written: every held one when fresh or asked for every
   * value, else the changed ones of a tracked storage; then those whose entity references churned.
   */
  private void chooseValues(
      final Tracker tracker,
      final long[] packed,
      final int size,
      final boolean fresh,
      final long since,
      final int mark) {
    final Storage<?> storage = tracker.storage;
    final boolean fields = tracker.fields;
    final boolean logged = null != tracker.writes;
    if (useWriteLogs && null == acked && fields && storage.isWriteLogged() && !logged) {
      tracker.writes = storage.readWrites(); // read from the next write on
      tracker.writesOpened = true;
    }
    if (null != tracker.writes) {
      tracker.writesEnd = tracker.writes.end();
    }
    if (fresh || (fields && everyValue.contains(storage.type()))) {
      for (int position = 0; position < size; position++) {
        final long entity = packed[position];
        if (!Entity.isTombstone(entity) && held(entity)) {
          choose(position, mark);
        }
      }
    } else if (fields && storage.isTracked()) {
      if (logged && !tracker.writes.lost()) {
        chooseWritten(tracker, packed, since, mark);
      } else {
        chooseChanged(tracker, packed, size, since, mark);
      }
    }
    if (tracker.refs && null != churn) {
      refChooser.storage = storage;
      refChooser.mark = mark;
      storage.eachEntityRef(refChooser);
    }
  }

  /**
   * Writes the section's storage key and, per column, its name, type code and enum constants: the
   * bytes of the first write, kept by the tracker, from then on (no string encoded per write).
   */
  private void writeColumnHeaders(final Tracker tracker) {
    if (null != tracker.header) {
      out.putBytes(tracker.header, 0, tracker.header.length);
      return;
    }
    final int start = out.size();
    encodeColumnHeaders(tracker);
    tracker.header = Arrays.copyOfRange(out.bytes(), start, out.size());
  }

  private void encodeColumnHeaders(final Tracker tracker) {
    out.putString(tracker.key);
    out.putInt(tracker.columns.size());
    for (final SnapshotFormat.Column column : tracker.columns) {
      out.putString(column.name());
      out.putByte(column.code());
      if (SnapshotFormat.ENUM == column.code() || SnapshotFormat.CODEC == column.code()) {
        out.putString(column.type().getName());
      }
      if (SnapshotFormat.ENUM == column.code()) {
        final Object[] constants = column.type().getEnumConstants();
        out.putInt(constants.length);
        for (final Object constant : constants) {
          out.putString(((Enum<?>) constant).name());
        }
      }
    }
  }

  /**
   * Chooses the elements of a tracked storage written after {@code since}: page by page over its
   * tick pages ({@link Storage#changeTickPages()}) in the common case, else a tick read per
   * element.
   */
  private void chooseChanged(
      final Tracker tracker,
      final long[] packed,
      final int size,
      final long since,
      final int mark) {
    final Storage<?> storage = tracker.storage;
    final long[][] ticks = storage.changeTickPages();
    if (0 == ticks.length || 0 != positionCount || null != interest) {
      for (int position = 0; position < size; position++) {
        if (storage.changeTickAt(position) > since) {
          chooseHeld(packed, position, mark);
        }
      }
      return;
    }
    // The common case, page by page: nothing chosen yet (each position is visited once, no marks
    // needed), every live entity held (no interest set); a miss per changed element at most.
    final int shift = storage.pageShift();
    final int pageSize = storage.pageSize();
    assert size <= 0 || ticks.length >= ((size - 1) >>> shift) + 1;
    for (int page = 0, from = 0; from < size; page++, from += pageSize) {
      final long[] stamps = ticks[page];
      final int count = Math.min(pageSize, size - from);
      for (int offset = 0; offset < count; offset++) {
        if (stamps[offset] > since && !Entity.isTombstone(packed[from + offset])) {
          append(from + offset);
        }
      }
    }
    markAppended(tracker, mark);
  }

  /** Marks the positions appended unmarked as chosen, if a later pass of the section chooses. */
  private void markAppended(final Tracker tracker, final int mark) {
    if ((tracker.refs && null != churn) || null != acked) {
      for (int i = 0; i < positionCount; i++) {
        chosenAt[positions[i]] = mark; // the passes that choose after this one
      }
    }
  }

  /**
   * Chooses what {@link #chooseChanged} would, in the same order, from the storage's write log: the
   * positions of the logged entities whose tick is newer than {@code since}, ascending. O(logged
   * entries + their sort). An element whose tick is newer and that the log lacks was added since
   * the base, so the structural log has chosen it already.
   */
  private void chooseWritten(
      final Tracker tracker, final long[] packed, final long since, final int mark) {
    final Storage<?> storage = tracker.storage;
    final WriteLog.Reader writes = tracker.writes;
    int count = 0;
    for (long sequence = writes.next(); sequence < tracker.writesEnd; sequence++) {
      final int position = storage.indexOf(writes.entity(sequence));
      if (SparseSet.ABSENT != position && storage.changeTickAt(position) > since) {
        if (count == written.length) {
          written = Arrays.copyOf(written, 2 * count);
        }
        written[count++] = position;
      }
    }
    Arrays.sort(written, 0, count);
    final boolean everyHeld =
        0 != storage.changeTickPages().length && 0 == positionCount && null == interest;
    for (int i = 0; i < count; i++) {
      final int position = written[i];
      if (i > 0 && written[i - 1] == position) {
        continue; // logged at several ticks
      }
      if (everyHeld) {
        append(position);
      } else {
        chooseHeld(packed, position, mark);
      }
    }
    if (everyHeld) {
      markAppended(tracker, mark);
    }
  }

  private void append(final int position) {
    if (positionCount == positions.length) {
      positions = Arrays.copyOf(positions, 2 * positionCount);
    }
    positions[positionCount++] = position;
  }

  private void chooseHeld(final long[] packed, final int position, final int mark) {
    final long entity = packed[position];
    if (!Entity.isTombstone(entity) && held(entity)) {
      choose(position, mark);
    }
  }

  private void choose(final int position, final int mark) {
    if (chosenAt[position] != mark) {
      chosenAt[position] = mark;
      if (positionCount == positions.length) {
        positions = Arrays.copyOf(positions, 2 * positionCount);
      }
      positions[positionCount++] = position;
    }
  }

  /** Chooses the elements of one storage that refer to an entity of the churn. */
  private final class RefChooser implements EntityRefVisitor {
    Storage<?> storage;
    int mark;

    @Override
    public void visit(final long owner, final String field, final long reference) {
      if (!Entity.isTombstone(owner) && held(owner) && churned(reference)) {
        choose(storage.indexOf(owner), mark);
      }
    }

    /**
     * Whether the replica's view of {@code reference} may have changed: it was gained or lost by
     * this delta, or, for an acknowledged one, its index changed hands since the baseline.
     */
    private boolean churned(final long reference) {
      if (null == acked) {
        return churn.containsKey(reference);
      }
      final int index = Entity.index(reference);
      return !Entity.isNull(reference)
          && index < acked.heldTick.length
          && acked.heldTick[index] > acked.since;
    }
  }

  /**
   * Appends the entities whose membership of one storage changed; connected to its after-insert and
   * after-remove signals.
   */
  private static final class Tracker implements ComponentListener {
    final Storage<?> storage;
    final String key;
    final List<SnapshotFormat.Column> columns;
    final boolean fields;
    final boolean refs;
    // The encoded column headers of its sections, once written (they never change).
    byte[] header;
    long[] log = new long[16];
    int size;
    // How many entries of the log the write under way read: dropped when it commits.
    int consumed;
    // Acknowledged writes only: the tick of the first committed write that sent the storage whole
    // (0: none yet), and the last tick at which a logged entity was found without the component.
    long sentTick;
    long removedTick;
    // The reader of the storage's write log (plain tracked storages with fields, from their first
    // write on), and the log's end when the write under way chose its values: read up to there.
    WriteLog.Reader writes;
    long writesEnd;
    // Whether the write under way opened the reader: a failed one closes it again (the log would
    // miss what was written between the last successful write and the opening).
    boolean writesOpened;

    Tracker(final Storage<?> storage) {
      this.storage = storage;
      this.key = SnapshotFormat.key(storage);
      this.columns = SnapshotFormat.columns(storage);
      this.fields = !columns.isEmpty();
      boolean anyRef = false;
      for (final SnapshotFormat.Column column : columns) {
        anyRef |= SnapshotFormat.ENTITY == column.code();
      }
      this.refs = anyRef;
    }

    /** Forgets what the failed write under way read. */
    void rollback() {
      consumed = 0;
      if (writesOpened) {
        writes.close();
        writes = null;
        writesOpened = false;
      }
    }

    /** Disconnects the listeners and closes the write log reader. */
    void detach() {
      storage.afterInsert().disconnect(this);
      storage.afterRemove().disconnect(this);
      if (null != writes) {
        writes.close();
        writes = null;
      }
    }

    /** Drops the entries a committed write read, keeping those appended since. */
    void consume() {
      writesOpened = false;
      if (null != writes) {
        writes.advance(writesEnd);
      }
      if (0 == consumed) {
        return;
      }
      if (consumed < size) {
        System.arraycopy(log, consumed, log, 0, size - consumed);
      }
      size -= consumed;
      consumed = 0;
    }

    @Override
    public void onEvent(final Registry registry, final long entity) {
      if (size == log.length) {
        log = Arrays.copyOf(log, 2 * size);
      }
      log[size++] = entity;
    }
  }

  /**
   * Tells the delta writers of {@code registry} that a {@link SnapshotLoader} replaced its world:
   * their next write is a whole one. A load fills the storages in bulk, without the after-insert
   * signal the logs listen to, and may give an entity back the identifier a replica holds (with
   * other components); a restore that keeps the entity storage's packed positions is invisible to
   * the pass over changed positions, so the loader says so. O(1): a context lookup and a count.
   *
   * @param registry the registry just loaded
   */
  static void restored(final Registry registry) {
    final Restores known = registry.context().find(Restores.class);
    if (null != known) {
      known.count++;
    }
  }

  /**
   * The number of whole loads into one registry since its first delta writer was made, kept in its
   * context (the key is not public: no user code can reach or erase it) and shared by its writers,
   * each of which remembers the count it last saw.
   */
  static final class Restores {
    long count;
  }

  /** Writes the chosen positions of each column it is handed. */
  private final class ColumnWriter implements ColumnVisitor {
    private final ByteArrayOutputStream codecBytes = new ByteArrayOutputStream();
    private final DataOutputStream codecData = new DataOutputStream(codecBytes);
    private int shift;
    private int mask;
    // Whether references to an entity the replica does not hold go as NULL (all but the
    // hierarchy's links, which the loader resolves by its own rule).
    private boolean nullUnheld;

    void start(final Storage<?> storage) {
      shift = storage.pageShift();
      mask = storage.pageSize() - 1;
      nullUnheld = Hierarchy.TYPE != storage.type();
    }

    @Override
    public void booleans(final String name, final boolean[][] pages) {
      for (int i = 0; i < positionCount; i++) {
        out.putByte(pages[positions[i] >>> shift][positions[i] & mask] ? 1 : 0);
      }
    }

    @Override
    public void bytes(final String name, final byte[][] pages) {
      for (int i = 0; i < positionCount; i++) {
        out.putByte(pages[positions[i] >>> shift][positions[i] & mask]);
      }
    }

    @Override
    public void shorts(final String name, final short[][] pages) {
      for (int i = 0; i < positionCount; i++) {
        out.putShort(pages[positions[i] >>> shift][positions[i] & mask]);
      }
    }

    @Override
    public void chars(final String name, final char[][] pages) {
      for (int i = 0; i < positionCount; i++) {
        out.putChar(pages[positions[i] >>> shift][positions[i] & mask]);
      }
    }

    @Override
    public void ints(final String name, final int[][] pages) {
      for (int i = 0; i < positionCount; i++) {
        out.putInt(pages[positions[i] >>> shift][positions[i] & mask]);
      }
    }

    @Override
    public void longs(final String name, final long[][] pages, final boolean entityRef) {
      if (entityRef && nullUnheld) {
        for (int i = 0; i < positionCount; i++) {
          final long reference = pages[positions[i] >>> shift][positions[i] & mask];
          out.putLong(!Entity.isNull(reference) && held(reference) ? reference : Entity.NULL);
        }
        return;
      }
      for (int i = 0; i < positionCount; i++) {
        out.putLong(pages[positions[i] >>> shift][positions[i] & mask]);
      }
    }

    @Override
    public void floats(final String name, final float[][] pages) {
      for (int i = 0; i < positionCount; i++) {
        out.putInt(Float.floatToRawIntBits(pages[positions[i] >>> shift][positions[i] & mask]));
      }
    }

    @Override
    public void doubles(final String name, final double[][] pages) {
      for (int i = 0; i < positionCount; i++) {
        out.putLong(Double.doubleToRawLongBits(pages[positions[i] >>> shift][positions[i] & mask]));
      }
    }

    @Override
    public void objects(final String name, final Class<?> type, final Object[][] pages) {
      final byte code = SnapshotFormat.objectCode(type);
      @SuppressWarnings("unchecked") // registered for this very class by codec(Class<T>, ...)
      final ValueCodec<Object> codec = (ValueCodec<Object>) codecs.get(type);
      for (int i = 0; i < positionCount; i++) {
        final Object value = pages[positions[i] >>> shift][positions[i] & mask];
        if (SnapshotFormat.STRING == code) {
          out.putChars((String) value);
        } else if (SnapshotFormat.ENUM == code) {
          out.putInt(null == value ? -1 : ordinal((Enum<?>) value));
        } else if (null == value) {
          out.putInt(-1);
        } else {
          codecBytes.reset();
          try {
            codec.write(value, codecData);
          } catch (final IOException e) {
            throw new java.io.UncheckedIOException(e);
          }
          out.putInt(codecBytes.size());
          out.putBytes(codecBytes.toByteArray(), 0, codecBytes.size());
        }
      }
    }
  }

  // EnumOrdinal: an index into the constant names written in the column's header.
  @SuppressWarnings("EnumOrdinal")
  private static int ordinal(final Enum<?> value) {
    return value.ordinal();
  }
}

package dev.phalanx.ecs.snapshot;

import dev.phalanx.ecs.Reactive;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import dev.phalanx.ecs.internal.Failures;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.Arrays;
import java.util.Collections;
import java.util.Map;

/**
 * Loads a whole snapshot ({@link SnapshotWriter} without {@link SnapshotWriter#entities}) into a
 * registry with no live entity (a new one, or one cleared: its released identifiers are replaced by
 * the snapshot's, as in EnTT), giving it the saved identifiers and versions, its recycling order,
 * every saved storage with its elements at their saved positions (holes of in-place storages
 * included), and rebuilt groups.
 *
 * <pre>{@code
 * Map<String, byte[]> extras =
 *     new SnapshotLoader(registry).types(Position_Traits.TYPE, Velocity_Traits.TYPE).load(in);
 * }</pre>
 *
 * <h2>Untrusted input</h2>
 *
 * <p>A stream may name only the types given to the loader ({@link #types}, {@link #alias}), the
 * types the target registry has a storage of, and the hierarchy's. No class is loaded, initialised
 * or registered, and no void name interned, because a stream names it: a snapshot from a network
 * peer cannot run a static initialiser or fill the JVM's tables. Arrays are sized by what the
 * stream can still hold, so a small stream cannot make the loader allocate much more than it holds;
 * a refused stream leaves nothing behind.
 *
 * <h2>Never half-loaded</h2>
 *
 * <p>The whole stream is read and checked first, into a staging area ({@code StagedSnapshot}): the
 * magic, the format version, every count and identifier, every storage's elements (live entities of
 * the snapshot, no repeats, a well-formed free list of holes), every field against the type's
 * current fields, and the rules across sections (no two storage sections that resolve to one type
 * through an alias). Only then is the registry changed, by steps that cannot fail. A bad stream
 * throws {@link SnapshotFormatException} (what, where: byte offset, storage, field) and leaves the
 * registry exactly as it was.
 *
 * <h2>Schema changes</h2>
 *
 * <p>Fields are matched by name. A field the snapshot lacks gets its type's default ({@code 0},
 * {@code false}, {@code null}); a field the class no longer has is skipped; a field whose type
 * changed ({@code int} to {@code float}, a plain {@code long} to an {@code @EntityRef long}, one
 * codec class to another) is refused. Enum values are matched by constant name: a constant that no
 * longer exists is refused where it is used. A storage saved with in-place deletion and loaded into
 * a swap-and-pop one loses its holes.
 *
 * <h2>Change ticks, signals and groups</h2>
 *
 * <p>A load is a write made now: every loaded element of a tracked storage is stamped with the
 * target's current change tick ({@link Registry#changeTick()}; the stream carries no tick), so a
 * system that has seen an earlier tick, such as the guide's {@code seen = 0}, sees the loaded world
 * as changed. The registry's own tick is left as it is.
 *
 * <p>Storages are filled in bulk; groups that exist in the target are rebuilt from them (an owning
 * group finds its members in front when the saved registry had the same groups, and moves nothing);
 * groups created later arrange themselves as usual. A loaded hierarchy storage gets its {@link
 * Hierarchy} (the context variable) at once. Then, with the whole world in place, enter is
 * published for every member of a group that has enter listeners, group by group: a system that
 * keeps something outside the registry per member (a renderer's scene, say) learns of the loaded
 * world as it would of entities created one by one. Listeners may throw or change the world: a
 * member gone meanwhile is skipped, every listener still runs, and the first exception is rethrown
 * once all have run, later ones suppressed; the loaded world stands. Without enter listeners this
 * costs nothing. The registry's {@link DeltaWriter}s are told of the load (a count they share in
 * its context): the next delta of each carries the whole loaded world of its interest set.
 *
 * <p>Construct is not published, nor is {@link Registry#onCreate()}, unlike EnTT's loader (which
 * emplaces element by element): a whole load restores a saved state, and that state already holds
 * what construct listeners derived in the saved world (a {@link Reactive} collector's storage,
 * counters in components). Publishing construct would apply them a second time, so that re-saving
 * would no longer give the same bytes; it would also cost a call per loaded element (the particle
 * example's loader, whose reactive storage listens to a million {@code Lifetime}s, allocated 44%
 * more and took longer). A construct listener that keeps outside state rebuilds it from the loaded
 * storages, or listens to a group's enter instead.
 *
 * <h2>Costs</h2>
 *
 * <p>O(bytes): every field is read into a flat array, then copied into the storage's pages with one
 * {@code System.arraycopy} per page; no reflection and no allocation per element for primitive
 * fields.
 *
 * <h2>Failures and nested calls</h2>
 *
 * <p>The loader keeps no state from one load to the next. A codec that throws fails the reading,
 * before the registry changes: the load throws {@link SnapshotFormatException} (the codec's
 * exception as its cause) and the registry is as it was. Listeners run once the snapshot is in;
 * what they throw is rethrown after the load completed (see above). Either way the next load is
 * taken as if the failed one had not been tried. Nested calls are refused: while a {@link #load} or
 * {@link #orphans} runs, a call from one of its codecs or listeners to {@code load}, {@link
 * #orphans}, {@link #codec}, {@link #types} or {@link #alias} throws {@link IllegalStateException}
 * naming the call under way, before changing anything.
 *
 * <h2>Threading</h2>
 *
 * <p>Not thread-safe; configure it, then load, on the thread that owns the registry.
 */
public final class SnapshotLoader extends LoaderSettings<SnapshotLoader> {

  private final Registry registry;

  /**
   * Creates a loader into {@code registry}.
   *
   * @param registry the target; it must have no live entity when {@link #load} runs
   */
  public SnapshotLoader(final Registry registry) {
    super("SnapshotLoader");
    this.registry = registry;
  }

  @Override
  SnapshotLoader self() {
    return this;
  }

  /**
   * Loads a snapshot from {@code in} (read to the snapshot's end, not closed).
   *
   * @param in the stream
   * @return the snapshot's extra blocks by name (see {@link SnapshotWriter#extra})
   * @throws SnapshotFormatException if the stream is not a loadable snapshot; nothing changed
   * @throws IOException if the stream fails; nothing changed
   * @throws RuntimeException the first exception a listener threw, once the load completed
   * @throws IllegalStateException if the registry has live entities; nothing changed
   * @throws java.util.ConcurrentModificationException if a storage of the registry is locked or
   *     iterated; nothing changed
   */
  public Map<String, byte[]> load(final InputStream in) throws IOException {
    return load(StreamChannels.reading(in));
  }

  /**
   * Loads a snapshot from {@code snapshot}'s remaining bytes, read in place when the buffer is
   * backed by an array (a snapshot read into memory, {@code ByteBuffer.wrap(bytes)}): no copy into
   * a stream buffer first. On success the buffer's position moves past the snapshot; on failure it
   * does not move.
   *
   * @param snapshot the bytes
   * @return the snapshot's extra blocks by name
   * @throws SnapshotFormatException if the bytes are not a loadable snapshot; nothing changed
   * @throws IOException only as a {@link SnapshotFormatException}: reading memory cannot fail
   * @throws RuntimeException the first exception a listener threw, once the load completed
   * @throws IllegalStateException if the registry has live entities; nothing changed
   */
  public Map<String, byte[]> load(final ByteBuffer snapshot) throws IOException {
    final BinaryInput<IOException> in = BinaryInput.of(snapshot);
    final Map<String, byte[]> extras = load(in);
    in.finish(snapshot);
    return extras;
  }

  /**
   * Loads a snapshot from {@code channel} (not closed).
   *
   * @param channel the channel
   * @return the snapshot's extra blocks by name
   * @throws SnapshotFormatException if the stream is not a loadable snapshot; nothing changed
   * @throws IOException if the channel fails; nothing changed
   * @throws RuntimeException the first exception a listener threw, once the load completed
   * @throws IllegalStateException if the registry has live entities; nothing changed
   */
  public Map<String, byte[]> load(final ReadableByteChannel channel) throws IOException {
    return load(BinaryInput.of(channel));
  }

  private Map<String, byte[]> load(final BinaryInput<IOException> in) throws IOException {
    guard.enter("load(...)", "load a snapshot");
    try {
      return loadOnce(in);
    } finally {
      guard.exit();
    }
  }

  private Map<String, byte[]> loadOnce(final BinaryInput<IOException> in) throws IOException {
    checkTarget(null);
    final StagedSnapshot staged = StagedSnapshot.read(in, registry, codecs, typesByKey, true);
    if (!staged.full) {
      throw new SnapshotFormatException(
          -1,
          "this snapshot holds chosen entities, not a whole entity storage:"
              + " load it with a ContinuousLoader, which maps identifiers");
    }
    if (staged.entityCount > registry.entities().limit()) {
      throw new SnapshotFormatException(
          -1,
          "the snapshot has "
              + staged.entityCount
              + " identifiers, more than"
              + " the target registry's limit of "
              + registry.entities().limit());
    }
    HierarchySection.checkStaged(staged);
    final Runnable pairs = PairSection.plan(staged, registry);
    // Reading ran no user code, but a codec is user code: check again before changing anything.
    checkTarget(staged);
    commit(staged, pairs);
    return Collections.unmodifiableMap(PairSection.userExtras(staged.extras));
  }

  /**
   * Destroys every entity of the registry that has no component (EnTT's {@code orphans()}): after
   * loading a snapshot saved with {@link SnapshotWriter#types}, the entities that held none of the
   * saved types. Publishes what a destroy publishes; listener exceptions are collected and the
   * first is rethrown once every orphan is gone.
   *
   * @return this loader
   * @throws java.util.ConcurrentModificationException if a storage is locked or iterated; nothing
   *     is destroyed
   * @throws IllegalStateException if called from a codec or listener of this loader's load or
   *     orphans call under way; nothing is destroyed
   */
  public SnapshotLoader orphans() {
    guard.enter("orphans()", "destroy orphans");
    try {
      Failures.rethrow(destroyOrphans(registry, liveEntities(registry)));
    } finally {
      guard.exit();
    }
    return this;
  }

  /** {@return a copy of the registry's live entities} */
  static long[] liveEntities(final Registry registry) {
    return Arrays.copyOf(registry.entities().packed(), registry.alive());
  }

  /**
   * Destroys each entity of {@code candidates} that is still valid and has no component, after
   * checking that no storage is locked or iterated; returns the first listener exception.
   */
  static Throwable destroyOrphans(final Registry registry, final long[] candidates) {
    checkIdle(registry, "destroy orphans");
    Throwable failure = null;
    for (final long entity : candidates) {
      try {
        if (registry.valid(entity) && registry.orphan(entity)) {
          registry.destroy(entity);
        }
      } catch (final RuntimeException | Error thrown) {
        failure = Failures.add(failure, thrown);
      }
    }
    return failure;
  }

  /**
   * Refuses, with {@link java.util.ConcurrentModificationException} naming the first, a change
   * while any storage of {@code registry} is locked or iterated.
   */
  static void checkIdle(final Registry registry, final String operation) {
    for (int i = 0; i < registry.storageCount(); i++) {
      final Storage<?> storage = registry.storageAt(i);
      if (storage.isLocked() || storage.isIterated()) {
        throw new java.util.ConcurrentModificationException(
            "cannot " + operation + ": " + storage.describe() + " is locked or iterated");
      }
    }
  }

  /**
   * Checks that the registry can take a whole snapshot: no live entity (a new registry, or one
   * cleared: its released identifiers are replaced by the snapshot's), nothing locked or iterated.
   */
  private void checkTarget(final StagedSnapshot staged) {
    if (0 != registry.alive()) {
      throw new IllegalStateException(
          "cannot load a snapshot into a registry that has live entities ("
              + registry.alive()
              + "): load into a new or cleared registry, or use a ContinuousLoader");
    }
    if (null != staged) {
      checkIdle(registry, "load a snapshot");
    }
  }

  /**
   * Restores the staged image (checked by the staging; the registry checks the target), then gives
   * a loaded hierarchy its {@link Hierarchy} and tells the delta writers, even when an enter
   * listener threw.
   */
  private void commit(final StagedSnapshot staged, final Runnable pairs) {
    try {
      registry.restore(staged.image);
    } finally {
      if (staged.image.isRestored()) {
        if (staged.has(Hierarchy.TYPE)) {
          Hierarchy.of(registry);
        }
        pairs.run();
        DeltaWriter.restored(registry);
      }
    }
  }
}

package dev.phalanx.ecs.snapshot;

import dev.phalanx.ecs.ColumnVisitor;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.SparseSet;
import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.bridge.CoreHooks;
import dev.phalanx.ecs.command.CommandBuffer;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import dev.phalanx.ecs.internal.Failures;
import dev.phalanx.ecs.internal.LongLongMap;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.ReadableByteChannel;
import java.util.Arrays;
import java.util.Collections;
import java.util.ConcurrentModificationException;
import java.util.Map;

/**
 * Loads a stream of snapshots of another world (a server's, an editor's) into a local registry that
 * has entities of its own, EnTT's continuous loader: it maps each remote identifier to a local one
 * and keeps the map across loads.
 *
 * <h2>What a load does</h2>
 *
 * <p>Each snapshot is taken as the remote world's current state for the entities and storages it
 * carries:
 *
 * <ol>
 *   <li>mapped remote entities that the snapshot no longer lists are destroyed locally, and
 *       unmapped once their local entity is gone;
 *   <li>listed remote entities without a mapping (or whose local entity was destroyed meanwhile)
 *       get a new local entity;
 *   <li>for each storage of the snapshot, mapped local entities whose remote entity lost the
 *       component lose it; the others get it (emplaced, stamped with the change tick, construct
 *       published), or, if the snapshot's values differ from theirs, have it rewritten (stamped,
 *       update published); a component whose values are all equal (primitives bit for bit,
 *       references by {@code equals}, entity references after mapping; a tag always) is left alone:
 *       no write, no stamp, no update, so a replica's listeners and change tracking see exactly
 *       what changed;
 *   <li>every {@code @EntityRef} field and hierarchy link is rewritten through the map as it is
 *       written: a reference to a mapped remote entity becomes the local one, any other becomes
 *       {@link Entity#NULL}.
 * </ol>
 *
 * <p>Local entities that were never mapped are left alone. Changes go through the registry's normal
 * mutation path, so groups stay right, listeners are told and tracked components are stamped with
 * the registry's current change tick.
 *
 * <h2>Checked, then applied in full</h2>
 *
 * <p>Schema rules, the rule on stream names (only types given to the loader, the local registry's
 * storages' and the hierarchy's; see {@link SnapshotLoader}) and the checks are {@link
 * SnapshotLoader}'s: the whole stream is read and checked before the registry is touched, and a bad
 * stream throws {@link SnapshotFormatException} with the registry and the map unchanged. Every
 * other refusal is known before the first change too: a load while any storage of the registry is
 * locked or iterated throws {@link ConcurrentModificationException}, during a {@link
 * Registry#clear()} or from a listener of this loader's own load {@link IllegalStateException}, and
 * nothing changed (no entity unmapped, so none lingers unmapped).
 *
 * <p>Once started, a load completes. Listeners may throw: each step still completes as the mutation
 * path promises, the load goes on, and the first exception is rethrown at its end, later ones
 * suppressed (as {@link CommandBuffer} does). Listeners may change the world: a step is taken
 * against the world as it is then (positions are looked up at each write); a local entity that a
 * listener destroyed is simply gone: its values in this snapshot are dropped, it is unmapped at the
 * end of the load, and the next snapshot that lists its remote entity creates it again (references
 * this load wrote to it dangle until then, as references to any destroyed entity do). A step a
 * listener's change makes impossible (it left a storage locked, say) is skipped and its exception
 * collected; {@code verify()} stays empty.
 *
 * <h2>Failures and nested calls</h2>
 *
 * <p>A codec that throws fails the reading, before anything changes: the load throws {@link
 * SnapshotFormatException} (the codec's exception as its cause), the registry and the map are as
 * they were, and the next load is taken as if this one had not been tried. A listener that throws
 * does not stop the load (see above): the map then holds what the load did. Nested calls are
 * refused: while a load (or {@link #orphans}) runs, a call from one of its codecs or listeners to
 * {@code load}, {@link #orphans}, {@link #codec}, {@link #types} or {@link #alias} throws {@link
 * IllegalStateException} naming the call under way, before changing anything. {@link #map}, {@link
 * #contains} and {@link #size} may be called: they show the map as the load has left it so far.
 *
 * <h2>Costs</h2>
 *
 * <p>O(remote entities + elements) per load, with map look-ups (open addressing, no boxing); no
 * allocation per element for primitive fields once the map has grown; one comparison per field of
 * an element the local entity already has.
 *
 * <h2>Threading</h2>
 *
 * <p>Not thread-safe; configure it, then load, on the thread that owns the registry.
 */
public final class ContinuousLoader extends LoaderSettings<ContinuousLoader> {

  private final Registry registry;
  private final LongLongMap remoteToLocal = new LongLongMap(16);

  /**
   * Creates a loader into {@code registry}, with an empty map.
   *
   * @param registry the local registry
   */
  public ContinuousLoader(final Registry registry) {
    super("ContinuousLoader");
    this.registry = registry;
  }

  @Override
  ContinuousLoader self() {
    return this;
  }

  /**
   * Returns the local entity of {@code remote}, or {@link Entity#NULL} if it is not mapped.
   *
   * @param remote a remote entity handle
   * @return the local handle
   */
  public long map(final long remote) {
    return Entity.isNull(remote) ? Entity.NULL : remoteToLocal.get(remote, Entity.NULL);
  }

  /**
   * Returns whether {@code remote} is mapped.
   *
   * @param remote a remote entity handle
   * @return whether a local entity stands for it
   */
  public boolean contains(final long remote) {
    return !Entity.isNull(remote) && remoteToLocal.containsKey(remote);
  }

  /** {@return the number of mapped remote entities} */
  public int size() {
    return remoteToLocal.size();
  }

  /**
   * Loads one snapshot from {@code in} (read to the snapshot's end, not closed).
   *
   * @param in the stream
   * @return the snapshot's extra blocks by name
   * @throws SnapshotFormatException if the stream is not a loadable snapshot; nothing changed
   * @throws IOException if the stream fails; nothing changed
   * @throws RuntimeException the first exception a listener threw, once the load completed
   * @throws ConcurrentModificationException if a storage of the registry is locked or iterated;
   *     nothing changed
   * @throws IllegalStateException if the registry is being cleared, or this loader is loading
   *     (called from a listener of the load); nothing changed
   */
  public Map<String, byte[]> load(final InputStream in) throws IOException {
    return load(StreamChannels.reading(in));
  }

  /**
   * Loads one snapshot from {@code snapshot}'s remaining bytes, read in place when the buffer is
   * backed by an array (a snapshot read into memory, {@code ByteBuffer.wrap(bytes)}): no copy into
   * a stream buffer first. On success the buffer's position moves past the snapshot; on failure it
   * does not move.
   *
   * @param snapshot the bytes
   * @return the snapshot's extra blocks by name
   * @throws SnapshotFormatException if the bytes are not a loadable snapshot; nothing changed
   * @throws IOException only as a {@link SnapshotFormatException}: reading memory cannot fail
   * @throws RuntimeException the first exception a listener threw, once the load completed
   */
  public Map<String, byte[]> load(final ByteBuffer snapshot) throws IOException {
    final SnapshotInput in = SnapshotInput.of(snapshot);
    final Map<String, byte[]> extras = load(in);
    in.finish(snapshot);
    return extras;
  }

  /**
   * Loads one snapshot from {@code channel} (not closed).
   *
   * @param channel the channel
   * @return the snapshot's extra blocks by name
   * @throws SnapshotFormatException if the stream is not a loadable snapshot; nothing changed
   * @throws IOException if the channel fails; nothing changed
   * @throws RuntimeException the first exception a listener threw, once the load completed
   */
  public Map<String, byte[]> load(final ReadableByteChannel channel) throws IOException {
    return load(new SnapshotInput(channel));
  }

  /**
   * Destroys the mapped local entities that have no component (EnTT's {@code orphans()}), and
   * unmaps them: after a load of a snapshot saved with {@link SnapshotWriter#types}, the entities
   * that held none of the saved types. Local entities that were never mapped are left alone; a
   * remote entity whose local one went is given a new one by the next snapshot that lists it.
   * Listener exceptions are collected; the first is rethrown once every orphan is gone.
   *
   * @return this loader
   * @throws ConcurrentModificationException if a storage is locked or iterated; nothing changed
   * @throws IllegalStateException if called during a load (from a listener); nothing changed
   */
  public ContinuousLoader orphans() {
    guard.enter("orphans()", "destroy orphans");
    try {
      destroyOrphans();
    } finally {
      guard.exit();
    }
    return this;
  }

  private void destroyOrphans() {
    final long[] locals = new long[remoteToLocal.size()];
    int count = 0;
    for (int slot = 0; slot < remoteToLocal.capacity(); slot++) {
      if (!Entity.isNull(remoteToLocal.keyAt(slot))) {
        locals[count++] = remoteToLocal.valueAt(slot);
      }
    }
    final Throwable failure = SnapshotLoader.destroyOrphans(registry, locals);
    unmapDestroyed();
    Failures.rethrow(failure);
  }

  private Map<String, byte[]> load(final SnapshotInput in) throws IOException {
    // Refuses a nested load from the first byte read: codecs run during the reading.
    guard.enter("load(...)", "load a snapshot");
    try {
      return loadOnce(in);
    } finally {
      guard.exit();
    }
  }

  private Map<String, byte[]> loadOnce(final SnapshotInput in) throws IOException {
    final StagedSnapshot staged = StagedSnapshot.read(in, registry, codecs, typesByKey, false);
    HierarchySection.checkStaged(staged);
    // Every refusal is known before the first change.
    SnapshotLoader.checkIdle(registry, "load a snapshot");
    if (registry.isClearing()) {
      throw new IllegalStateException("cannot load a snapshot while the registry is being cleared");
    }
    final Throwable failure = commit(staged);
    Failures.rethrow(failure);
    return Collections.unmodifiableMap(staged.extras);
  }

  /**
   * Applies a checked snapshot in full: every step goes through the registry's mutation path, and
   * an exception thrown by a step (a listener's, as the step completes; or a step refused because a
   * listener changed the world) is collected, so the rest of the load still happens. Returns the
   * first exception, later ones suppressed.
   */
  private Throwable commit(final StagedSnapshot staged) {
    final int listed = staged.full ? staged.alive : staged.entityCount;
    final LongLongMap remoteLive = new LongLongMap(listed);
    for (int i = 0; i < listed; i++) {
      remoteLive.put(staged.entities[i], i);
    }
    Throwable failure = destroyGone(remoteLive);
    if (staged.has(Hierarchy.TYPE)) {
      Hierarchy.of(registry);
    }
    failure = createListed(staged, listed, failure);
    final LongLongMap localToRemote = new LongLongMap(remoteToLocal.size());
    for (int slot = 0; slot < remoteToLocal.capacity(); slot++) {
      if (!Entity.isNull(remoteToLocal.keyAt(slot))) {
        localToRemote.put(remoteToLocal.valueAt(slot), remoteToLocal.keyAt(slot));
      }
    }
    final Writer writer = new Writer();
    for (final StagedSnapshot.StagedStorage source : staged.storages) {
      final Storage<?> storage = registry.storage(source.type);
      failure = removeLost(storage, source, localToRemote, failure);
      failure = writeElements(storage, source, writer, failure);
    }
    unmapDestroyed();
    // The links arrived as written; the lists and counts they imply are rebuilt from them.
    if (staged.has(Hierarchy.TYPE)) {
      HierarchyHooks.afterLoad(registry);
    }
    return failure;
  }

  /**
   * Destroys the local entities of mapped remote entities the snapshot no longer lists, and unmaps
   * each once its local entity is gone (one a refused destroy left alive stays mapped, so that the
   * next load destroys it: no ghost).
   */
  private Throwable destroyGone(final LongLongMap remoteLive) {
    final long[] gone = new long[remoteToLocal.size()];
    int goneCount = 0;
    for (int slot = 0; slot < remoteToLocal.capacity(); slot++) {
      final long remote = remoteToLocal.keyAt(slot);
      if (!Entity.isNull(remote) && !remoteLive.containsKey(remote)) {
        gone[goneCount++] = remote;
      }
    }
    Throwable failure = null;
    for (int i = 0; i < goneCount; i++) {
      final long local = remoteToLocal.get(gone[i], Entity.NULL);
      try {
        if (registry.valid(local)) {
          registry.destroy(local);
        }
      } catch (final RuntimeException | Error thrown) {
        failure = Failures.add(failure, thrown);
      }
      if (!registry.valid(local)) {
        remoteToLocal.remove(gone[i]);
      }
    }
    return failure;
  }

  /** Gives every listed remote entity without a live local one a new local entity. */
  private Throwable createListed(final StagedSnapshot staged, final int listed, Throwable failure) {
    for (int i = 0; i < listed; i++) {
      final long remote = staged.entities[i];
      final long local = remoteToLocal.get(remote, Entity.NULL);
      if (Entity.isNull(local) || !registry.valid(local)) {
        final long created;
        try {
          created = CoreHooks.createUnannounced(registry);
        } catch (final RuntimeException | Error thrown) {
          // The registry's entity limit: this remote entity stays without a local one.
          remoteToLocal.remove(remote);
          failure = Failures.add(failure, thrown);
          continue;
        }
        // Mapped before the create listeners run: one that throws leaves no entity unmapped.
        remoteToLocal.put(remote, created);
        failure = CoreHooks.publish(registry.onCreate(), registry, created, failure);
      }
    }
    return failure;
  }

  /** Unmaps every remote entity whose local entity is gone (a listener destroyed it). */
  private void unmapDestroyed() {
    long[] dead = null;
    int count = 0;
    for (int slot = 0; slot < remoteToLocal.capacity(); slot++) {
      final long remote = remoteToLocal.keyAt(slot);
      if (!Entity.isNull(remote) && !registry.valid(remoteToLocal.valueAt(slot))) {
        if (null == dead) {
          dead = new long[16];
        } else if (count == dead.length) {
          dead = Arrays.copyOf(dead, 2 * count);
        }
        dead[count++] = remote;
      }
    }
    for (int i = 0; i < count; i++) {
      remoteToLocal.remove(dead[i]);
    }
  }

  /**
   * Writes the snapshot's elements of one storage: a mapped local entity without the component gets
   * it (emplaced, stamped, construct published); one that has it gets the new values only if they
   * differ from its own (written, stamped, update published), else nothing happens. A local entity
   * gone meanwhile (a listener destroyed it) is skipped. Positions are looked up at each write, so
   * listeners may change the storage between writes.
   */
  private Throwable writeElements(
      final Storage<?> storage,
      final StagedSnapshot.StagedStorage source,
      final Writer writer,
      Throwable failure) {
    writer.start(source, storage, remoteToLocal);
    for (int p = 0; p < source.size; p++) {
      final long remote = source.packed[p];
      if (Entity.isTombstone(remote)) {
        continue;
      }
      final long local = remoteToLocal.get(remote, Entity.NULL);
      if (Entity.isNull(local) || !registry.valid(local)) {
        continue;
      }
      try {
        final int position = storage.indexOf(local);
        if (SparseSet.ABSENT != position) {
          if (writer.differs(p, position)) {
            writer.write(p, position);
            CoreHooks.markWritten(storage, position);
            CoreHooks.notifyUpdate(storage, local);
          }
        } else {
          final int prepared = CoreHooks.prepareInsert(storage, local);
          writer.write(p, prepared);
          CoreHooks.markWritten(storage, prepared);
          CoreHooks.commitInsert(storage, local, prepared);
        }
      } catch (final RuntimeException | Error thrown) {
        failure = Failures.add(failure, thrown);
      }
    }
    return failure;
  }

  /** Removes the component from mapped local entities whose remote entity no longer has it. */
  private Throwable removeLost(
      final Storage<?> storage,
      final StagedSnapshot.StagedStorage source,
      final LongLongMap localToRemote,
      Throwable failure) {
    final LongLongMap has = new LongLongMap(source.size);
    for (int p = 0; p < source.size; p++) {
      final long local =
          Entity.isTombstone(source.packed[p])
              ? Entity.NULL
              : remoteToLocal.get(source.packed[p], Entity.NULL);
      // Unmapped (the registry's entity limit refused its creation): nothing to keep.
      if (!Entity.isNull(local)) {
        has.put(local, p);
      }
    }
    long[] lost = new long[16];
    int count = 0;
    final long[] packed = storage.packed();
    for (int p = 0; p < storage.size(); p++) {
      final long local = packed[p];
      if (!Entity.isTombstone(local)
          && localToRemote.containsKey(local)
          && !has.containsKey(local)) {
        if (count == lost.length) {
          lost = Arrays.copyOf(lost, 2 * count);
        }
        lost[count++] = local;
      }
    }
    for (int i = 0; i < count; i++) {
      try {
        storage.remove(lost[i]);
      } catch (final RuntimeException | Error thrown) {
        failure = Failures.add(failure, thrown);
      }
    }
    return failure;
  }

  /**
   * Compares or writes one staged element at a storage position, remapping entity references. The
   * staged columns are bound once per storage, in {@code eachColumn} order.
   */
  private static final class Writer implements ColumnVisitor {
    private final Binder binder = new Binder();
    private Object[] columns = new Object[0];
    private LongLongMap map;
    private Storage<?> storage;
    private int shift;
    private int mask;
    // The element being handled: its staged position, its page and offset in the storage.
    private int from;
    private int page;
    private int offset;
    // The next column's index in columns, as eachColumn visits them.
    private int column;
    // Comparing (no write) or writing; what comparing found.
    private boolean comparing;
    private boolean changed;

    void start(
        final StagedSnapshot.StagedStorage staged,
        final Storage<?> target,
        final LongLongMap remoteToLocal) {
      storage = target;
      map = remoteToLocal;
      shift = target.pageShift();
      mask = target.pageSize() - 1;
      columns = binder.bind(staged, target);
    }

    /** {@return whether the staged element differs from the one at {@code position}} */
    boolean differs(final int stagedPosition, final int position) {
      visit(stagedPosition, position, true);
      return changed;
    }

    void write(final int stagedPosition, final int position) {
      visit(stagedPosition, position, false);
    }

    private void visit(final int stagedPosition, final int position, final boolean compare) {
      from = stagedPosition;
      page = position >>> shift;
      offset = position & mask;
      column = 0;
      comparing = compare;
      changed = false;
      storage.columns(this);
    }

    /** {@return the next column's staged values, or null if the snapshot lacks the field} */
    private Object next() {
      return columns[column++];
    }

    private long reference(final long[] data) {
      return null == data || Entity.isNull(data[from])
          ? Entity.NULL
          : map.get(data[from], Entity.NULL);
    }

    @Override
    public void booleans(final String name, final boolean[][] pages) {
      final boolean[] data = (boolean[]) next();
      final boolean value = null != data && data[from];
      if (comparing) {
        changed |= pages[page][offset] != value;
      } else {
        pages[page][offset] = value;
      }
    }

    @Override
    public void bytes(final String name, final byte[][] pages) {
      final byte[] data = (byte[]) next();
      final byte value = null == data ? 0 : data[from];
      if (comparing) {
        changed |= pages[page][offset] != value;
      } else {
        pages[page][offset] = value;
      }
    }

    @Override
    public void shorts(final String name, final short[][] pages) {
      final short[] data = (short[]) next();
      final short value = null == data ? 0 : data[from];
      if (comparing) {
        changed |= pages[page][offset] != value;
      } else {
        pages[page][offset] = value;
      }
    }

    @Override
    public void chars(final String name, final char[][] pages) {
      final char[] data = (char[]) next();
      final char value = null == data ? 0 : data[from];
      if (comparing) {
        changed |= pages[page][offset] != value;
      } else {
        pages[page][offset] = value;
      }
    }

    @Override
    public void ints(final String name, final int[][] pages) {
      final int[] data = (int[]) next();
      final int value = null == data ? 0 : data[from];
      if (comparing) {
        changed |= pages[page][offset] != value;
      } else {
        pages[page][offset] = value;
      }
    }

    @Override
    public void longs(final String name, final long[][] pages, final boolean entityRef) {
      final long[] data = (long[]) next();
      final long value = entityRef ? reference(data) : null == data ? 0L : data[from];
      if (comparing) {
        changed |= pages[page][offset] != value;
      } else {
        pages[page][offset] = value;
      }
    }

    @Override
    public void floats(final String name, final float[][] pages) {
      final float[] data = (float[]) next();
      final float value = null == data ? 0f : data[from];
      if (comparing) {
        // Bit for bit, as saved: NaN equals itself, -0 differs from 0.
        changed |= Float.floatToRawIntBits(pages[page][offset]) != Float.floatToRawIntBits(value);
      } else {
        pages[page][offset] = value;
      }
    }

    @Override
    public void doubles(final String name, final double[][] pages) {
      final double[] data = (double[]) next();
      final double value = null == data ? 0d : data[from];
      if (comparing) {
        changed |=
            Double.doubleToRawLongBits(pages[page][offset]) != Double.doubleToRawLongBits(value);
      } else {
        pages[page][offset] = value;
      }
    }

    @Override
    public void objects(final String name, final Class<?> type, final Object[][] pages) {
      final Object[] data = (Object[]) next();
      final Object value = null == data ? null : data[from];
      if (comparing) {
        changed |= !java.util.Objects.equals(pages[page][offset], value);
      } else {
        pages[page][offset] = value;
      }
    }
  }

  /**
   * Lists a storage's staged columns in {@code eachColumn} order (null for a field the snapshot
   * lacks), once per storage and load, so that writing an element looks nothing up by name.
   */
  private static final class Binder implements ColumnVisitor {
    private StagedSnapshot.StagedStorage source;
    private Object[] bound = new Object[8];
    private int count;

    Object[] bind(final StagedSnapshot.StagedStorage staged, final Storage<?> storage) {
      source = staged;
      count = 0;
      storage.columns(this);
      return Arrays.copyOf(bound, count);
    }

    private void add(final String name) {
      final StagedSnapshot.StagedColumn column = source.columns.get(name);
      if (count == bound.length) {
        bound = Arrays.copyOf(bound, 2 * count);
      }
      bound[count++] = null == column ? null : column.flat(source.size);
    }

    @Override
    public void booleans(final String name, final boolean[][] pages) {
      add(name);
    }

    @Override
    public void bytes(final String name, final byte[][] pages) {
      add(name);
    }

    @Override
    public void shorts(final String name, final short[][] pages) {
      add(name);
    }

    @Override
    public void chars(final String name, final char[][] pages) {
      add(name);
    }

    @Override
    public void ints(final String name, final int[][] pages) {
      add(name);
    }

    @Override
    public void longs(final String name, final long[][] pages, final boolean entityRef) {
      add(name);
    }

    @Override
    public void floats(final String name, final float[][] pages) {
      add(name);
    }

    @Override
    public void doubles(final String name, final double[][] pages) {
      add(name);
    }

    @Override
    public void objects(final String name, final Class<?> type, final Object[][] pages) {
      add(name);
    }
  }
}

package dev.phalanx.ecs.snapshot;

import dev.phalanx.ecs.ChangeSet;
import dev.phalanx.ecs.ColumnVisitor;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.SparseSet;
import dev.phalanx.ecs.Storage;
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
 * <p>Local entities that were never mapped are left alone. A load is applied as one {@link
 * ChangeSet} (public API only): groups stay right, listeners are told and tracked components are
 * stamped with the registry's current change tick.
 *
 * <h2>Checked, then applied whole</h2>
 *
 * <p>Schema rules, the rule on stream names (only types given to the loader, the local registry's
 * storages' and the hierarchy's; see {@link SnapshotLoader}) and the checks are {@link
 * SnapshotLoader}'s: the whole stream is read and checked before the registry is touched, and a bad
 * stream throws {@link SnapshotFormatException} with the registry and the map unchanged. Then the
 * whole load (destructions, creations, insertions, writes, removals) is staged into the loader's
 * change set, with the values compared as they stand, and committed; every other refusal is the
 * loader's own or the change set's check, before the first change: a load while any storage of the
 * registry is locked or iterated throws {@link ConcurrentModificationException}, one during a
 * {@link Registry#clear()}, from a listener of this loader's own load, or needing more entities
 * than the registry's limit leaves (the creations are made before the destructions) {@link
 * IllegalStateException}. A refused load changes nothing: the registry, the map and the loader are
 * as before the call (only the {@link Hierarchy}, if the stream has one and the registry did not,
 * may have been created, with no node, as a change set leaves a storage it created).
 *
 * <p>Once the check passed, a load completes, in the change set's order: every entity is created
 * and every value written (no listener runs meanwhile), then creation, construction (with group
 * entries) and updates are announced, then the removals and destructions run. Listeners may throw:
 * every change is still made and every listener runs, and the first exception is rethrown at the
 * end, later ones suppressed (as {@link CommandBuffer} does); the map then names every entity the
 * load created. Listeners may change the world: a listener sees every value of the load already
 * written; an entity it destroys is not announced an update, nor removed or destroyed again; a
 * local entity that a listener destroyed is simply gone: it is unmapped at the end of the load, and
 * the next snapshot that lists its remote entity creates it again (references this load wrote to it
 * dangle until then, as references to any destroyed entity do). A listener that calls {@link #map}
 * during the load gets the entities created so far. While the load writes the hierarchy's nodes
 * (between {@link Hierarchy#beginRelink()} and {@link Hierarchy#endRelink()}), a listener sees the
 * links as written, the lists not rebuilt yet: it must not read or change the hierarchy then, but
 * record such work for after the load. {@code verify()} is empty after every load.
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
 * allocation per element for primitive fields once the map and the change set have grown; one
 * comparison per field of an element the local entity already has, and one write per field of an
 * element that changed.
 *
 * <h2>Threading</h2>
 *
 * <p>Not thread-safe; configure it, then load, on the thread that owns the registry.
 */
public final class ContinuousLoader extends LoaderSettings<ContinuousLoader> {

  private final Registry registry;
  private final LongLongMap remoteToLocal = new LongLongMap(16);
  // Staging's changes of the map, undone if the commit is refused.
  private final RemapLog remaps = new RemapLog(new LongMapping(remoteToLocal));
  // Each load is staged into this set, then committed.
  private final ChangeSet changes;
  // Undoes a refused commit's staging; one instance, so that a load allocates no callback.
  private final Runnable undo = this::rollback;
  private final Writer writer = new Writer(remoteToLocal);
  // Reused by staging: the remote entities gone and their local ones; those created.
  private long[] goneRemotes = new long[16];
  private long[] goneLocals = new long[16];
  private int goneCount;
  private long[] createdRemotes = new long[16];
  private int createdCount;

  /**
   * Creates a loader into {@code registry}, with an empty map.
   *
   * @param registry the local registry
   */
  public ContinuousLoader(final Registry registry) {
    super("ContinuousLoader");
    this.registry = registry;
    this.changes = new ChangeSet(registry);
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
    if (Entity.isNull(remote)) {
      return Entity.NULL;
    }
    final long local = remoteToLocal.get(remote, Entity.NULL);
    // During a load's commit (from a listener), a created entity is mapped to its staged handle.
    return ChangeSet.isStaged(local) ? changes.entityOf(local) : local;
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
   * @throws IllegalStateException if the registry is being cleared, has too few identifiers left
   *     for the entities the load creates, or is destroying an entity the load changes (a load from
   *     its destroy listener), or this loader is loading (called from a listener of the load);
   *     nothing changed
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
    final BinaryInput<IOException> in = BinaryInput.of(snapshot);
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
    return load(BinaryInput.of(channel));
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

  private Map<String, byte[]> load(final BinaryInput<IOException> in) throws IOException {
    // Refuses a nested load from the first byte read: codecs run during the reading.
    guard.enter("load(...)", "load a snapshot");
    try {
      return loadOnce(in);
    } finally {
      guard.exit();
    }
  }

  private Map<String, byte[]> loadOnce(final BinaryInput<IOException> in) throws IOException {
    final StagedSnapshot staged = StagedSnapshot.read(in, registry, codecs, typesByKey, false);
    HierarchySection.checkStaged(staged);
    PairSection.refuseIn(staged, "ContinuousLoader");
    // The loader's own refusals, before anything is staged; the change set checks the rest.
    SnapshotLoader.checkIdle(registry, "load a snapshot");
    if (registry.isClearing()) {
      throw new IllegalStateException("cannot load a snapshot while the registry is being cleared");
    }
    final Throwable failure = commit(staged);
    Failures.rethrow(failure);
    return Collections.unmodifiableMap(staged.extras);
  }

  /**
   * Applies a checked snapshot as one change set: stages every destruction, creation, insertion,
   * value write and removal (the map then names the staged handles of the creations, and no longer
   * names the remote entities that went), commits, then settles the map on the entities the commit
   * created. A refused commit changes nothing and the map is put back as it was; its refusal is
   * thrown. Otherwise returns what listeners threw (the first, later ones suppressed).
   */
  private Throwable commit(final StagedSnapshot staged) {
    final int listed = staged.full ? staged.alive : staged.entityCount;
    final LongLongMap remoteLive = new LongLongMap(listed);
    for (int i = 0; i < listed; i++) {
      remoteLive.put(staged.entities[i], i);
    }
    remaps.forget();
    goneCount = 0;
    createdCount = 0;
    // Created before anything is staged, as a change set creates a storage it needs: a refused
    // load may leave the hierarchy in place, with no node.
    final Hierarchy hierarchy = staged.has(Hierarchy.TYPE) ? Hierarchy.of(registry) : null;
    try {
      stageGone(remoteLive);
      stageCreations(staged, listed);
      final LongLongMap localToRemote = new LongLongMap(remoteToLocal.size());
      for (int slot = 0; slot < remoteToLocal.capacity(); slot++) {
        if (!Entity.isNull(remoteToLocal.keyAt(slot))) {
          localToRemote.put(remoteToLocal.valueAt(slot), remoteToLocal.keyAt(slot));
        }
      }
      for (final StagedSnapshot.StagedStorage source : staged.storages) {
        // The registry's storage, or null if it has none yet (the commit creates it).
        final Storage<?> storage = registry.findStorage(source.type);
        writer.stage(source);
        if (null != storage) {
          stageRemovals(storage, source, localToRemote);
        }
        stageElements(storage, source);
      }
    } catch (final RuntimeException | Error failed) {
      // Nothing was committed: the map and the set go back to what they were.
      rollback();
      writer.clear();
      throw failed;
    }
    final Throwable failure;
    try {
      failure = StagedCommit.commit(changes, hierarchy, undo);
    } finally {
      writer.clear();
    }
    settle();
    return failure;
  }

  /**
   * Stages the destruction of the local entities of mapped remote entities the snapshot no longer
   * lists, and unmaps them (references to them are written as {@link Entity#NULL}); {@link #settle}
   * maps again one that is still alive after the commit (a listener kept it), so that the next load
   * destroys it: no ghost.
   */
  private void stageGone(final LongLongMap remoteLive) {
    for (int slot = 0; slot < remoteToLocal.capacity(); slot++) {
      final long remote = remoteToLocal.keyAt(slot);
      if (!Entity.isNull(remote) && !remoteLive.containsKey(remote)) {
        if (goneCount == goneRemotes.length) {
          goneRemotes = Arrays.copyOf(goneRemotes, 2 * goneCount);
          goneLocals = Arrays.copyOf(goneLocals, 2 * goneCount);
        }
        goneRemotes[goneCount] = remote;
        goneLocals[goneCount++] = remoteToLocal.valueAt(slot);
      }
    }
    for (int i = 0; i < goneCount; i++) {
      final long local = goneLocals[i];
      remap(goneRemotes[i], Entity.NULL);
      if (registry.valid(local)) {
        changes.destroy(local);
      }
    }
  }

  /**
   * Stages a creation for every listed remote entity without a live local one, and maps it to the
   * staged handle until {@link #settle}.
   */
  private void stageCreations(final StagedSnapshot staged, final int listed) {
    for (int i = 0; i < listed; i++) {
      final long remote = staged.entities[i];
      final long local = remoteToLocal.get(remote, Entity.NULL);
      if (Entity.isNull(local) || !registry.valid(local)) {
        if (createdCount == createdRemotes.length) {
          createdRemotes = Arrays.copyOf(createdRemotes, 2 * createdCount);
        }
        createdRemotes[createdCount++] = remote;
        remap(remote, changes.create());
      }
    }
  }

  /** Maps {@code remote} to {@code local} ({@link Entity#NULL}: unmaps it), logging the undo. */
  private void remap(final long remote, final long local) {
    remaps.remap(remote, local);
  }

  /** Puts the map back as it was before staging, and forgets what the set staged. */
  private void rollback() {
    remaps.undo();
    changes.clear();
  }

  /**
   * After a commit that was applied (whatever its listeners threw): maps each created remote entity
   * to the entity its staged handle became, maps a gone one again if its local entity is still
   * alive, then unmaps every remote entity whose local entity is gone (a listener destroyed it).
   */
  private void settle() {
    for (int i = 0; i < createdCount; i++) {
      final long remote = createdRemotes[i];
      remoteToLocal.put(remote, changes.entityOf(remoteToLocal.get(remote, Entity.NULL)));
    }
    for (int i = 0; i < goneCount; i++) {
      if (registry.valid(goneLocals[i])) {
        remoteToLocal.put(goneRemotes[i], goneLocals[i]);
      }
    }
    remaps.forget();
    unmapDestroyed();
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
   * Stages the snapshot's elements of one storage: a mapped local entity without the component gets
   * it (an insertion: stamped, construct published); one that has it gets the new values only if
   * they differ from its own, compared now (a write: stamped, update published), else nothing
   * happens. The writer copies the values at the commit's apply step.
   */
  private void stageElements(final Storage<?> storage, final StagedSnapshot.StagedStorage source) {
    final ComponentType<?, ?> type = source.type;
    for (int p = 0; p < source.size; p++) {
      final long remote = source.packed[p];
      if (Entity.isTombstone(remote)) {
        continue;
      }
      final long local = remoteToLocal.get(remote, Entity.NULL);
      if (Entity.isNull(local)) {
        continue; // unlisted: the snapshot has no such entity
      }
      if (!ChangeSet.isStaged(local) && !registry.valid(local)) {
        continue;
      }
      final int position =
          null == storage || ChangeSet.isStaged(local) ? SparseSet.ABSENT : storage.indexOf(local);
      if (SparseSet.ABSENT == position) {
        changes.emplace(local, type, writer, p);
      } else if (writer.differs(storage, p, position)) {
        changes.write(local, type, writer, p);
      }
    }
  }

  /** Stages the removal of the component from mapped local entities whose remote one lost it. */
  private void stageRemovals(
      final Storage<?> storage,
      final StagedSnapshot.StagedStorage source,
      final LongLongMap localToRemote) {
    final LongLongMap has = new LongLongMap(source.size);
    for (int p = 0; p < source.size; p++) {
      final long local =
          Entity.isTombstone(source.packed[p])
              ? Entity.NULL
              : remoteToLocal.get(source.packed[p], Entity.NULL);
      if (!Entity.isNull(local)) {
        has.put(local, p);
      }
    }
    final long[] packed = storage.packed();
    for (int p = 0; p < storage.size(); p++) {
      final long local = packed[p];
      if (!Entity.isTombstone(local)
          && localToRemote.containsKey(local)
          && !has.containsKey(local)) {
        changes.remove(local, source.type);
      }
    }
  }

  /**
   * Compares or writes one staged element at a storage position, remapping entity references: the
   * {@link ChangeSet.RowWriter} of every insertion and write a load stages, one per loader. The
   * staged columns of each storage are bound once per load, in {@code eachColumn} order, and kept
   * by component type id until the load ends.
   */
  private static final class Writer implements ColumnVisitor, ChangeSet.RowWriter {
    private final Binder binder = new Binder();
    private final LongLongMap map;
    // Per component type id, the load's staged storage of that type, and its columns once bound.
    private StagedSnapshot.StagedStorage[] staged = new StagedSnapshot.StagedStorage[16];
    private Object[][] bound = new Object[16][];
    // The storage the element being handled is in, its columns and page layout.
    private Storage<?> storage;
    private Object[] columns;
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

    Writer(final LongLongMap remoteToLocal) {
      this.map = remoteToLocal;
    }

    /** Takes {@code source}'s columns for the writes of its type (bound at the first). */
    void stage(final StagedSnapshot.StagedStorage source) {
      final int id = source.type.id();
      if (id >= staged.length) {
        final int length = Math.max(id + 1, 2 * staged.length);
        staged = Arrays.copyOf(staged, length);
        bound = Arrays.copyOf(bound, length);
      }
      staged[id] = source;
      bound[id] = null;
      storage = null;
    }

    /** Forgets the load's columns. */
    void clear() {
      Arrays.fill(staged, null);
      Arrays.fill(bound, null);
      storage = null;
      columns = null;
    }

    /** {@return whether the staged element differs from the one at {@code position}} */
    boolean differs(final Storage<?> target, final int stagedPosition, final int position) {
      visit(target, stagedPosition, position, true);
      return changed;
    }

    @Override
    public void write(final Storage<?> target, final int position, final int row) {
      visit(target, row, position, false);
    }

    private void visit(
        final Storage<?> target,
        final int stagedPosition,
        final int position,
        final boolean compare) {
      if (target != storage) {
        final int id = target.type().id();
        if (null == bound[id]) {
          bound[id] = binder.bind(staged[id], target);
        }
        storage = target;
        columns = bound[id];
        shift = target.pageShift();
        mask = target.pageSize() - 1;
      }
      from = stagedPosition;
      page = position >>> shift;
      offset = position & mask;
      column = 0;
      comparing = compare;
      changed = false;
      target.columns(this);
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

  /** The loader's map as the remap log sees it. */
  private record LongMapping(LongLongMap map) implements RemapLog.Mapping {
    @Override
    public long get(final long remote, final long missing) {
      return map.get(remote, missing);
    }

    @Override
    public void put(final long remote, final long local) {
      map.put(remote, local);
    }

    @Override
    public void remove(final long remote) {
      map.remove(remote);
    }
  }
}

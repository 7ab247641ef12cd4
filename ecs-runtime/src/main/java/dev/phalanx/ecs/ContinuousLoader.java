package dev.phalanx.ecs;

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
 *   <li>mapped remote entities that the snapshot no longer lists are destroyed locally and
 *       unmapped;
 *   <li>listed remote entities without a mapping (or whose local entity was destroyed meanwhile)
 *       get a new local entity;
 *   <li>for each storage of the snapshot, mapped local entities whose remote entity lost the
 *       component lose it; the others get it (emplaced, publishing construct) or have it replaced
 *       (publishing update) with the snapshot's values;
 *   <li>every {@code @EntityRef} field and hierarchy link is rewritten through the map as it is
 *       written: a reference to a mapped remote entity becomes the local one, any other becomes
 *       {@link Entity#NULL}.
 * </ol>
 *
 * <p>Local entities that were never mapped are left alone. Changes go through the registry's normal
 * mutation path, so groups stay right and listeners are told. Schema rules and checks are {@link
 * SnapshotLoader}'s: the whole stream is read and checked before the registry is touched, and a bad
 * stream throws {@link SnapshotFormatException} with the registry and the map unchanged. Storages
 * that the load will change must not be locked or iterated ({@link
 * ConcurrentModificationException}, nothing changed).
 *
 * <h2>Costs</h2>
 *
 * <p>O(remote entities + elements) per load, with map look-ups (open addressing, no boxing); no
 * allocation per element for primitive fields once the map has grown.
 */
public final class ContinuousLoader {

  private final Registry registry;
  private final LoaderSettings settings = new LoaderSettings();
  private final LongLongMap remoteToLocal = new LongLongMap(16);

  /**
   * Creates a loader into {@code registry}, with an empty map.
   *
   * @param registry the local registry
   */
  public ContinuousLoader(final Registry registry) {
    this.registry = registry;
  }

  /**
   * Registers the codec of reference type {@code type}.
   *
   * @param type the class of the values
   * @param codec reads them
   * @param <T> the value type
   * @return this loader
   */
  public <T> ContinuousLoader codec(final Class<T> type, final ValueCodec<T> codec) {
    settings.codec(type, codec);
    return this;
  }

  /**
   * Adds types the snapshots may name (see {@link SnapshotLoader#types}).
   *
   * @param extraTypes the types
   * @return this loader
   */
  public ContinuousLoader types(final ComponentType<?, ?>... extraTypes) {
    settings.types(extraTypes);
    return this;
  }

  /**
   * Loads the storage saved for class {@code savedClassName} (binary name) into {@code type}: for
   * renamed or moved classes, and to load a saved type into a newer version of it. Fields are then
   * matched by name as usual.
   *
   * @param savedClassName the binary name of the class the snapshot names
   * @param type the type to load it into
   * @return this loader
   */
  public ContinuousLoader alias(final String savedClassName, final ComponentType<?, ?> type) {
    settings.alias(savedClassName, type);
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
   */
  public Map<String, byte[]> load(final ReadableByteChannel channel) throws IOException {
    return load(new SnapshotInput(channel));
  }

  private Map<String, byte[]> load(final SnapshotInput in) throws IOException {
    final StagedSnapshot staged =
        StagedSnapshot.read(in, registry, settings.codecs, settings.types, false);
    Hierarchy.checkStaged(staged);
    for (final StagedSnapshot.StagedStorage source : staged.storages) {
      final Storage<?> storage = registry.findStorage(source.type);
      if (null != storage && (storage.isLocked() || storage.isIterated())) {
        throw new ConcurrentModificationException(
            "cannot load a snapshot: " + storage.describe() + " is locked or iterated");
      }
    }
    commit(staged);
    return Collections.unmodifiableMap(staged.extras);
  }

  private void commit(final StagedSnapshot staged) {
    final int listed = staged.full ? staged.alive : staged.entityCount;
    final LongLongMap remoteLive = new LongLongMap(listed);
    for (int i = 0; i < listed; i++) {
      remoteLive.put(staged.entities[i], i);
    }
    // 1. Destroy the local entities of remote entities that are gone.
    final long[] gone = new long[remoteToLocal.size()];
    int goneCount = 0;
    for (int slot = 0; slot < remoteToLocal.capacity(); slot++) {
      final long remote = remoteToLocal.keyAt(slot);
      if (!Entity.isNull(remote) && !remoteLive.containsKey(remote)) {
        gone[goneCount++] = remote;
      }
    }
    for (int i = 0; i < goneCount; i++) {
      final long local = remoteToLocal.get(gone[i], Entity.NULL);
      remoteToLocal.remove(gone[i]);
      if (registry.valid(local)) {
        registry.destroy(local);
      }
    }
    // 2. Create local entities for new remote ones.
    if (staged.has(Hierarchy.TYPE)) {
      Hierarchy.of(registry);
    }
    for (int i = 0; i < listed; i++) {
      final long remote = staged.entities[i];
      final long local = remoteToLocal.get(remote, Entity.NULL);
      if (Entity.isNull(local) || !registry.valid(local)) {
        remoteToLocal.put(remote, registry.create());
      }
    }
    // 3. Components.
    final LongLongMap localToRemote = new LongLongMap(remoteToLocal.size());
    for (int slot = 0; slot < remoteToLocal.capacity(); slot++) {
      if (!Entity.isNull(remoteToLocal.keyAt(slot))) {
        localToRemote.put(remoteToLocal.valueAt(slot), remoteToLocal.keyAt(slot));
      }
    }
    final Writer writer = new Writer();
    for (final StagedSnapshot.StagedStorage source : staged.storages) {
      final Storage<?> storage = registry.storage(source.type);
      final LongLongMap has = new LongLongMap(source.size);
      for (int p = 0; p < source.size; p++) {
        if (!Entity.isTombstone(source.packed[p])) {
          has.put(remoteToLocal.get(source.packed[p], Entity.NULL), p);
        }
      }
      removeLost(storage, has, localToRemote);
      writer.start(source, storage, remoteToLocal);
      for (int p = 0; p < source.size; p++) {
        final long remote = source.packed[p];
        if (Entity.isTombstone(remote)) {
          continue;
        }
        final long local = remoteToLocal.get(remote, Entity.NULL);
        final int position = storage.indexOf(local);
        if (SparseSet.ABSENT != position) {
          writer.write(p, position);
          storage.notifyUpdate(local);
        } else {
          final int prepared = storage.prepareInsert(local);
          writer.write(p, prepared);
          storage.commitInsert(local, prepared);
        }
      }
    }
    Hierarchy.afterContinuousLoad(registry, staged);
  }

  /** Removes the component from mapped local entities whose remote entity no longer has it. */
  private static void removeLost(
      final Storage<?> storage, final LongLongMap has, final LongLongMap localToRemote) {
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
      storage.remove(lost[i]);
    }
  }

  /** Writes one staged element into a storage position, remapping entity references. */
  private static final class Writer implements ColumnVisitor {
    private StagedSnapshot.StagedStorage source;
    private LongLongMap map;
    private int from;
    private int page;
    private int offset;
    private int shift;
    private int mask;
    private Storage<?> storage;

    void start(
        final StagedSnapshot.StagedStorage staged,
        final Storage<?> target,
        final LongLongMap remoteToLocal) {
      source = staged;
      storage = target;
      map = remoteToLocal;
      shift = target.pageShift();
      mask = target.pageSize() - 1;
    }

    void write(final int stagedPosition, final int position) {
      from = stagedPosition;
      page = position >>> shift;
      offset = position & mask;
      storage.eachColumn(this);
    }

    private Object data(final String name) {
      final StagedSnapshot.StagedColumn column = source.columns.get(name);
      return null == column ? null : column.flat(source.size);
    }

    @Override
    public void booleans(final String name, final boolean[][] pages) {
      final boolean[] data = (boolean[]) data(name);
      pages[page][offset] = null != data && data[from];
    }

    @Override
    public void bytes(final String name, final byte[][] pages) {
      final byte[] data = (byte[]) data(name);
      pages[page][offset] = null == data ? 0 : data[from];
    }

    @Override
    public void shorts(final String name, final short[][] pages) {
      final short[] data = (short[]) data(name);
      pages[page][offset] = null == data ? 0 : data[from];
    }

    @Override
    public void chars(final String name, final char[][] pages) {
      final char[] data = (char[]) data(name);
      pages[page][offset] = null == data ? 0 : data[from];
    }

    @Override
    public void ints(final String name, final int[][] pages) {
      final int[] data = (int[]) data(name);
      pages[page][offset] = null == data ? 0 : data[from];
    }

    @Override
    public void longs(final String name, final long[][] pages, final boolean entityRef) {
      final long[] data = (long[]) data(name);
      if (!entityRef) {
        pages[page][offset] = null == data ? 0L : data[from];
      } else {
        pages[page][offset] =
            null == data || Entity.isNull(data[from])
                ? Entity.NULL
                : map.get(data[from], Entity.NULL);
      }
    }

    @Override
    public void floats(final String name, final float[][] pages) {
      final float[] data = (float[]) data(name);
      pages[page][offset] = null == data ? 0f : data[from];
    }

    @Override
    public void doubles(final String name, final double[][] pages) {
      final double[] data = (double[]) data(name);
      pages[page][offset] = null == data ? 0d : data[from];
    }

    @Override
    public void objects(final String name, final Class<?> type, final Object[][] pages) {
      final Object[] data = (Object[]) data(name);
      pages[page][offset] = null == data ? null : data[from];
    }
  }
}

package dev.phalanx.ecs.snapshot;

import dev.phalanx.ecs.ColumnVisitor;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.DeletionPolicy;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.EntityStorage;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.SparseSet;
import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.internal.LongLongMap;
import dev.phalanx.ecs.relation.RelationshipStorage;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.WritableByteChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Saves a registry, some of its component types or some of its entities, in the snapshot format
 * ({@code docs/snapshot-format.md}): the entity storage (every identifier with its version,
 * released ones too), then every chosen storage with its entities and its fields, column by column.
 *
 * <pre>{@code
 * new SnapshotWriter(registry).write(outputStream);
 * }</pre>
 *
 * <h2>What is written</h2>
 *
 * <ul>
 *   <li>By default the whole registry: every storage, in creation order (the hierarchy's too), and
 *       the entity storage verbatim, so that {@link SnapshotLoader} restores identical identifiers,
 *       versions and recycling order. Storages are written position by position, holes of in-place
 *       storages included (with their free list), so positions survive too.
 *   <li>{@link #types}: only those storages (each call adds to the earlier ones), and the links of
 *       the entities saved: every relationship kind's storage and the hierarchy's ({@link
 *       Storage#isRelationship()}), listed or not; the entity section stays whole.
 *   <li>{@link #entities}: only those entities (their components in every chosen storage, holes
 *       dropped); the entity section lists just them, so such a snapshot is for {@link
 *       ContinuousLoader}, which maps identifiers, not for {@link SnapshotLoader}. A relationship
 *       whose target is not saved is left out (its source arrives without it, as a child whose
 *       parent is not saved arrives as a root), so that no copy names a target it lacks.
 *   <li>Fields through {@link Storage#eachColumn}: primitives as raw little-endian values, page by
 *       page; strings as UTF-16; enums by constant name (a table per column, then an index per
 *       element); any other reference type, and the instances of object storages, through the
 *       {@link ValueCodec} registered for its class. A type without a codec is refused before
 *       anything is written, naming the storage, the field and the type.
 *   <li>{@link #extra}: named byte blocks of the caller's own (a simulation's random state, say),
 *       returned by the loaders.
 * </ul>
 *
 * <h2>Costs</h2>
 *
 * <p>O(entities + elements); no reflection and no allocation per element for primitive, string and
 * enum fields (a codec may allocate). Writes go through a 64 KiB buffer. About 8 bytes per
 * identifier, 8 per stored element, and the fields' widths.
 *
 * <h2>Failures and nested calls</h2>
 *
 * <p>A write keeps no state in the writer: a codec or a stream that throws leaves the writer as it
 * was (the bytes already written stay written), and the next write is whole. Nested calls are
 * refused: while a write runs, a call from one of its codecs (or its stream) to {@link
 * #write(OutputStream)}, {@link #write(WritableByteChannel)}, {@link #types}, {@link #entities},
 * {@link #codec} or {@link #extra} throws {@link IllegalStateException} naming the write under way,
 * before changing anything.
 *
 * <h2>Threading</h2>
 *
 * <p>Reads the registry: no thread may change it meanwhile. A writer may be reused; it is not
 * thread-safe.
 */
public final class SnapshotWriter {

  private final Registry registry;
  private final CallGuard guard = new CallGuard("SnapshotWriter");
  private final Map<Class<?>, ValueCodec<?>> codecs = new HashMap<>();
  private final Map<String, byte[]> extras = new LinkedHashMap<>();
  // The types chosen, in the order given, or null for every storage.
  private Set<ComponentType<?, ?>> types;
  private long[] chosen;

  /**
   * Creates a writer of {@code registry}'s state.
   *
   * @param registry the registry to save
   */
  public SnapshotWriter(final Registry registry) {
    this.registry = registry;
  }

  /**
   * Adds {@code chosenTypes} to the storages saved: the first call limits the writer to its types
   * (by default it saves every storage), and each later call adds more, so that {@code
   * types(a).types(b)} saves both (in the order of the calls; a type given twice is saved once).
   * Every writer and loader of this package reads {@code types(...)} this way (as EnTT's snapshot
   * calls, flecs' filters and Bevy's replication rules are built up one component at a time): a
   * call never drops what an earlier one chose. To save other types, make a new writer. The entity
   * section stays whole.
   *
   * <p>Links are saved whether listed or not: the storage of every relationship kind and the
   * hierarchy's ({@link Storage#isRelationship()}) go with the entities saved, so that a save and
   * load of chosen types keeps every parent and every relationship target, and not only the values.
   * Links are the world's structure, not one entity's data: a copy without them would have every
   * child arrive as a root, and still pass {@code verify()}. Listing them does no harm.
   *
   * @param chosenTypes the types to save, besides those of earlier calls
   * @return this writer
   */
  public SnapshotWriter types(final ComponentType<?, ?>... chosenTypes) {
    guard.check("choose the types");
    if (null == types) {
      types = new LinkedHashSet<>();
    }
    types.addAll(Arrays.asList(chosenTypes));
    return this;
  }

  /**
   * Saves only {@code entities} (each must be valid when {@link #write} runs, and listed once):
   * their components, and an entity section listing just them.
   *
   * @param entities the entities to save
   * @return this writer
   */
  public SnapshotWriter entities(final long... entities) {
    guard.check("choose the entities");
    this.chosen = entities.clone();
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
  public <T> SnapshotWriter codec(final Class<T> type, final ValueCodec<T> codec) {
    guard.check("register a codec");
    codecs.put(type, codec);
    return this;
  }

  /**
   * Adds a named block of bytes of the caller's own to the snapshot (replacing one of that name).
   *
   * @param name the block's name
   * @param data its bytes (copied)
   * @return this writer
   */
  public SnapshotWriter extra(final String name, final byte[] data) {
    guard.check("add an extra block");
    extras.put(name, data.clone());
    return this;
  }

  /**
   * Writes the snapshot to {@code out} (not closed; flushed).
   *
   * @param out the stream
   * @return the number of bytes written
   * @throws IOException if the stream fails
   * @throws IllegalArgumentException if a chosen entity is not valid or is listed twice; nothing is
   *     written
   * @throws IllegalStateException if a field's type has no codec, or if called from a codec of a
   *     write under way; nothing is written
   */
  public long write(final OutputStream out) throws IOException {
    guard.enter("write(OutputStream)", "write a snapshot");
    try {
      final long written = save(StreamChannels.writing(out));
      out.flush();
      return written;
    } finally {
      guard.exit();
    }
  }

  /**
   * Writes the snapshot to {@code channel} (not closed).
   *
   * @param channel the channel
   * @return the number of bytes written
   * @throws IOException if the channel fails
   * @throws IllegalArgumentException if a chosen entity is not valid or is listed twice; nothing is
   *     written
   * @throws IllegalStateException if a field's type has no codec, or if called from a codec of a
   *     write under way; nothing is written
   */
  public long write(final WritableByteChannel channel) throws IOException {
    guard.enter("write(WritableByteChannel)", "write a snapshot");
    try {
      return save(channel);
    } finally {
      guard.exit();
    }
  }

  private long save(final WritableByteChannel channel) throws IOException {
    final List<Storage<?>> storages = chosenStorages();
    final List<List<SnapshotFormat.Column>> columns = new ArrayList<>();
    for (final Storage<?> storage : storages) {
      final List<SnapshotFormat.Column> list = SnapshotFormat.columns(storage);
      for (final SnapshotFormat.Column column : list) {
        if (SnapshotFormat.CODEC == column.code() && !codecs.containsKey(column.type())) {
          throw new IllegalStateException(
              "cannot save "
                  + storage.describe()
                  + ": field '"
                  + column.name()
                  + "' is of type "
                  + column.type().getName()
                  + ", which snapshots do not encode natively; register a ValueCodec"
                  + " for it with codec("
                  + column.type().getSimpleName()
                  + ".class, ...)");
        }
      }
      columns.add(list);
    }
    LongLongMap selection = null;
    if (null != chosen) {
      selection = new LongLongMap(chosen.length);
      for (final long entity : chosen) {
        if (!registry.valid(entity)) {
          throw new IllegalArgumentException(
              "cannot save " + Entity.toString(entity) + ": it is not a live entity");
        }
        if (selection.containsKey(entity)) {
          throw new IllegalArgumentException(
              "cannot save "
                  + Entity.toString(entity)
                  + ": it is listed twice in entities(...), and a snapshot lists each entity once");
        }
        selection.put(entity, 1);
      }
    }
    // The pairs of non-exclusive kinds travel as extra blocks; refused for chosen entities.
    final Map<String, byte[]> blocks = new LinkedHashMap<>(extras);
    blocks.putAll(PairSection.blocks(registry, types, null != selection));
    final BinaryOutput<IOException> out = BinaryOutput.to(channel);
    out.putBytes(SnapshotFormat.MAGIC, 0, 4);
    out.putInt(SnapshotFormat.VERSION);
    out.putInt(null == selection ? SnapshotFormat.FLAG_FULL : 0);
    writeEntities(out, selection);
    out.putInt(blocks.size());
    for (final Map.Entry<String, byte[]> extra : blocks.entrySet()) {
      out.putString(extra.getKey());
      out.putInt(extra.getValue().length);
      out.putBytes(extra.getValue(), 0, extra.getValue().length);
    }
    out.putInt(storages.size());
    final ColumnWriter writer = new ColumnWriter(out);
    for (int i = 0; i < storages.size(); i++) {
      writeStorage(out, writer, storages.get(i), columns.get(i), selection);
    }
    out.putBytes(SnapshotFormat.END, 0, 4);
    out.flush();
    return out.offset();
  }

  private List<Storage<?>> chosenStorages() {
    final List<Storage<?>> storages = new ArrayList<>();
    if (null == types) {
      for (int i = 0; i < registry.storageCount(); i++) {
        storages.add(registry.storageAt(i));
      }
    } else {
      for (final ComponentType<?, ?> type : types) {
        storages.add(registry.storage(type));
      }
      // Links are structure: every relationship kind and the hierarchy go with their entities.
      for (int i = 0; i < registry.storageCount(); i++) {
        final Storage<?> storage = registry.storageAt(i);
        if (storage.isRelationship() && !types.contains(storage.type())) {
          storages.add(storage);
        }
      }
    }
    return storages;
  }

  private void writeEntities(final BinaryOutput<IOException> out, final LongLongMap selection)
      throws IOException {
    final EntityStorage entities = registry.entities();
    if (null == selection) {
      out.putInt(entities.size());
      out.putInt(entities.alive());
      out.longs(entities.packed(), 0, entities.size());
    } else {
      out.putInt(chosen.length);
      out.putInt(chosen.length);
      out.longs(chosen, 0, chosen.length);
    }
  }

  private void writeStorage(
      final BinaryOutput<IOException> out,
      final ColumnWriter writer,
      final Storage<?> storage,
      final List<SnapshotFormat.Column> columns,
      final LongLongMap selection)
      throws IOException {
    out.putString(SnapshotFormat.key(storage));
    out.putByte(DeletionPolicy.IN_PLACE == storage.policy() ? 1 : 0);
    out.putInt(columns.size());
    for (final SnapshotFormat.Column column : columns) {
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
    final long[] packed = storage.packed();
    if (null == selection) {
      out.putInt(storage.size());
      out.putInt(storage.firstHole());
      out.longs(packed, 0, storage.size());
      writer.start(storage, null, storage.size());
    } else {
      int[] positions = new int[16];
      int count = 0;
      final RelationshipStorage<?> kind =
          storage instanceof RelationshipStorage<?> relationships ? relationships : null;
      for (int position = 0; position < storage.size(); position++) {
        final long entity = packed[position];
        if (!Entity.isTombstone(entity)
            && selection.containsKey(entity)
            && (null == kind || selection.containsKey(kind.targetAt(position)))) {
          if (count == positions.length) {
            positions = Arrays.copyOf(positions, count * 2);
          }
          positions[count++] = position;
        }
      }
      out.putInt(count);
      out.putInt(SparseSet.ABSENT);
      for (int i = 0; i < count; i++) {
        out.putLong(packed[positions[i]]);
      }
      writer.start(storage, positions, count);
    }
    try {
      storage.columns(writer);
    } catch (final UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /**
   * Returns the index of {@code value} in its class's {@code getEnumConstants()}, the list of names
   * the column's header holds; a reader maps an index back through those names, so reordering the
   * constants between writing and reading is safe.
   */
  // EnumOrdinal: the ordinal is an index into the names written beside it, never a stored meaning.
  @SuppressWarnings("EnumOrdinal")
  private static int constantIndex(final Enum<?> value) {
    return value.ordinal();
  }

  /**
   * Writes each column it is handed: whole pages for a full storage, the chosen positions
   * otherwise. Visitor methods cannot throw {@link IOException}: it travels wrapped and is
   * unwrapped above.
   */
  private final class ColumnWriter implements ColumnVisitor {
    private final BinaryOutput<IOException> out;
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final DataOutputStream data = new DataOutputStream(bytes);
    private int[] positions;
    private int count;
    private int shift;
    private int mask;

    ColumnWriter(final BinaryOutput<IOException> out) {
      this.out = out;
    }

    void start(final Storage<?> target, final int[] chosenPositions, final int elements) {
      positions = chosenPositions;
      count = elements;
      shift = target.pageShift();
      mask = target.pageSize() - 1;
    }

    /** Calls {@code run(page, offset, length)} for each run of elements, in order. */
    private void runs(final Run run) {
      try {
        if (null == positions) {
          final int pageSize = mask + 1;
          for (int from = 0; from < count; from += pageSize) {
            run.write(from >>> shift, 0, Math.min(pageSize, count - from));
          }
        } else {
          for (int i = 0; i < count; i++) {
            run.write(positions[i] >>> shift, positions[i] & mask, 1);
          }
        }
      } catch (final IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public void booleans(final String name, final boolean[][] pages) {
      runs((page, offset, length) -> out.booleans(pages[page], offset, length));
    }

    @Override
    public void bytes(final String name, final byte[][] pages) {
      runs((page, offset, length) -> out.putBytes(pages[page], offset, length));
    }

    @Override
    public void shorts(final String name, final short[][] pages) {
      runs((page, offset, length) -> out.shorts(pages[page], offset, length));
    }

    @Override
    public void chars(final String name, final char[][] pages) {
      runs((page, offset, length) -> out.chars(pages[page], offset, length));
    }

    @Override
    public void ints(final String name, final int[][] pages) {
      runs((page, offset, length) -> out.ints(pages[page], offset, length));
    }

    @Override
    public void longs(final String name, final long[][] pages, final boolean entityRef) {
      runs((page, offset, length) -> out.longs(pages[page], offset, length));
    }

    @Override
    public void floats(final String name, final float[][] pages) {
      runs((page, offset, length) -> out.floats(pages[page], offset, length));
    }

    @Override
    public void doubles(final String name, final double[][] pages) {
      runs((page, offset, length) -> out.doubles(pages[page], offset, length));
    }

    @Override
    public void objects(final String name, final Class<?> type, final Object[][] pages) {
      final byte code = SnapshotFormat.objectCode(type);
      @SuppressWarnings(
          "unchecked") // registered for this very class by codec(Class<T>, ValueCodec<T>)
      final ValueCodec<Object> codec = (ValueCodec<Object>) codecs.get(type);
      runs(
          (page, offset, length) -> {
            for (int i = offset; i < offset + length; i++) {
              final Object value = pages[page][i];
              if (SnapshotFormat.STRING == code) {
                out.putChars((String) value);
              } else if (SnapshotFormat.ENUM == code) {
                out.putInt(null == value ? -1 : constantIndex((Enum<?>) value));
              } else if (null == value) {
                out.putInt(-1);
              } else {
                bytes.reset();
                // A DataOutputStream has no buffer: the codec's bytes are all in `bytes` now.
                codec.write(value, data);
                out.putInt(bytes.size());
                out.putBytes(bytesOf(), 0, bytes.size());
              }
            }
          });
    }

    private byte[] bytesOf() {
      return bytes.toByteArray();
    }
  }

  /** One run of elements of one page. */
  @FunctionalInterface
  private interface Run {
    void write(int page, int offset, int length) throws IOException;
  }
}

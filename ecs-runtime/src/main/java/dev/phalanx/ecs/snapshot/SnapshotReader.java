package dev.phalanx.ecs.snapshot;

import static dev.phalanx.ecs.snapshot.ColumnReader.allPrimitive;
import static dev.phalanx.ecs.snapshot.ColumnReader.checkSameType;
import static dev.phalanx.ecs.snapshot.ColumnReader.readBytes;
import static dev.phalanx.ecs.snapshot.ColumnReader.readColumn;
import static dev.phalanx.ecs.snapshot.ColumnReader.readColumnHeader;
import static dev.phalanx.ecs.snapshot.ColumnReader.readLongs;
import static dev.phalanx.ecs.snapshot.ColumnReader.readPages;
import static dev.phalanx.ecs.snapshot.ColumnReader.skipColumn;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.DeletionPolicy;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.RegistryImage;
import dev.phalanx.ecs.SparseSet;
import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import dev.phalanx.ecs.internal.LongLongMap;
import dev.phalanx.ecs.snapshot.ColumnReader.FileColumn;
import dev.phalanx.ecs.snapshot.StagedSnapshot.StagedColumn;
import dev.phalanx.ecs.snapshot.StagedSnapshot.StagedStorage;
import java.io.IOException;
import java.lang.reflect.Array;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads one snapshot for {@link StagedSnapshot#read}: each step reads one part of the stream, in
 * stream order, and keeps in fields what the later steps check against (the entity list, the
 * storages staged so far). Made for one read and dropped; every problem throws before a loader
 * changes anything.
 */
final class SnapshotReader {
  private final BinaryInput<IOException> in;
  private final Registry target;
  private final Map<Class<?>, ValueCodec<?>> codecs;
  private final Map<String, ComponentType<?, ?>> types;
  private final boolean paged;

  // The header and the entity section.
  private boolean full;
  private int count;
  private int alive;
  private long[] entities;
  // For full snapshots: the image, which checks identifiers and elements; for partial ones:
  // each listed entity's ordinal.
  private RegistryImage image;
  private LongLongMap listed;
  private Map<String, byte[]> extras;

  // The storage section.
  private List<StagedStorage> storages;
  private final Set<String> seen = new HashSet<>();
  private Map<String, ComponentType<?, ?>> known;
  // The key each resolved type came from (types are one per JVM: equality is identity): two
  // sections may not load into one type.
  private final Map<ComponentType<?, ?>, String> resolved = new HashMap<>();
  // Partial snapshots: which storage last held each listed entity (by ordinal), to find repeats.
  // Full ones: the image finds repeats.
  private int[] stamp;

  SnapshotReader(
      final BinaryInput<IOException> in,
      final Registry target,
      final Map<Class<?>, ValueCodec<?>> codecs,
      final Map<String, ComponentType<?, ?>> types,
      final boolean paged) {
    this.in = in;
    this.target = target;
    this.codecs = codecs;
    this.types = types;
    this.paged = paged;
  }

  StagedSnapshot read() throws IOException {
    readHeader();
    readEntities();
    readExtras();
    readStorages();
    readEndMarker();
    return new StagedSnapshot(full, entities, count, alive, image, extras, storages);
  }

  /** The magic, the format version and the flags. */
  private void readHeader() throws IOException {
    in.where = "the header";
    for (int i = 0; i < 4; i++) {
      if (in.getByte() != SnapshotFormat.MAGIC[i]) {
        throw new SnapshotFormatException(
            i, "not a Phalanx snapshot: wrong magic (expected the bytes 'PHNX')");
      }
    }
    readVersion();
    final long flagsAt = in.offset();
    final int flags = in.getInt();
    if (0 != (flags & ~SnapshotFormat.FLAG_FULL)) {
      throw new SnapshotFormatException(
          flagsAt, "corrupt header flags " + Integer.toHexString(flags));
    }
    full = 0 != (flags & SnapshotFormat.FLAG_FULL);
  }

  private void readVersion() throws IOException {
    final long versionAt = in.offset();
    final int version = in.getInt();
    if (version > SnapshotFormat.VERSION) {
      throw new SnapshotFormatException(
          versionAt,
          "snapshot format version "
              + version
              + " is newer than this runtime's, "
              + SnapshotFormat.VERSION
              + "; upgrade Phalanx to load it");
    }
    if (version < 1) {
      throw new SnapshotFormatException(versionAt, "corrupt format version " + version);
    }
  }

  /** The entity list: every identifier of a full snapshot, the listed entities of a partial one. */
  private void readEntities() throws IOException {
    in.where = "the entity section";
    count = in.getCount("identifiers", (long) Entity.MAX_INDEX + 1);
    alive = in.getCount("live identifiers", count);
    if (!full && alive != count) {
      throw in.error("corrupt entity list: " + alive + " live of " + count + " listed");
    }
    final long entitiesAt = in.offset();
    entities = readLongs(in, count);
    listed = full ? null : new LongLongMap(count);
    if (full) {
      try {
        image = new RegistryImage(entities, count, alive);
      } catch (final RegistryImage.ImageException e) {
        throw badIdentifier(entitiesAt, e.position(), entities[e.position()]);
      }
    } else {
      listEntities(entitiesAt);
    }
  }

  /** Checks a partial snapshot's entities and numbers them: distinct, valid, no tombstone. */
  private void listEntities(final long entitiesAt) throws SnapshotFormatException {
    for (int at = 0; at < count; at++) {
      final long entity = entities[at];
      final int index = Entity.index(entity);
      if (index < 0
          || index > Entity.MAX_INDEX
          || listed.containsKey(entity)
          || Entity.isTombstone(entity)) {
        throw badIdentifier(entitiesAt, at, entity);
      }
      listed.put(entity, at);
    }
  }

  /** The extra blocks, by name, in stream order. */
  private void readExtras() throws IOException {
    in.where = "the extra blocks";
    final int extraCount = in.getCount("extra blocks", 1 << 16);
    extras = new LinkedHashMap<>();
    for (int i = 0; i < extraCount; i++) {
      final String name = in.getString();
      in.where = "extra block '" + name + "'";
      final int length = in.getCount("bytes", Integer.MAX_VALUE - 16);
      extras.put(name, readBytes(in, length));
    }
  }

  /** Every storage section. */
  private void readStorages() throws IOException {
    in.where = "the storage section";
    final int storageCount = in.getCount("storages", 1 << 20);
    // Sized by what arrives, not by the count: a corrupt count runs into the end of the stream.
    storages = new ArrayList<>(Math.min(storageCount, 64));
    known = knownTypes(target, types);
    stamp = full ? null : new int[count];
    for (int s = 0; s < storageCount; s++) {
      storages.add(readStorage(s));
    }
  }

  /** Storage section {@code s}: key, policy, field headers, elements and holes, fields. */
  private StagedStorage readStorage(final int s) throws IOException {
    // Not the previous storage's last field: a bad key is reported as part of the section.
    in.where = "the storage section";
    final long keyAt = in.offset();
    final String key = in.getString();
    final ComponentType<?, ?> type = resolveSection(key, keyAt);
    final Storage<?> schema =
        null != target.findStorage(type) ? target.findStorage(type) : type.createStorage();
    final String storageName = schema.describe();
    in.where = storageName;
    final int policy = in.getByte();
    if (0 != policy && 1 != policy) {
      throw in.error("corrupt deletion policy " + policy);
    }
    final List<FileColumn> fileColumns = readColumnHeaders(storageName);
    in.where = storageName + ", its elements";
    final int size = in.getCount("elements", count);
    final long holeAt = in.offset();
    final int firstHole = in.getInt();
    final long packedAt = in.offset();
    final long[] packed = readLongs(in, size);
    final int holes =
        checkElements(s, type, packed, size, firstHole, 1 == policy, packedAt, holeAt, storageName);
    checkHoles(packed, size, firstHole, holes, 1 == policy, storageName, holeAt);
    final Map<String, SnapshotFormat.Column> wanted = new HashMap<>();
    for (final SnapshotFormat.Column column : SnapshotFormat.columns(schema)) {
      wanted.put(column.name(), column);
    }
    // Whole pages the storage can adopt (a load into an empty registry), when every field of the
    // type is primitive: a page of references would need the field's own array class.
    final int pageSize =
        paged && allPrimitive(wanted.values()) && RegistryImage.adoptsPages(type)
            ? schema.pageSize()
            : 0;
    final Map<String, StagedColumn> columns =
        readColumns(fileColumns, wanted, storageName, size, packed, pageSize);
    final StagedStorage staged =
        new StagedStorage(type, key, packed, size, firstHole, columns, pageSize);
    final StagedStorage kept =
        0 == holes || DeletionPolicy.IN_PLACE == schema.policy() ? staged : compacted(staged);
    if (full && paged) {
      giveValues(kept, storageName);
    }
    return kept;
  }

  /** Gives the image a storage's staged fields, for a whole load to restore. */
  private void giveValues(final StagedStorage staged, final String storageName)
      throws SnapshotFormatException {
    try {
      for (final StagedColumn column : staged.columns.values()) {
        if (0 == column.pageSize()) {
          image.column(staged.type, column.name(), column.data());
        } else {
          image.pages(staged.type, column.name(), (Object[]) column.data());
        }
      }
    } catch (final RegistryImage.ImageException e) {
      throw new SnapshotFormatException(-1, "cannot load " + storageName + ": " + e.getMessage());
    }
  }

  /**
   * Resolves a storage section's key to its type; refuses a key seen before and a second key
   * loading into the same type.
   */
  private ComponentType<?, ?> resolveSection(final String key, final long keyAt)
      throws SnapshotFormatException {
    if (!seen.add(key)) {
      throw new SnapshotFormatException(
          keyAt, "corrupt storage section: storage " + key + " appears twice");
    }
    final ComponentType<?, ?> type = resolve(key, known, keyAt);
    final String earlier = resolved.putIfAbsent(type, key);
    if (null != earlier) {
      throw new SnapshotFormatException(
          keyAt,
          "corrupt storage section: storages "
              + earlier
              + " and "
              + key
              + " both load into type "
              + type.name()
              + " (through an alias): one of them would be lost");
    }
    return type;
  }

  /** A storage section's field headers, as the file describes them. */
  private List<FileColumn> readColumnHeaders(final String storageName) throws IOException {
    final int columnCount = in.getCount("fields", 1 << 16);
    final List<FileColumn> fileColumns = new ArrayList<>(Math.min(columnCount, 16));
    for (int c = 0; c < columnCount; c++) {
      fileColumns.add(readColumnHeader(in, storageName));
    }
    return fileColumns;
  }

  /**
   * Checks storage {@code s}'s elements against the entity list (a full snapshot's through its
   * image, which indexes them); returns the number of holes.
   */
  private int checkElements(
      final int s,
      final ComponentType<?, ?> type,
      final long[] packed,
      final int size,
      final int firstHole,
      final boolean inPlace,
      final long packedAt,
      final long holeAt,
      final String storageName)
      throws SnapshotFormatException {
    if (!full) {
      return checkListedElements(packed, size, listed, stamp, s, packedAt, storageName);
    }
    try {
      return image.elements(type, packed, size, firstHole);
    } catch (final RegistryImage.ImageException e) {
      final int p = e.position();
      switch (e.rule()) {
        case NOT_LIVE -> throw notLive(packedAt, p, storageName, packed[p]);
        case REPEATED -> throw repeated(packedAt, p, storageName, packed[p]);
        default -> {
          // A free list the image refused: say what is wrong, as for a partial snapshot.
          checkHoles(
              packed, size, firstHole, tombstones(packed, size), inPlace, storageName, holeAt);
          throw new SnapshotFormatException(holeAt, storageName + ": " + e.getMessage());
        }
      }
    }
  }

  /**
   * A storage section's fields: each field the type still has is checked and staged (flat, or in
   * whole pages when {@code pageSize} is not 0); the others are skipped.
   */
  private Map<String, StagedColumn> readColumns(
      final List<FileColumn> fileColumns,
      final Map<String, SnapshotFormat.Column> wanted,
      final String storageName,
      final int size,
      final long[] packed,
      final int pageSize)
      throws IOException {
    final Map<String, StagedColumn> columns = new LinkedHashMap<>();
    for (final FileColumn column : fileColumns) {
      in.where = storageName + ", field '" + column.name + "'";
      final SnapshotFormat.Column into = wanted.get(column.name);
      if (null == into) {
        skipColumn(in, column, size);
      } else {
        checkSameType(in, column, into, storageName, codecs);
        columns.put(
            column.name,
            0 == pageSize
                ? new StagedColumn(
                    column.name, column.code, readColumn(in, column, into, size, packed, codecs), 0)
                : new StagedColumn(
                    column.name,
                    column.code,
                    readPages(in, column.code, size, pageSize),
                    pageSize));
      }
    }
    return columns;
  }

  private void readEndMarker() throws IOException {
    in.where = "the end marker";
    for (int i = 0; i < 4; i++) {
      if (in.getByte() != SnapshotFormat.END[i]) {
        throw in.error("corrupt snapshot: the end marker 'END!' is missing");
      }
    }
  }

  /**
   * Checks the elements of a partial snapshot: each element a listed entity, none twice ({@code
   * stamp} remembers which storage, {@code s + 1}, last held each listed entity).
   */
  private static int checkListedElements(
      final long[] packed,
      final int size,
      final LongLongMap listed,
      final int[] stamp,
      final int s,
      final long packedAt,
      final String storageName)
      throws SnapshotFormatException {
    int holes = 0;
    for (int p = 0; p < size; p++) {
      final long entity = packed[p];
      if (Entity.isTombstone(entity)) {
        holes++;
        continue;
      }
      final int slot = (int) listed.get(entity, -1);
      if (slot < 0) {
        throw notLive(packedAt, p, storageName, entity);
      }
      if (stamp[slot] == s + 1) {
        throw repeated(packedAt, p, storageName, entity);
      }
      stamp[slot] = s + 1;
    }
    return holes;
  }

  private static SnapshotFormatException badIdentifier(
      final long entitiesAt, final int at, final long entity) {
    return new SnapshotFormatException(
        entitiesAt + 8L * at,
        "corrupt identifier "
            + Entity.toString(entity)
            + " at entity "
            + at
            + ": out of range, repeated or a tombstone (reading the entity section)");
  }

  private static SnapshotFormatException notLive(
      final long packedAt, final int p, final String storageName, final long entity) {
    return badElement(packedAt, p, storageName, entity, "is not a live entity of the snapshot");
  }

  private static SnapshotFormatException repeated(
      final long packedAt, final int p, final String storageName, final long entity) {
    return badElement(packedAt, p, storageName, entity, "appears twice");
  }

  private static SnapshotFormatException badElement(
      final long packedAt,
      final int p,
      final String storageName,
      final long entity,
      final String why) {
    return new SnapshotFormatException(
        packedAt + 8L * p,
        "corrupt element at position "
            + p
            + " of "
            + storageName
            + ": "
            + Entity.toString(entity)
            + " "
            + why);
  }

  /** {@return how many of {@code packed[0, size)} are tombstones} */
  private static int tombstones(final long[] packed, final int size) {
    int holes = 0;
    for (int p = 0; p < size; p++) {
      holes += Entity.isTombstone(packed[p]) ? 1 : 0;
    }
    return holes;
  }

  /** Checks that the holes form one free list from {@code firstHole} through every tombstone. */
  private static void checkHoles(
      final long[] packed,
      final int size,
      final int firstHole,
      final int holes,
      final boolean inPlace,
      final String storageName,
      final long at)
      throws SnapshotFormatException {
    if (!inPlace && 0 != holes) {
      throw new SnapshotFormatException(
          at, "corrupt " + storageName + ": holes in a swap-and-pop storage");
    }
    int walked = 0;
    for (int hole = firstHole; SparseSet.ABSENT != hole; hole = Entity.index(packed[hole])) {
      if (hole < 0 || hole >= size || !Entity.isTombstone(packed[hole]) || ++walked > holes) {
        throw new SnapshotFormatException(
            at,
            "corrupt free list of "
                + storageName
                + ": link "
                + hole
                + " is not a hole, or the list loops");
      }
    }
    if (walked != holes) {
      throw new SnapshotFormatException(
          at,
          "corrupt free list of "
              + storageName
              + ": it reaches "
              + walked
              + " of "
              + holes
              + " holes");
    }
  }

  /**
   * Drops the holes of a storage loaded into a swap-and-pop storage (its deletion policy changed).
   */
  private static StagedStorage compacted(final StagedStorage staged) {
    int live = 0;
    for (int p = 0; p < staged.size; p++) {
      live += Entity.isTombstone(staged.packed[p]) ? 0 : 1;
    }
    final int[] keep = new int[live];
    final long[] packed = new long[live];
    for (int p = 0, k = 0; p < staged.size; p++) {
      if (!Entity.isTombstone(staged.packed[p])) {
        keep[k] = p;
        packed[k++] = staged.packed[p];
      }
    }
    final Map<String, StagedColumn> columns = new LinkedHashMap<>();
    for (final StagedColumn column : staged.columns.values()) {
      final Object data = column.flat(staged.size);
      final Object kept = Array.newInstance(data.getClass().getComponentType(), live);
      for (int k = 0; k < live; k++) {
        System.arraycopy(data, keep[k], kept, k, 1);
      }
      columns.put(column.name(), new StagedColumn(column.name(), column.code(), kept, 0));
    }
    // Positions changed: the staged sparse array no longer fits; the set builds its own.
    return new StagedStorage(staged.type, staged.key, packed, live, SparseSet.ABSENT, columns, 0);
  }

  /**
   * Returns the types a stream may name, by key: those given to the loader ({@code types(...)},
   * {@code alias(...)}), then those of the target's storages, then the hierarchy's. Nothing else: a
   * name read from a stream never loads, initialises or registers a class, nor interns a void name
   * (a snapshot from a peer is untrusted input).
   */
  private static Map<String, ComponentType<?, ?>> knownTypes(
      final Registry target, final Map<String, ComponentType<?, ?>> types) {
    final Map<String, ComponentType<?, ?>> known = new HashMap<>();
    known.put(SnapshotFormat.key(Hierarchy.TYPE), Hierarchy.TYPE);
    for (int i = 0; i < target.storageCount(); i++) {
      known.put(SnapshotFormat.key(target.storageAt(i)), target.storageAt(i).type());
    }
    known.putAll(types);
    return known;
  }

  private static ComponentType<?, ?> resolve(
      final String key, final Map<String, ComponentType<?, ?>> known, final long at)
      throws SnapshotFormatException {
    final ComponentType<?, ?> type = known.get(key);
    if (null == type) {
      throw new SnapshotFormatException(
          at,
          "unknown component type "
              + key
              + ": a stream may name only the types given to the loader (types(...),"
              + " alias(...)) and those the target registry has a storage of");
    }
    return type;
  }
}

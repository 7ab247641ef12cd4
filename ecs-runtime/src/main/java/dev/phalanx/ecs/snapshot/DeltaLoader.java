package dev.phalanx.ecs.snapshot;

import dev.phalanx.ecs.ChangeSet;
import dev.phalanx.ecs.ColumnVisitor;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.command.CommandBuffer;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import dev.phalanx.ecs.internal.Failures;
import dev.phalanx.ecs.internal.LongLongMap;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.ConcurrentModificationException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;
import java.util.function.LongUnaryOperator;
import java.util.zip.CRC32C;

/**
 * Applies the deltas of one {@link DeltaWriter} to a local registry, the replica: it maps each
 * remote identifier to a local entity (as {@link ContinuousLoader} does) and remembers the tick of
 * the last delta applied, which the next one must have as its base.
 *
 * <h2>What an apply does</h2>
 *
 * <ol>
 *   <li>checks the whole delta before anything changes: its checksum (CRC-32C: every single-bit
 *       error is caught), its stream identity and base tick against this replica's (the first delta
 *       must have base 0 and is accepted from any writer; the next ones only from that writer, each
 *       on the tick of the previous), every count against the delta's length, every storage key
 *       against the types this loader was given ({@link #types}) or the registry has (no class is
 *       loaded by name), every field's type, every enum constant, and every entity (a lost one must
 *       be mapped, a gained one must not, a value or a removal must concern an entity mapped after
 *       the delta, once per storage), every {@code @EntityRef} value (outside the hierarchy's
 *       links: {@link Entity#NULL} or an entity the replica holds after the delta, as a writer
 *       sends them), that no entity it loses is still named by an element of a streamed storage
 *       (one it has a section for, or a type given to {@link #types}) of a mapped entity that it
 *       neither loses nor sends again (which would then name a destroyed entity), and the hierarchy
 *       it would leave: the links of the nodes it sends together with the replica's other nodes
 *       must have no cycle, a parent the replica will hold must have a node, and a children list
 *       the delta carries whole (every child sent) must agree with the children's links and the
 *       child count. A bad delta throws {@link SnapshotFormatException} naming the offset and the
 *       rule; the replica and the map are unchanged. A storage the delta changes that is locked or
 *       iterated (any storage, if the delta destroys entities) refuses it with {@link
 *       ConcurrentModificationException}, unchanged; so does a replica with too few identifiers
 *       left for the gained entities (the creations are made before the destructions), with {@link
 *       IllegalStateException}.
 *   <li>stages the whole apply into the loader's {@link ChangeSet} (public API only): the
 *       destruction of the local entities of lost remote ones, the creation of local entities for
 *       gained ones, and per storage the removal of the component from the entities listed as
 *       losing it, a value write for each value sent of an entity that has the component, an
 *       insertion for the others. {@code @EntityRef} fields (and hierarchy links) are mapped to the
 *       local entities (a hierarchy link to a remote entity this replica does not hold becomes
 *       {@link Entity#NULL}; any other such reference was refused by the check);
 *   <li>commits it: the change set checks it in full (a refused commit changes nothing: the
 *       replica, the map and the tick are as before the call), creates the entities, writes every
 *       value (each stamping the local change tick of a tracked storage) with no listener running
 *       meanwhile, then announces creation, construction (with group entries; last inserted first)
 *       and updates, then runs the removals and destructions. A listener thus sees every value of
 *       the delta already written;
 *   <li>if the delta wrote nodes of the {@link Hierarchy} (created if the replica had none), the
 *       commit runs between {@link Hierarchy#beginRelink()} and {@link Hierarchy#endRelink()}: its
 *       children lists and counts are rebuilt from the parent links: a node's children are those of
 *       the stream's list in its order, then the others that name it (local children attached to a
 *       mirrored node, children the stream's list did not carry); a parent the replica does not
 *       hold makes the child a root. The hierarchy is whole after every apply, whatever the
 *       interest set.
 * </ol>
 *
 * <p>Listener exceptions do not stop the apply: it completes, then the first is rethrown with the
 * others suppressed; the map then names every entity the apply created. A listener that destroys a
 * mapped local entity is followed: the entity is announced no update, and the next deltas skip its
 * values (the map keeps it until the writer says it is gone). Local entities that were never mapped
 * are left alone. A listener may destroy entities and add or remove components during an apply:
 * {@link Registry#verify()} is empty afterwards. A listener that calls {@link #map} during the
 * apply gets the entities created so far. While a delta writes the hierarchy's nodes, a listener
 * sees the links as written (lists and counts are rebuilt at the end; a node destroyed meanwhile
 * only clears its own links, its children become roots at the rebuild): it must not read or change
 * the hierarchy then, but record such work for after the apply (for example in a {@link
 * CommandBuffer}).
 *
 * <h2>Failures and nested calls</h2>
 *
 * <p>A codec that throws fails the staging, before anything changes: the load throws {@link
 * SnapshotFormatException} (the codec's exception as its cause), the replica, the map and the tick
 * are as they were, and the next delta on the same base is taken (the same delta again, say).
 * Listeners run during the apply, which completes whatever they throw (see above) and takes the
 * delta's tick, so the next delta of the stream is taken too. Nested calls are refused: while a
 * load runs, a call from its stream, one of its codecs or one of its listeners to a {@code load},
 * {@link #codec} or {@link #types} throws {@link IllegalStateException} naming the load under way,
 * before changing anything (from a listener, the apply collects it and rethrows it at its end).
 * {@link #tick()}, {@link #map} and {@link #size} may be called: they show the replica's map as the
 * apply has left it so far, and the tick of the last delta applied.
 *
 * <h2>Costs</h2>
 *
 * <p>O(delta size) with a few look-ups per entity listed, each one array read: the remote-to-local
 * map and the staging marks are flat arrays indexed by the remote entity's index, with a hash
 * overflow for two versions of one index mapped at once and for indices beyond a span bounded by
 * twice the number mapped (an untrusted delta naming huge indices cannot make the loader allocate
 * more than that); 24 bytes per remote index. A small delta costs little whatever the replica's
 * size, except that a delta that loses entities costs one pass over the references of each streamed
 * storage with {@code @EntityRef} fields (as the writer's pass that sends such elements again). A
 * delta with a hierarchy section also costs one pass over the replica's nodes (its check and the
 * rebuild of the children lists).
 *
 * <p>Garbage: none per delta once warm. The loader keeps its reader, its staging (the entity lists,
 * one section per component type with its columns' arrays, grown to the largest delta and kept),
 * the storages by key and the hierarchy check's arrays from one load to the next; names in the
 * delta are matched against the replica's as bytes, not decoded. What still allocates: a first
 * delta, one larger than any before, a load through a direct {@link ByteBuffer} or an {@link
 * InputStream} (one copy of the delta), string, enum and codec fields (their values are objects),
 * and errors.
 *
 * <h2>Threading</h2>
 *
 * <p>Not thread-safe; no other thread may change the registry during an apply.
 */
public final class DeltaLoader {

  // What a length that does not fit the bytes most likely means, and how to recover.
  private static final String WRITE_FIRST =
      "; if the bytes are a DeltaWriter's bytes(), call write() before bytes(): in"
          + " load(writer.bytes(), writer.write()) Java calls bytes() first, which returns the"
          + " previous delta's array; nothing changed, and the writer keeps the new delta until its"
          + " next write, so load(writer.bytes(), length) with the length write() returned applies"
          + " it";

  private final Registry registry;
  private final CallGuard guard = new CallGuard("DeltaLoader");
  private final CRC32C crc = new CRC32C();
  private final Map<Class<?>, ValueCodec<?>> codecs = new HashMap<>();
  private final Map<String, ComponentType<?, ?>> types = new HashMap<>();
  // Remote handle to local handle, flat by the remote index (see EntityIndexMap).
  private final EntityIndexMap remoteToLocal = new EntityIndexMap();
  // Staging's changes of the map, undone if the commit is refused.
  private final RemapLog remaps = new RemapLog(remoteToLocal);
  private final Writer writer = new Writer(remoteToLocal);
  // Staging scratch: a section's local targets and their rows, kept from one apply to the next.
  private long[] targets = new long[0];
  private int[] rows = new int[0];
  // Reused by staging from one delta to the next: the entities a delta loses, those it gains, and
  // those a section lists, marked by remote index. Only staging reads them.
  private final EntityIndexMap lostSet = new EntityIndexMap();
  private final EntityIndexMap gainedSet = new EntityIndexMap();
  private final EntityIndexMap listedSet = new EntityIndexMap();
  // The hierarchy check's state and questions, kept across deltas so that a check allocates
  // nothing: the local entities that lose their node, whether a remote entity is held after the
  // delta, the local handle of one held before and after it.
  private final HierarchySection.DeltaCheck hierarchyCheck = new HierarchySection.DeltaCheck();
  private final LongLongMap droppedLocals = new LongLongMap(16);
  private final LongPredicate isDropped = droppedLocals::containsKey;
  private final LongPredicate held = this::heldAfter;
  private final LongUnaryOperator keptLocal = this::keptLocal;
  // The lost-references check's state, kept across deltas (see checkLostReferences): the visitor
  // with its sets, and the local-to-remote map, built only when an element refers to a lost entity.
  private final LostReferences lostReferences = new LostReferences();
  private final LongLongMap localToRemote = new LongLongMap(16);
  private boolean localsInverted;
  // The staging of every load, kept with its arrays (see Staged, Section): the input reader, the
  // staged delta, the sections by component type id, the storages by key, one field header's
  // parts, the place being read (for messages), the count entities() read, and the loads so far.
  private final BinaryInput<RuntimeException> input = DeltaFormat.input(new byte[0], 0, 0);
  private final Staged staged = new Staged();
  private Section[] sectionsByType = new Section[16];
  private StorageKeys storageKeys;
  private int[] fieldTargets = new int[8];
  private byte[] fieldCodes = new byte[8];
  private String[][] fieldConstants = new String[8][];
  private String[] fieldNames = new String[8];
  private final Place place = new Place();
  private int readCount;
  private long loads;
  // Each delta is staged into this set, then committed.
  private final ChangeSet changes;
  // Undoes a refused commit's staging; one instance, so that a load allocates no callback.
  private final Runnable undo = this::rollback;
  private long tick;
  private long stream;
  // Whether this loader applies acknowledged deltas (see AckedDeltaLoader): then tick is the
  // sequence of the newest delta applied, and heldAt maps each remote index the replica holds to
  // the remote entity there (one version per index).
  private final boolean acknowledged;
  private final LongLongMap heldAt = new LongLongMap(16);
  private long[] normalized = new long[16];

  /**
   * Creates a loader into {@code registry}, the replica, holding nothing of the remote world yet
   * (tick 0).
   *
   * @param registry the local registry
   */
  public DeltaLoader(final Registry registry) {
    this(registry, false);
  }

  /** A loader of plain deltas, or of acknowledged ones (see {@link AckedDeltaLoader}). */
  DeltaLoader(final Registry registry, final boolean acknowledged) {
    this.registry = registry;
    this.changes = new ChangeSet(registry);
    this.acknowledged = acknowledged;
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
  public <T> DeltaLoader codec(final Class<T> type, final ValueCodec<T> codec) {
    guard.check("register a codec");
    codecs.put(type, codec);
    return this;
  }

  /**
   * Adds types the deltas may name, besides those the registry has storages for. Each call adds to
   * the earlier ones, so that {@code types(a).types(b)} accepts both: every writer and loader of
   * this package reads {@code types(...)} this way (as EnTT's snapshot calls, flecs' filters and
   * Bevy's replication rules are built up one component at a time), and a call never drops what an
   * earlier one chose.
   *
   * @param extraTypes the types, besides those of earlier calls
   * @return this loader
   * @throws IllegalStateException if called from a codec or listener of a load under way
   */
  public DeltaLoader types(final ComponentType<?, ?>... extraTypes) {
    guard.check("add types");
    for (final ComponentType<?, ?> type : extraTypes) {
      types.put(SnapshotFormat.key(type), type);
    }
    return this;
  }

  /** {@return the tick of the last delta applied (0 before the first): the next one's base} */
  public long tick() {
    return tick;
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
    // During an apply's commit (from a listener), a gained entity is mapped to its staged handle.
    return ChangeSet.isStaged(local) ? changes.entityOf(local) : local;
  }

  /** {@return the number of mapped remote entities} */
  public int size() {
    return remoteToLocal.size();
  }

  /**
   * Applies the delta held in {@code bytes[0, length)}.
   *
   * @param bytes the delta
   * @param length its length
   * @throws SnapshotFormatException if it is not a delta on this replica's state; nothing changed
   * @throws IllegalStateException if called from a codec or listener of a load under way, or if the
   *     replica has too few identifiers left for the entities the delta gains; nothing changed
   * @throws RuntimeException the first exception a listener threw, once the apply completed
   */
  public void load(final byte[] bytes, final int length) throws SnapshotFormatException {
    loadArray(bytes, length);
  }

  /**
   * Applies the acknowledged delta held in {@code bytes[0, length)} (see {@link AckedDeltaLoader}),
   * or ignores it.
   *
   * @return what became of it
   */
  AckedDeltaLoader.Outcome loadAcknowledged(final byte[] bytes, final int length)
      throws SnapshotFormatException {
    return loadArray(bytes, length);
  }

  private AckedDeltaLoader.Outcome loadArray(final byte[] bytes, final int length)
      throws SnapshotFormatException {
    guard.enter("load(byte[], int)", "load a delta");
    try {
      if (length < 0 || length > bytes.length) {
        throw new SnapshotFormatException(
            0,
            "bad delta: its length is given as "
                + length
                + " but the array holds "
                + bytes.length
                + " bytes"
                + WRITE_FIRST);
      }
      input.reset(bytes, 0, length);
      final Staged delta = stage(input, length);
      if (AckedDeltaLoader.Outcome.APPLIED == delta.outcome
          || AckedDeltaLoader.Outcome.RESYNCED == delta.outcome) {
        apply(delta);
      }
      return delta.outcome;
    } finally {
      guard.exit();
    }
  }

  /**
   * Applies the delta at {@code delta}'s position; on success the position moves past it, on
   * failure it does not move.
   *
   * @param delta the bytes
   * @throws SnapshotFormatException if it is not a delta on this replica's state; nothing changed
   * @throws IllegalStateException if called from a codec or listener of a load under way, or if the
   *     replica has too few identifiers left for the entities the delta gains; nothing changed
   * @throws RuntimeException the first exception a listener threw, once the apply completed
   */
  public void load(final ByteBuffer delta) throws SnapshotFormatException {
    guard.enter("load(ByteBuffer)", "load a delta");
    try {
      loadBuffer(delta);
    } finally {
      guard.exit();
    }
  }

  private void loadBuffer(final ByteBuffer delta) throws SnapshotFormatException {
    final byte[] bytes;
    final int from;
    if (delta.hasArray()) {
      bytes = delta.array();
      from = delta.arrayOffset() + delta.position();
    } else {
      bytes = new byte[delta.remaining()];
      delta.duplicate().get(bytes);
      from = 0;
    }
    final int available = delta.remaining();
    input.reset(bytes, from, available);
    final int length = lengthOf(input, DeltaFormat.MAGIC);
    if (length > available) {
      throw input.error("its length is " + length + " but " + available + " bytes remain");
    }
    input.reset(bytes, from, length);
    apply(stage(input, length));
    delta.position(delta.position() + length);
  }

  /**
   * Reads one delta from {@code in} (exactly its bytes) and applies it.
   *
   * @param in the stream
   * @throws SnapshotFormatException if it is not a delta on this replica's state; nothing changed
   * @throws IllegalStateException if called from a codec or listener of a load under way, or if the
   *     replica has too few identifiers left for the entities the delta gains; nothing changed
   * @throws RuntimeException the first exception a listener threw, once the apply completed
   * @throws IOException if the stream fails; nothing changed
   */
  public void load(final InputStream in) throws IOException {
    guard.enter("load(InputStream)", "load a delta");
    try {
      loadStream(in);
    } finally {
      guard.exit();
    }
  }

  private void loadStream(final InputStream in) throws IOException {
    final byte[] head = in.readNBytes(DeltaFormat.HEADER);
    input.reset(head, 0, head.length);
    final int length = lengthOf(input, DeltaFormat.MAGIC);
    final byte[] bytes = Arrays.copyOf(head, length);
    final int read = in.readNBytes(bytes, DeltaFormat.HEADER, length - DeltaFormat.HEADER);
    if (read != length - DeltaFormat.HEADER) {
      throw new SnapshotFormatException(
          DeltaFormat.HEADER + read, "bad delta: the stream ends before the delta's end");
    }
    input.reset(bytes, 0, length);
    apply(stage(input, length));
  }

  /** Reads magic, version and the delta's length. */
  private static int lengthOf(final BinaryInput<RuntimeException> in, final byte[] magic)
      throws SnapshotFormatException {
    for (int i = 0; i < 4; i++) {
      if (in.getByte() != magic[i]) {
        throw in.error(
            DeltaFormat.MAGIC == magic
                ? "not a delta (its magic is not PHND; an AckedDeltaWriter's, PHNA, is loaded by an"
                    + " AckedDeltaLoader)"
                : "not an acknowledged delta (its magic is not PHNA; a DeltaWriter's, PHND, is"
                    + " loaded by a DeltaLoader)");
      }
    }
    final int version = in.getInt();
    if (DeltaFormat.VERSION != version) {
      throw in.error("version " + version + ", this reader reads " + DeltaFormat.VERSION);
    }
    final int length = in.getInt();
    if (length < DeltaFormat.HEADER + DeltaFormat.TRAILER) {
      throw in.error("length " + length + " is shorter than any delta");
    }
    return length;
  }

  // ---------------------------------------------------------------------------------------------
  // Staging: everything is read and checked before the replica changes.
  // ---------------------------------------------------------------------------------------------

  /**
   * The staged delta: one per loader, refilled by each load; its arrays grow to the largest delta
   * and are kept, so that staging allocates nothing once they have.
   */
  private static final class Staged {
    // What a load does with it (an acknowledged delta may be ignored; a plain one is applied).
    AckedDeltaLoader.Outcome outcome;
    long stream;
    long base;
    long tick;
    long[] gone = new long[16];
    int goneCount;
    long[] arrived = new long[16];
    int arrivedCount;
    Section[] sections = new Section[8];
    int sectionCount;

    void add(final Section section) {
      if (sectionCount == sections.length) {
        sections = Arrays.copyOf(sections, 2 * sectionCount);
      }
      sections[sectionCount++] = section;
    }
  }

  /**
   * A staged storage section: one per component type, kept from one load to the next with its
   * arrays (grown, never shrunk) and the replica's columns of the type.
   */
  private static final class Section {
    Storage<?> storage;
    long[] removed = new long[16];
    int removedCount;
    long[] entities = new long[16];
    int entityCount;
    // Per target column name, the staged values (a primitive array or Object[], at least
    // entityCount long), or null for a column this delta lacks.
    final Map<String, Object> values = new HashMap<>();
    // Per target column name, the array its values were last read into, reused while it is long
    // enough and of the column's type.
    final Map<String, Object> buffers = new HashMap<>();
    // The replica's columns of the type and their names' UTF-8 bytes, matched without decoding.
    final List<SnapshotFormat.Column> targets;
    final byte[][] targetNames;
    // The load that last staged this section, to refuse a second section for it.
    long stagedBy;

    Section(final Storage<?> storage) {
      targets = SnapshotFormat.columns(storage);
      targetNames = new byte[targets.size()][];
      for (int t = 0; t < targetNames.length; t++) {
        targetNames[t] = targets.get(t).name().getBytes(StandardCharsets.UTF_8);
      }
    }
  }

  /**
   * What staging reads, for the messages of its errors ({@link BinaryInput#where}): made into a
   * string only when an error is.
   */
  private static final class Place {
    String what;
    Storage<?> storage;
    String part = "";
    String field;

    Place at(final String description) {
      what = description;
      storage = null;
      return this;
    }

    Place in(final Storage<?> section, final String sectionPart) {
      storage = section;
      part = sectionPart;
      field = null;
      return this;
    }

    Place field(final Storage<?> section, final String name) {
      storage = section;
      part = "";
      field = name;
      return this;
    }

    @Override
    public String toString() {
      if (null == storage) {
        return what;
      }
      return storage.describe() + part + (null == field ? "" : ", field '" + field + "'");
    }
  }

  private Staged stage(final BinaryInput<RuntimeException> in, final int length)
      throws SnapshotFormatException {
    final int declared = lengthOf(in, acknowledged ? DeltaFormat.ACKED_MAGIC : DeltaFormat.MAGIC);
    if (declared != length) {
      throw in.error(
          "its length is " + declared + " but it is given as " + length + " bytes" + WRITE_FIRST);
    }
    final int stored = in.getIntAt(length - 4);
    if (stored != DeltaFormat.crc(crc, in, 0, length - 4)) {
      throw new SnapshotFormatException(
          length - 4, "bad delta: its checksum does not match its bytes (corrupt or truncated)");
    }
    in.limitTo(length - 4);
    final BinaryInput<RuntimeException> body = in;
    loads++;
    body.where = place.at("the header");
    staged.stream = body.getLong();
    staged.base = body.getLong();
    staged.tick = body.getLong();
    staged.outcome = AckedDeltaLoader.Outcome.APPLIED;
    if (!acknowledged) {
      checkBase(body, staged);
    } else if (!checkSequence(body, staged)) {
      return staged;
    }
    body.where = place.at("the lost entities");
    staged.gone = entities(body, staged.gone);
    staged.goneCount = readCount;
    body.where = place.at("the gained entities");
    staged.arrived = entities(body, staged.arrived);
    staged.arrivedCount = readCount;
    if (acknowledged) {
      normalize(staged);
    }
    // Which remote entities the replica holds after the delta: mapped and not lost, or gained.
    final EntityIndexMap lost = checkLost(body);
    final EntityIndexMap gained = checkGained(body, lost);
    body.where = place.at("the storage count");
    final int sections = body.count(body.getInt(), 12);
    final StorageKeys keys = storageKeys();
    staged.sectionCount = 0;
    for (int s = 0; s < sections; s++) {
      body.where = place.at("a storage section");
      final int k = body.getStringIndex(keys.names);
      if (k < 0) {
        throw body.error(
            "storage '"
                + body.lastString()
                + "' is neither a storage of the replica nor a type given to types(...)");
      }
      final Storage<?> storage = keys.storages[k];
      body.where = place.in(storage, "");
      final Section section = sectionFor(storage);
      if (loads == section.stagedBy) {
        throw body.error("the delta has two sections for it");
      }
      section.stagedBy = loads;
      staged.add(section(body, section, lost, gained));
    }
    if (0 != body.remainingBound()) {
      throw body.error(body.remainingBound() + " bytes follow the last section");
    }
    body.where = place.at("the lost entities");
    checkLostReferences(body, staged);
    checkHierarchy(staged);
    return staged;
  }

  /** Marks the entities the delta loses, each held by the replica and listed once. */
  private EntityIndexMap checkLost(final BinaryInput<RuntimeException> body)
      throws SnapshotFormatException {
    final EntityIndexMap lost = emptied(lostSet);
    for (int i = 0; i < staged.goneCount; i++) {
      final long remote = staged.gone[i];
      if (!remoteToLocal.containsKey(remote)) {
        throw body.error(Entity.toString(remote) + " is lost but this replica does not hold it");
      }
      if (lost.containsKey(remote)) {
        throw body.error(Entity.toString(remote) + " is lost twice");
      }
      lost.put(remote, 1);
    }
    return lost;
  }

  /** Marks the entities the delta gains, each new to the replica (or lost) and listed once. */
  private EntityIndexMap checkGained(
      final BinaryInput<RuntimeException> body, final EntityIndexMap lost)
      throws SnapshotFormatException {
    final EntityIndexMap gained = emptied(gainedSet);
    for (int i = 0; i < staged.arrivedCount; i++) {
      final long remote = staged.arrived[i];
      if (Entity.isNull(remote) || Entity.isTombstone(remote)) {
        throw body.error("a gained entity is " + Entity.toString(remote));
      }
      if (remoteToLocal.containsKey(remote) && !lost.containsKey(remote)) {
        throw body.error(Entity.toString(remote) + " is gained but this replica holds it already");
      }
      if (gained.containsKey(remote)) {
        throw body.error(Entity.toString(remote) + " is gained twice");
      }
      gained.put(remote, 1);
    }
    return gained;
  }

  /** {@return the kept section of {@code storage}'s type, bound to {@code storage}} */
  private Section sectionFor(final Storage<?> storage) {
    final int id = storage.type().id();
    if (id >= sectionsByType.length) {
      sectionsByType = Arrays.copyOf(sectionsByType, Math.max(id + 1, 2 * sectionsByType.length));
    }
    if (null == sectionsByType[id]) {
      sectionsByType[id] = new Section(storage);
    }
    final Section section = sectionsByType[id];
    section.storage = storage;
    return section;
  }

  /**
   * Refuses a delta that loses an entity while a mirrored element keeps referring to it: an element
   * of a streamed storage (one the delta has a section for, or a type given to {@link #types}),
   * owned by a mapped entity the delta neither loses, sends again nor removes the component from,
   * whose {@code @EntityRef} field names the lost entity's local one, would name a destroyed entity
   * after the apply. The writer sends such elements again (with {@link Entity#NULL}), so only a
   * forged delta, or a reference written in place in an untracked type the writer was not told
   * about, trips it. One pass over the references of those storages, in a delta that loses entities
   * only; the hierarchy's links follow their own rule (see {@link #checkHierarchy}).
   */
  private void checkLostReferences(final BinaryInput<RuntimeException> in, final Staged staged)
      throws SnapshotFormatException {
    if (0 == staged.goneCount) {
      return;
    }
    final LongLongMap lostLocals = emptied(lostReferences.lost);
    for (int i = 0; i < staged.goneCount; i++) {
      final long remote = staged.gone[i];
      final long local = remoteToLocal.get(remote, Entity.NULL);
      if (registry.valid(local)) {
        lostLocals.put(local, remote);
      }
    }
    if (0 == lostLocals.size()) {
      return;
    }
    localsInverted = false;
    for (int s = 0; s < staged.sectionCount; s++) {
      checkLostReferences(in, staged.sections[s].storage, staged.sections[s]);
    }
    // The given types, through the kept key table (iterating the map would allocate).
    final StorageKeys keys = storageKeys();
    for (int k = 0; k < keys.storages.length; k++) {
      final Storage<?> given = keys.storages[k];
      if (!keys.given[k]) {
        continue;
      }
      final Storage<?> storage = registry.findStorage(given.type());
      if (null != storage && null == sectionOf(staged, storage)) {
        checkLostReferences(in, storage, null);
      }
    }
  }

  /**
   * Checks one streamed storage's references to the lost entities ({@code section} may be null).
   */
  private void checkLostReferences(
      final BinaryInput<RuntimeException> in, final Storage<?> storage, final Section section)
      throws SnapshotFormatException {
    if (Hierarchy.TYPE == storage.type() || storage.registry() != registry) {
      return;
    }
    final LongLongMap covered = emptied(lostReferences.covered);
    if (null != section) {
      for (int i = 0; i < section.entityCount; i++) {
        coverLocal(covered, section.entities[i]);
      }
      for (int i = 0; i < section.removedCount; i++) {
        coverLocal(covered, section.removed[i]);
      }
    }
    final LostReferences found = lostReferences;
    found.count = 0;
    storage.eachEntityRef(found);
    for (int i = 0; i < found.count; i++) {
      if (!localsInverted) {
        remoteToLocal.invertInto(emptied(localToRemote));
        localsInverted = true;
      }
      final long owner = found.owners[i];
      if (localToRemote.containsKey(owner)) {
        in.where = storage.describe() + ", field '" + found.fields[i] + "'";
        throw in.error(
            "it loses "
                + Entity.toString(found.lost.get(found.references[i], Entity.NULL))
                + " but not the element of "
                + Entity.toString(localToRemote.get(owner, Entity.NULL))
                + " whose field '"
                + found.fields[i]
                + "' refers to it, and does not send that element again: the reference would"
                + " name a destroyed entity (a reference written in place reaches a replica only"
                + " if its type is tracked or opted in to everyValue)");
      }
    }
  }

  private static Section sectionOf(final Staged staged, final Storage<?> storage) {
    for (int s = 0; s < staged.sectionCount; s++) {
      if (storage == staged.sections[s].storage) {
        return staged.sections[s];
      }
    }
    return null;
  }

  private void coverLocal(final LongLongMap covered, final long remote) {
    final long local = remoteToLocal.get(remote, Entity.NULL);
    if (!Entity.isNull(local)) {
      covered.put(local, 1);
    }
  }

  /** Collects the references to a lost entity held by elements the delta leaves as they are. */
  private static final class LostReferences implements dev.phalanx.ecs.EntityRefVisitor {
    // The local entities of the lost remote ones (to the remote), and those whose element the
    // storage's section sends again or removes.
    final LongLongMap lost = new LongLongMap(16);
    final LongLongMap covered = new LongLongMap(16);
    long[] owners = new long[0];
    long[] references = new long[0];
    String[] fields = new String[0];
    int count;

    @Override
    public void visit(final long owner, final String field, final long reference) {
      if (Entity.isNull(reference)
          || Entity.isTombstone(owner)
          || !lost.containsKey(reference)
          || lost.containsKey(owner)
          || covered.containsKey(owner)) {
        return;
      }
      if (count == owners.length) {
        owners = Arrays.copyOf(owners, Math.max(4, 2 * count));
        references = Arrays.copyOf(references, owners.length);
        fields = Arrays.copyOf(fields, owners.length);
      }
      owners[count] = owner;
      references[count] = reference;
      fields[count++] = field;
    }
  }

  /**
   * Checks the hierarchy the delta would leave (see {@link Hierarchy}'s delta check): no cycle, no
   * parent held without a node, whole lists consistent. Nothing changes.
   */
  private void checkHierarchy(final Staged staged) throws SnapshotFormatException {
    final Section nodes = hierarchySection(staged);
    if (null == nodes) {
      return;
    }
    final LongLongMap dropped = emptied(droppedLocals);
    for (int i = 0; i < staged.goneCount; i++) {
      dropped.put(remoteToLocal.get(staged.gone[i], Entity.NULL), 1);
    }
    for (int i = 0; i < nodes.removedCount; i++) {
      dropped.put(remoteToLocal.get(nodes.removed[i], Entity.NULL), 1);
    }
    hierarchyCheck.check(
        registry, nodes.entities, nodes.entityCount, nodes.values, keptLocal, held, isDropped);
  }

  private static LongLongMap emptied(final LongLongMap map) {
    map.clear();
    return map;
  }

  private static Section hierarchySection(final Staged staged) {
    for (int s = 0; s < staged.sectionCount; s++) {
      if (Hierarchy.TYPE == staged.sections[s].storage.type()) {
        return staged.sections[s];
      }
    }
    return null;
  }

  private void checkBase(final BinaryInput<RuntimeException> in, final Staged staged)
      throws SnapshotFormatException {
    if (0 == tick) {
      if (0 != staged.base) {
        throw in.error(
            "its base is tick " + staged.base + " but this replica holds nothing yet (tick 0)");
      }
    } else if (staged.stream == stream && staged.tick == tick && staged.base < tick) {
      throw in.error(
          "this replica applied this delta already (its base is tick "
              + staged.base
              + " and its tick "
              + tick
              + " is the replica's): a delta is applied once"
              + WRITE_FIRST);
    } else if (staged.stream != stream) {
      throw in.error("it comes from another writer than the deltas this replica applied");
    } else if (staged.base != tick) {
      throw in.error("its base is tick " + staged.base + " but this replica holds tick " + tick);
    }
    if (staged.tick <= staged.base) {
      throw in.error("its tick " + staged.tick + " is not after its base " + staged.base);
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Acknowledged deltas (AckedDeltaLoader): checked against the sequence, then made plain.
  // ---------------------------------------------------------------------------------------------

  /**
   * Decides what becomes of an acknowledged delta from its header: its sequence must follow its
   * baseline; it is stale if this replica applied its sequence or a newer one of its writer; it
   * lacks its baseline if it comes from another writer or names a baseline newer than the replica's
   * sequence (unless it is a resync, baseline 0, which applies on any state). Returns whether it is
   * applied.
   */
  private boolean checkSequence(final BinaryInput<RuntimeException> in, final Staged staged)
      throws SnapshotFormatException {
    if (staged.base < 0 || staged.tick <= staged.base) {
      throw in.error(
          "its sequence "
              + staged.tick
              + " is not after its baseline "
              + staged.base
              + " (a delta follows the baseline it is computed against)");
    }
    if (0 != tick && staged.stream == stream && staged.tick <= tick) {
      staged.outcome = AckedDeltaLoader.Outcome.STALE;
    } else if (0 == staged.base) {
      staged.outcome = AckedDeltaLoader.Outcome.RESYNCED;
    } else if (0 == tick || staged.stream != stream || staged.base > tick) {
      staged.outcome = AckedDeltaLoader.Outcome.NO_BASELINE;
    }
    return AckedDeltaLoader.Outcome.APPLIED == staged.outcome
        || AckedDeltaLoader.Outcome.RESYNCED == staged.outcome;
  }

  /**
   * Turns an acknowledged delta's entity lists, which say what each listed remote index holds now
   * whatever the replica holds there, into the plain lists on this replica's state: a lost index
   * loses the entity the replica holds there, if any; a gained entity the replica holds already is
   * kept (its values and removals still apply), one whose index holds another version replaces it.
   * A resync loses every entity the replica holds. The checks that follow are the plain ones.
   */
  private void normalize(final Staged staged) {
    int lost = 0;
    if (AckedDeltaLoader.Outcome.RESYNCED == staged.outcome) {
      for (int slot = 0; slot < heldAt.capacity(); slot++) {
        if (heldAt.keyAt(slot) >= 0) {
          normalized = DeltaWriter.push(normalized, lost++, heldAt.valueAt(slot));
        }
      }
    } else {
      for (int i = 0; i < staged.goneCount; i++) {
        final long holder = heldAt.get(Entity.index(staged.gone[i]), Entity.NULL);
        if (!Entity.isNull(holder)) {
          normalized = DeltaWriter.push(normalized, lost++, holder);
        }
      }
    }
    int gained = 0;
    for (int i = 0; i < staged.arrivedCount; i++) {
      final long remote = staged.arrived[i];
      final long holder =
          Entity.isNull(remote) ? Entity.NULL : heldAt.get(Entity.index(remote), Entity.NULL);
      if (holder == remote && AckedDeltaLoader.Outcome.RESYNCED != staged.outcome) {
        continue;
      }
      if (!Entity.isNull(holder) && AckedDeltaLoader.Outcome.RESYNCED != staged.outcome) {
        normalized = DeltaWriter.push(normalized, lost++, holder);
      }
      staged.arrived[gained++] = remote;
    }
    staged.arrivedCount = gained;
    final long[] swap = staged.gone;
    staged.gone = normalized;
    staged.goneCount = lost;
    normalized = swap;
  }

  /**
   * Keeps, of an acknowledged delta's removals from {@code storage}, those of entities the replica
   * keeps whose local entity has the component (the delta lists an entity sent whole under every
   * type it lacks); returns how many.
   */
  private int heldWith(
      final Storage<?> storage,
      final long[] removed,
      final int count,
      final EntityIndexMap lost,
      final EntityIndexMap gained) {
    final Storage<?> local = registry.findStorage(storage.type());
    int kept = 0;
    for (int i = 0; i < count; i++) {
      final long remote = removed[i];
      if (null != local
          && !lost.containsKey(remote)
          && !gained.containsKey(remote)
          && local.contains(remoteToLocal.get(remote, Entity.NULL))) {
        removed[kept++] = remote;
      }
    }
    return kept;
  }

  /**
   * Reads a list of entities into {@code into}, or a larger array if it is too short; returns the
   * array and leaves the count in {@link #readCount}.
   */
  private long[] entities(final BinaryInput<RuntimeException> in, final long[] into)
      throws SnapshotFormatException {
    final int count = in.count(in.getInt(), 8);
    final long[] list = into.length >= count ? into : new long[Math.max(count, 2 * into.length)];
    in.longs(list, 0, count);
    readCount = count;
    return list;
  }

  /**
   * The storages a section may name, by key: the registry's, the hierarchy's, and those of the
   * types given to {@link #types} (a type without a storage yet stands as a standalone storage
   * until the checked delta is applied: staging creates nothing in the registry). Kept from one
   * load to the next while the registry has as many storages and the given types are the same.
   */
  private StorageKeys storageKeys() {
    if (null != storageKeys
        && storageKeys.storageCount == registry.storageCount()
        && storageKeys.typeCount == types.size()) {
      return storageKeys;
    }
    final Map<String, Storage<?>> byKey = new LinkedHashMap<>();
    for (int i = 0; i < registry.storageCount(); i++) {
      final Storage<?> storage = registry.storageAt(i);
      byKey.put(SnapshotFormat.key(storage), storage);
    }
    byKey.putIfAbsent(SnapshotFormat.key(Hierarchy.TYPE), Hierarchy.TYPE.createStorage());
    for (final Map.Entry<String, ComponentType<?, ?>> given : types.entrySet()) {
      final Storage<?> existing = registry.findStorage(given.getValue());
      byKey.put(given.getKey(), null != existing ? existing : given.getValue().createStorage());
    }
    storageKeys = new StorageKeys(byKey, types, registry.storageCount(), types.size());
    return storageKeys;
  }

  /** The storages a section may name, and their keys' UTF-8 bytes, matched without decoding. */
  private static final class StorageKeys {
    final byte[][] names;
    final Storage<?>[] storages;
    // Whether the storage is that of a type given to types(...).
    final boolean[] given;
    final int storageCount;
    final int typeCount;

    StorageKeys(
        final Map<String, Storage<?>> byKey,
        final Map<String, ComponentType<?, ?>> givenTypes,
        final int storageCount,
        final int typeCount) {
      names = new byte[byKey.size()][];
      storages = new Storage<?>[byKey.size()];
      given = new boolean[byKey.size()];
      int k = 0;
      for (final Map.Entry<String, Storage<?>> entry : byKey.entrySet()) {
        names[k] = entry.getKey().getBytes(StandardCharsets.UTF_8);
        given[k] = givenTypes.containsKey(entry.getKey());
        storages[k++] = entry.getValue();
      }
      this.storageCount = storageCount;
      this.typeCount = typeCount;
    }
  }

  /** Whether the replica holds {@code remote} after the delta being staged. */
  private boolean heldAfter(final long remote) {
    return heldAfter(remote, lostSet, gainedSet);
  }

  private boolean heldAfter(
      final long remote, final EntityIndexMap lost, final EntityIndexMap gained) {
    return gained.containsKey(remote)
        || (remoteToLocal.containsKey(remote) && !lost.containsKey(remote));
  }

  /** The local handle of {@code remote} if the replica holds it before and after the delta. */
  private long keptLocal(final long remote) {
    return lostSet.containsKey(remote) ? Entity.NULL : remoteToLocal.get(remote, Entity.NULL);
  }

  private Section section(
      final BinaryInput<RuntimeException> in,
      final Section section,
      final EntityIndexMap lost,
      final EntityIndexMap gained)
      throws SnapshotFormatException {
    final Storage<?> storage = section.storage;
    final int fieldCount = in.count(in.getInt(), 5);
    if (fieldTargets.length < fieldCount) {
      fieldTargets = new int[Math.max(fieldCount, 2 * fieldTargets.length)];
      fieldCodes = new byte[fieldTargets.length];
      fieldConstants = new String[fieldTargets.length][];
      fieldNames = new String[fieldTargets.length];
    }
    for (int f = 0; f < fieldCount; f++) {
      fieldHeader(in, section, f);
    }
    section.values.replaceAll(DeltaLoader::absent);
    in.where = place.in(storage, ", its removals");
    section.removed = entities(in, section.removed);
    section.removedCount = readCount;
    if (acknowledged) {
      section.removedCount = heldWith(storage, section.removed, section.removedCount, lost, gained);
    }
    final EntityIndexMap listed = emptied(listedSet);
    checkRemovals(in, section.removed, section.removedCount, lost, gained, listed);
    in.where = place.in(storage, ", its elements");
    section.entities = entities(in, section.entities);
    section.entityCount = readCount;
    checkElements(in, section.entities, section.entityCount, lost, gained, listed);
    final int n = section.entityCount;
    for (int f = 0; f < fieldCount; f++) {
      in.where = place.field(storage, fieldNames[f]);
      final int t = fieldTargets[f];
      if (t < 0) {
        column(in, fieldCodes[f], n, fieldConstants[f], null, null);
        continue;
      }
      final SnapshotFormat.Column target = section.targets.get(t);
      final Object buffer = section.buffers.get(target.name());
      final Object values = column(in, fieldCodes[f], n, fieldConstants[f], target.type(), buffer);
      if (values != buffer) {
        section.buffers.put(target.name(), values);
      }
      if (SnapshotFormat.ENTITY == fieldCodes[f] && Hierarchy.TYPE != storage.type()) {
        checkReferences(in, section.entities, n, (long[]) values, target.name(), lost, gained);
      }
      section.values.put(target.name(), values);
    }
    in.where = place.in(storage, "");
    return section;
  }

  /** What a column a delta does not carry holds: nothing ({@code replaceAll}'s function). */
  private static Object absent(final String name, final Object values) {
    return null;
  }

  /**
   * Reads field {@code f}'s header into {@link #fieldTargets} (the replica's column of that name,
   * or -1 if it has none: the values are read and dropped), {@link #fieldCodes}, {@link
   * #fieldConstants} and {@link #fieldNames}, and checks it against the replica's column.
   */
  private void fieldHeader(
      final BinaryInput<RuntimeException> in, final Section section, final int f)
      throws SnapshotFormatException {
    final int t = in.getStringIndex(section.targetNames);
    final SnapshotFormat.Column target = t < 0 ? null : section.targets.get(t);
    fieldTargets[f] = t;
    fieldNames[f] = null == target ? in.lastString() : target.name();
    final String name = fieldNames[f];
    final byte code = in.getByte();
    fieldCodes[f] = code;
    fieldConstants[f] = null;
    if (code < SnapshotFormat.BOOLEAN || code > SnapshotFormat.CODEC) {
      throw in.error("field '" + name + "' has " + SnapshotFormat.typeName(code));
    }
    if (SnapshotFormat.ENUM == code || SnapshotFormat.CODEC == code) {
      final String className = in.getString();
      if (null != target && !target.type().getName().equals(className)) {
        throw in.error(
            "field '" + name + "' holds " + className + ", the replica's " + target.type());
      }
    }
    if (SnapshotFormat.ENUM == code) {
      final int n = in.count(in.getInt(), 4);
      final String[] constants = new String[n];
      for (int c = 0; c < n; c++) {
        constants[c] = in.getString();
      }
      fieldConstants[f] = constants;
    }
    if (null != target && target.code() != code) {
      throw in.error(
          "field '"
              + name
              + "' is "
              + SnapshotFormat.typeName(code)
              + " in the delta but "
              + SnapshotFormat.typeName(target.code())
              + " in the replica");
    }
    if (null != target && SnapshotFormat.CODEC == code && !codecs.containsKey(target.type())) {
      throw in.error("field '" + name + "' needs a ValueCodec for " + target.type().getName());
    }
  }

  /**
   * Checks that every reference of an {@code @EntityRef} field names {@link Entity#NULL} or an
   * entity the replica holds after the delta: the writer sends {@code NULL} for one the replica
   * does not get, so any other would be mapped to nothing.
   */
  private void checkReferences(
      final BinaryInput<RuntimeException> in,
      final long[] owners,
      final int count,
      final long[] references,
      final String field,
      final EntityIndexMap lost,
      final EntityIndexMap gained)
      throws SnapshotFormatException {
    for (int i = 0; i < count; i++) {
      final long reference = references[i];
      if (!Entity.isNull(reference) && !heldAfter(reference, lost, gained)) {
        throw in.error(
            "the element of "
                + Entity.toString(owners[i])
                + " refers in field '"
                + field
                + "' to "
                + Entity.toString(reference)
                + ", which the replica does not hold after the delta (a writer sends NULL for it)");
      }
    }
  }

  /** Checks that every entity losing the component is held, not gained, and listed once. */
  private void checkRemovals(
      final BinaryInput<RuntimeException> in,
      final long[] removed,
      final int count,
      final EntityIndexMap lost,
      final EntityIndexMap gained,
      final EntityIndexMap listed)
      throws SnapshotFormatException {
    for (int i = 0; i < count; i++) {
      final long remote = removed[i];
      if (!heldAfter(remote, lost, gained) || gained.containsKey(remote)) {
        throw in.error(Entity.toString(remote) + " loses the component but is not held");
      }
      if (listed.containsKey(remote)) {
        throw in.error(Entity.toString(remote) + " is listed twice");
      }
      listed.put(remote, 1);
    }
  }

  /** Checks that every entity with values is held after the delta and listed once. */
  private void checkElements(
      final BinaryInput<RuntimeException> in,
      final long[] entities,
      final int count,
      final EntityIndexMap lost,
      final EntityIndexMap gained,
      final EntityIndexMap listed)
      throws SnapshotFormatException {
    for (int i = 0; i < count; i++) {
      final long remote = entities[i];
      if (!heldAfter(remote, lost, gained)) {
        throw in.error(Entity.toString(remote) + " has values but is not held by the replica");
      }
      if (listed.containsKey(remote)) {
        throw in.error(Entity.toString(remote) + " is listed twice");
      }
      listed.put(remote, 1);
    }
  }

  /**
   * {@code set} emptied (O(1)), its flat span allowed as wide as the map's: staging reuses its
   * marks from one delta to the next, and the remote indices it marks are mostly mapped ones.
   */
  private EntityIndexMap emptied(final EntityIndexMap set) {
    set.clear();
    set.spanAtLeast(remoteToLocal.span());
    return set;
  }

  /**
   * Reads a column of {@code n} values into {@code buffer} when it is an array of the column's type
   * at least {@code n} long, else into a new one (twice as long as the last, for the next delta);
   * returns the array read into.
   */
  private Object column(
      final BinaryInput<RuntimeException> in,
      final byte code,
      final int n,
      final String[] constants,
      final Class<?> target,
      final Object buffer)
      throws SnapshotFormatException {
    final int width = SnapshotFormat.width(code);
    in.count(n, 0 == width ? 4 : width);
    return switch (code) {
      case SnapshotFormat.BOOLEAN -> readBooleans(in, n, buffer);
      case SnapshotFormat.BYTE -> readBytes(in, n, buffer);
      case SnapshotFormat.SHORT -> readShorts(in, n, buffer);
      case SnapshotFormat.CHAR -> readChars(in, n, buffer);
      case SnapshotFormat.INT -> readInts(in, n, buffer);
      case SnapshotFormat.LONG, SnapshotFormat.ENTITY -> readLongs(in, n, buffer);
      case SnapshotFormat.FLOAT -> readFloats(in, n, buffer);
      case SnapshotFormat.DOUBLE -> readDoubles(in, n, buffer);
      case SnapshotFormat.STRING -> readStrings(in, n, objects(buffer, n));
      case SnapshotFormat.ENUM -> readEnums(in, n, constants, target, objects(buffer, n));
      default -> readCodecValues(in, n, target, objects(buffer, n));
    };
  }

  /** The length of the array that replaces a reused one too short for {@code n} values. */
  private static int grown(final int n, final int length) {
    return Math.max(n, 2 * length);
  }

  private static Object[] objects(final Object buffer, final int n) {
    if (buffer instanceof Object[] reused && reused.length >= n) {
      return reused;
    }
    return new Object[grown(n, buffer instanceof Object[] old ? old.length : 0)];
  }

  /** A column of booleans, each a byte that must be 0 or 1. */
  private static boolean[] readBooleans(
      final BinaryInput<RuntimeException> in, final int n, final Object buffer)
      throws SnapshotFormatException {
    final boolean[] values =
        buffer instanceof boolean[] reused && reused.length >= n
            ? reused
            : new boolean[grown(n, buffer instanceof boolean[] old ? old.length : 0)];
    for (int i = 0; i < n; i++) {
      final byte b = in.getByte();
      if (0 != b && 1 != b) {
        throw in.error("a boolean is " + b);
      }
      values[i] = 1 == b;
    }
    return values;
  }

  private static byte[] readBytes(
      final BinaryInput<RuntimeException> in, final int n, final Object buffer)
      throws SnapshotFormatException {
    final byte[] values =
        buffer instanceof byte[] reused && reused.length >= n
            ? reused
            : new byte[grown(n, buffer instanceof byte[] old ? old.length : 0)];
    in.getBytes(values, 0, n);
    return values;
  }

  private static short[] readShorts(
      final BinaryInput<RuntimeException> in, final int n, final Object buffer)
      throws SnapshotFormatException {
    final short[] values =
        buffer instanceof short[] reused && reused.length >= n
            ? reused
            : new short[grown(n, buffer instanceof short[] old ? old.length : 0)];
    in.shorts(values, 0, n);
    return values;
  }

  private static char[] readChars(
      final BinaryInput<RuntimeException> in, final int n, final Object buffer)
      throws SnapshotFormatException {
    final char[] values =
        buffer instanceof char[] reused && reused.length >= n
            ? reused
            : new char[grown(n, buffer instanceof char[] old ? old.length : 0)];
    in.chars(values, 0, n);
    return values;
  }

  private static int[] readInts(
      final BinaryInput<RuntimeException> in, final int n, final Object buffer)
      throws SnapshotFormatException {
    final int[] values =
        buffer instanceof int[] reused && reused.length >= n
            ? reused
            : new int[grown(n, buffer instanceof int[] old ? old.length : 0)];
    in.ints(values, 0, n);
    return values;
  }

  private static long[] readLongs(
      final BinaryInput<RuntimeException> in, final int n, final Object buffer)
      throws SnapshotFormatException {
    final long[] values =
        buffer instanceof long[] reused && reused.length >= n
            ? reused
            : new long[grown(n, buffer instanceof long[] old ? old.length : 0)];
    in.longs(values, 0, n);
    return values;
  }

  private static float[] readFloats(
      final BinaryInput<RuntimeException> in, final int n, final Object buffer)
      throws SnapshotFormatException {
    final float[] values =
        buffer instanceof float[] reused && reused.length >= n
            ? reused
            : new float[grown(n, buffer instanceof float[] old ? old.length : 0)];
    in.floats(values, 0, n);
    return values;
  }

  private static double[] readDoubles(
      final BinaryInput<RuntimeException> in, final int n, final Object buffer)
      throws SnapshotFormatException {
    final double[] values =
        buffer instanceof double[] reused && reused.length >= n
            ? reused
            : new double[grown(n, buffer instanceof double[] old ? old.length : 0)];
    in.doubles(values, 0, n);
    return values;
  }

  /** A column of strings, each written by {@code putChars}. */
  private static Object[] readStrings(
      final BinaryInput<RuntimeException> in, final int n, final Object[] values)
      throws SnapshotFormatException {
    for (int i = 0; i < n; i++) {
      values[i] = in.getChars();
    }
    return values;
  }

  /**
   * A column of enum constants, each read as its index in the delta's {@code constants} and
   * resolved by name in {@code target}; all {@code null} when the replica has no such column.
   */
  private static Object[] readEnums(
      final BinaryInput<RuntimeException> in,
      final int n,
      final String[] constants,
      final Class<?> target,
      final Object[] values)
      throws SnapshotFormatException {
    for (int i = 0; i < n; i++) {
      final int index = in.getInt();
      values[i] = null;
      if (-1 == index) {
        continue;
      }
      if (index < 0 || index >= constants.length) {
        throw in.error("enum index " + index + " of " + constants.length + " constants");
      }
      values[i] = null == target ? null : constant(in, target, constants[index]);
    }
    return values;
  }

  /**
   * A column of codec-encoded values, each read by the replica's {@code ValueCodec} for {@code
   * target}; skipped (all {@code null}) when the replica has no such column.
   */
  private Object[] readCodecValues(
      final BinaryInput<RuntimeException> in,
      final int n,
      final Class<?> target,
      final Object[] values)
      throws SnapshotFormatException {
    final ValueCodec<?> codec = null == target ? null : codecs.get(target);
    for (int i = 0; i < n; i++) {
      final int length = in.getInt();
      values[i] = null;
      if (-1 == length) {
        continue;
      }
      in.count(length, 1);
      if (null != codec) {
        try (DataInputStream data = new DataInputStream(in.peek(length))) {
          values[i] = codec.read(data);
        } catch (final IOException | RuntimeException e) {
          throw in.error("the codec failed", e);
        }
      }
      in.skip(length);
    }
    return values;
  }

  private static Object constant(
      final BinaryInput<RuntimeException> in, final Class<?> type, final String name)
      throws SnapshotFormatException {
    for (final Object constant : type.getEnumConstants()) {
      if (((Enum<?>) constant).name().equals(name)) {
        return constant;
      }
    }
    throw in.error("enum " + type.getName() + " has no constant " + name);
  }

  // ---------------------------------------------------------------------------------------------
  // Applying a checked delta.
  // ---------------------------------------------------------------------------------------------

  /**
   * Applies a checked delta as one change set: stages every destruction, creation, removal,
   * insertion and value write (the map then names the staged handles of the gained entities, and no
   * longer names the lost ones), commits, then settles the map on the entities the commit created
   * and takes the delta's tick. A refused commit changes nothing: the map is put back, the tick
   * stays, and the refusal is thrown. Otherwise what listeners threw is rethrown at the end.
   */
  private void apply(final Staged staged) {
    checkUnlocked(staged);
    remaps.forget();
    // Created before anything is staged, as a change set creates a storage it needs: a refused
    // delta may leave the hierarchy in place, with no node.
    final Hierarchy hierarchy = null == hierarchySection(staged) ? null : Hierarchy.of(registry);
    try {
      stageApply(staged);
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
    for (int i = 0; i < staged.arrivedCount; i++) {
      final long remote = staged.arrived[i];
      remoteToLocal.put(remote, changes.entityOf(remoteToLocal.get(remote, Entity.NULL)));
    }
    remaps.forget();
    tick = staged.tick;
    stream = staged.stream;
    if (acknowledged) {
      for (int i = 0; i < staged.goneCount; i++) {
        heldAt.remove(Entity.index(staged.gone[i]));
      }
      for (int i = 0; i < staged.arrivedCount; i++) {
        heldAt.put(Entity.index(staged.arrived[i]), staged.arrived[i]);
      }
    }
    Failures.rethrow(failure);
  }

  /** Stages the whole delta into {@link #changes}, updating the map (undo logged). */
  private void stageApply(final Staged staged) {
    for (int i = 0; i < staged.goneCount; i++) {
      final long remote = staged.gone[i];
      final long local = remoteToLocal.get(remote, Entity.NULL);
      remap(remote, Entity.NULL);
      if (registry.valid(local)) {
        changes.destroy(local);
      }
    }
    int indices = 0;
    for (int i = 0; i < staged.arrivedCount; i++) {
      indices = Math.max(indices, Entity.index(staged.arrived[i]) + 1);
    }
    remoteToLocal.reserve(indices, staged.arrivedCount);
    for (int i = 0; i < staged.arrivedCount; i++) {
      remap(staged.arrived[i], changes.create());
    }
    for (int s = 0; s < staged.sectionCount; s++) {
      stageSection(staged.sections[s]);
    }
  }

  /**
   * Stages one section: the removals of the component from the entities listed as losing it, then
   * per element sent a value write if the entity has the component, else an insertion. An entity a
   * listener destroyed since an earlier delta (still mapped) is skipped.
   */
  private void stageSection(final Section section) {
    final ComponentType<?, ?> type = section.storage.type();
    // The registry's storage, or null if it has none yet (the commit creates it).
    final Storage<?> storage = registry.findStorage(type);
    writer.bind(section);
    for (int i = 0; i < section.removedCount; i++) {
      final long local = remoteToLocal.get(section.removed[i], Entity.NULL);
      if (registry.valid(local)) {
        changes.remove(local, type);
      }
    }
    final long[] entities = section.entities;
    final int n = section.entityCount;
    if (targets.length < n) {
      targets = new long[n];
      rows = new int[n];
    }
    // Writes from the front of the scratch arrays, insertions from the back.
    int writes = 0;
    int inserts = n;
    for (int i = 0; i < n; i++) {
      final long local = remoteToLocal.get(entities[i], Entity.NULL);
      // A local entity a listener destroyed (still mapped) is skipped.
      // One lookup first: a storage holds live entities only.
      if (null != storage && storage.contains(local)) {
        targets[writes] = local;
        rows[writes++] = i;
      } else if (ChangeSet.isStaged(local) || registry.valid(local)) {
        targets[--inserts] = local;
        rows[inserts] = i;
      }
    }
    // The writes first: the insertions may move elements, and their positions would be lost.
    if (0 != writes) {
      changes.write(targets, 0, writes, type, writer, rows);
    }
    for (int k = n - 1; k >= inserts; k--) {
      changes.emplace(targets[k], type, writer, rows[k]);
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

  private void checkUnlocked(final Staged staged) {
    if (0 != staged.goneCount) {
      for (int i = 0; i < registry.storageCount(); i++) {
        checkUnlocked(registry.storageAt(i));
      }
    }
    for (int s = 0; s < staged.sectionCount; s++) {
      checkUnlocked(staged.sections[s].storage);
    }
  }

  private static void checkUnlocked(final Storage<?> storage) {
    if (null != storage.registry() && (storage.isLocked() || storage.isIterated())) {
      throw new ConcurrentModificationException(
          "cannot apply a delta: " + storage.describe() + " is locked or iterated");
    }
  }

  /**
   * Writes one staged element into a storage position, mapping entity references: the {@link
   * ChangeSet.RowWriter} of every insertion and write an apply stages, one per loader, the row
   * being the element's index in its section. The staged values are looked up once per section, in
   * the storage's column order ({@link #bind}), and kept by component type id until the apply ends.
   */
  private static final class Writer implements ColumnVisitor, ChangeSet.RowWriter {
    private final EntityIndexMap map;
    private Section section;
    // Per component type id, the staged values of each column in eachColumn order (null for a
    // column the delta lacks); the arrays are kept from one apply to the next, emptied.
    private Object[][] bound = new Object[16][];
    // While collecting, the array being filled and its count.
    private Object[] collected;
    private int columnCount;
    private boolean collecting;
    // The storage of the element being written, its bound values and page layout.
    private Storage<?> storage;
    private Object[] values;
    private int shift;
    private int mask;
    private int column;
    // The elements being written: their positions and staged rows, and how many.
    private int[] positions;
    private int[] rows;
    private int count;
    private final int[] onePosition = new int[1];
    private final int[] oneRow = new int[1];

    Writer(final EntityIndexMap remoteToLocal) {
      this.map = remoteToLocal;
    }

    /** Binds {@code staged}'s values for writes into its type. */
    void bind(final Section staged) {
      final int id = staged.storage.type().id();
      if (id >= bound.length) {
        bound = Arrays.copyOf(bound, Math.max(id + 1, 2 * bound.length));
      }
      section = staged;
      collected = null == bound[id] ? new Object[8] : bound[id];
      columnCount = 0;
      collecting = true;
      staged.storage.columns(this);
      collecting = false;
      bound[id] = collected;
      collected = null;
      section = null;
      storage = null;
    }

    /** Forgets the apply's values, keeping the arrays. */
    void clear() {
      for (final Object[] columns : bound) {
        if (null != columns) {
          Arrays.fill(columns, null);
        }
      }
      storage = null;
      values = null;
    }

    @Override
    public void write(final Storage<?> target, final int position, final int row) {
      onePosition[0] = position;
      oneRow[0] = row;
      writeAll(target, onePosition, oneRow, 1);
    }

    /** Writes every element of the run column by column, each page array fetched once. */
    @Override
    public void writeAll(
        final Storage<?> target, final int[] positions, final int[] rows, final int count) {
      if (target != storage) {
        storage = target;
        values = bound[target.type().id()];
        shift = target.pageShift();
        mask = target.pageSize() - 1;
      }
      this.positions = positions;
      this.rows = rows;
      this.count = count;
      column = 0;
      target.columns(this);
    }

    /** While collecting, records column {@code name}'s staged values and returns true. */
    private boolean collect(final String name) {
      if (!collecting) {
        return false;
      }
      if (columnCount == collected.length) {
        collected = Arrays.copyOf(collected, 2 * columnCount);
      }
      collected[columnCount++] = section.values.get(name);
      return true;
    }

    /** The staged values of the next column. */
    private Object next() {
      return values[column++];
    }

    @Override
    public void booleans(final String name, final boolean[][] pages) {
      if (collect(name)) {
        return;
      }
      final boolean[] data = (boolean[]) next();
      for (int k = 0; k < count; k++) {
        final int p = positions[k];
        pages[p >>> shift][p & mask] = null != data && data[rows[k]];
      }
    }

    @Override
    public void bytes(final String name, final byte[][] pages) {
      if (collect(name)) {
        return;
      }
      final byte[] data = (byte[]) next();
      for (int k = 0; k < count; k++) {
        final int p = positions[k];
        pages[p >>> shift][p & mask] = null == data ? 0 : data[rows[k]];
      }
    }

    @Override
    public void shorts(final String name, final short[][] pages) {
      if (collect(name)) {
        return;
      }
      final short[] data = (short[]) next();
      for (int k = 0; k < count; k++) {
        final int p = positions[k];
        pages[p >>> shift][p & mask] = null == data ? 0 : data[rows[k]];
      }
    }

    @Override
    public void chars(final String name, final char[][] pages) {
      if (collect(name)) {
        return;
      }
      final char[] data = (char[]) next();
      for (int k = 0; k < count; k++) {
        final int p = positions[k];
        pages[p >>> shift][p & mask] = null == data ? 0 : data[rows[k]];
      }
    }

    @Override
    public void ints(final String name, final int[][] pages) {
      if (collect(name)) {
        return;
      }
      final int[] data = (int[]) next();
      for (int k = 0; k < count; k++) {
        final int p = positions[k];
        pages[p >>> shift][p & mask] = null == data ? 0 : data[rows[k]];
      }
    }

    @Override
    public void longs(final String name, final long[][] pages, final boolean entityRef) {
      if (collect(name)) {
        return;
      }
      final long[] data = (long[]) next();
      for (int k = 0; k < count; k++) {
        final int p = positions[k];
        final long value = null == data ? (entityRef ? Entity.NULL : 0L) : data[rows[k]];
        pages[p >>> shift][p & mask] =
            !entityRef || Entity.isNull(value) ? value : map.get(value, Entity.NULL);
      }
    }

    @Override
    public void floats(final String name, final float[][] pages) {
      if (collect(name)) {
        return;
      }
      final float[] data = (float[]) next();
      for (int k = 0; k < count; k++) {
        final int p = positions[k];
        pages[p >>> shift][p & mask] = null == data ? 0f : data[rows[k]];
      }
    }

    @Override
    public void doubles(final String name, final double[][] pages) {
      if (collect(name)) {
        return;
      }
      final double[] data = (double[]) next();
      for (int k = 0; k < count; k++) {
        final int p = positions[k];
        pages[p >>> shift][p & mask] = null == data ? 0d : data[rows[k]];
      }
    }

    @Override
    public void objects(final String name, final Class<?> type, final Object[][] pages) {
      if (collect(name)) {
        return;
      }
      final Object[] data = (Object[]) next();
      for (int k = 0; k < count; k++) {
        final int p = positions[k];
        pages[p >>> shift][p & mask] = null == data ? null : data[rows[k]];
      }
    }
  }
}

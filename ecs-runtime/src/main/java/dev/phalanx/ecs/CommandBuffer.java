package dev.phalanx.ecs;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Structural changes recorded now and applied later, at a sync point the user chooses: the way to
 * destroy what died during a pass, spawn from a loop body, or change the world from a parallel
 * iteration, where direct changes are refused.
 *
 * <h2>Recording</h2>
 *
 * <p>{@link #create()} reserves an entity: it returns a <em>reserved handle</em> that later
 * commands of the same buffer (or of the same {@link CommandBuffers}) may target, and that becomes
 * a real entity when the buffer is applied. A handle is valid until its buffer is applied or
 * cleared: recording a command that names a handle of another buffer (of another set, or
 * standalone), or one handed out before the last apply or clear, throws {@link
 * IllegalArgumentException} and records nothing. {@link #emplace}, {@link #replace}, {@link
 * #remove}, {@link #erase}, {@link #destroy}, {@link #destroyTree} and {@link #attach} record a
 * change of an existing or reserved entity. Generated storages add a typed form, {@code
 * positions.emplace(commands, entity, x, y)}, that records the fields as primitives (no component
 * object, no boxing). Recording reads nothing of the world and allocates nothing once the buffer's
 * arrays have grown.
 *
 * <h2>Applying</h2>
 *
 * <p>{@link #apply()} first materializes the reserved entities in reservation order, then applies
 * every command in recording order, then empties the buffer (keeping its arrays). It is refused
 * (before anything changes) while any storage of the registry is locked or iterated: apply between
 * passes, not inside one. Each command is tolerant, so that a buffer is never half-applied:
 *
 * <ul>
 *   <li>a command whose target is dead (destroyed since recording, or never created) is skipped and
 *       counted ({@link #skipped()});
 *   <li>{@code emplace} on an entity that already has the component replaces it; {@code replace}
 *       and {@code erase} of a component the entity lacks are skipped and counted; {@code remove}
 *       of a missing component does nothing;
 *   <li>listeners' exceptions do not stop it: every command is applied, and the first exception is
 *       rethrown at the end with the later ones suppressed.
 * </ul>
 *
 * <p>A run of consecutive {@code destroy} commands that nothing can observe (no storage has a
 * destroy or removal listener, and every group is an owning group that spans its owned storages
 * alone) is applied as one batch, storage by storage, as {@link Registry#destroy(long[], int, int)}
 * does: the same result as one by one, at about half the cost per entity. Record the destroys of a
 * pass together to get it.
 *
 * <h2>Threading</h2>
 *
 * <p>A buffer is not thread-safe: give each thread, or each run of a parallel iteration, its own
 * (see {@link CommandBuffers}, whose apply order does not depend on the number of threads).
 */
public final class CommandBuffer {

  // Reserved handles: index bits with the top bit set (never a live index: indices stop at
  // Entity.MAX_INDEX), the buffer's id in the other 31; the version bits count reservations.
  private static final int RESERVED_BIT = 0x8000_0000;

  // Buffer ids: drawn from one counter for every buffer of the JVM, so that no two buffers share
  // one until 2^31 have been drawn, and drawn again when a buffer that handed out handles is
  // emptied, so that its old handles match no buffer.
  private static final AtomicInteger NEXT_ID = new AtomicInteger();

  private static final byte EMPLACE = 0;
  private static final byte REPLACE = 1;
  private static final byte REMOVE = 2;
  private static final byte ERASE = 3;
  private static final byte DESTROY = 4;
  private static final byte DESTROY_TREE = 5;
  private static final byte FIELDS = 6;
  private static final byte ATTACH = 7;
  private static final String[] OPERATIONS = {
    "emplace", "replace", "remove", "erase", "destroy", "destroyTree", "emplace", "attach"
  };
  private static final int OP_SHIFT = 24;
  private static final int TYPE_MASK = (1 << OP_SHIFT) - 1;
  private static final int NO_TYPE = TYPE_MASK;

  private final Registry registry;
  // The set this buffer belongs to, whose buffers resolve each other's handles; null if
  // standalone.
  private final CommandBuffers set;
  // This buffer's id in its reserved handles (see NEXT_ID). Changed only by empty(), which runs
  // when no iteration records.
  private int id = nextId();
  // Each command's operation (top 8 bits) and type id (low 24 bits; NO_TYPE for none), in one int.
  private int[] codes = new int[16];
  private long[] targets = new long[16];
  // The types by dense id: commands store ids, not references.
  private ComponentType<?, ?>[] typesById = new ComponentType<?, ?>[16];
  // The registry's storages by type id, filled as commands are applied (a storage never changes).
  private Storage<?>[] storagesById = new Storage<?>[16];
  // Typed field recordings of generated storages: where each command's words and references start.
  // How many words and references a typed recording of each type (by id) holds, learned when the
  // recording ends (at the next command; a last command's size is never needed): no per-command
  // payload offsets are stored.
  private int[] fieldWords = unknownSizes(16);
  private int[] fieldRefs = unknownSizes(16);
  private int pendingFieldsType = -1;
  private int pendingWordStart;
  private int pendingRefStart;
  private long[] words = new long[64];
  private int wordCount;
  private Object[] refs = new Object[16];
  private int refCount;
  private int readWord;
  private int readRef;
  // The set this buffer belongs to while it is applied, to resolve reserved handles of its
  // siblings.
  private CommandBuffers siblingsInApply;
  private int count;
  private int reserved;
  // The entities the reserved handles became, valid from materialization until the next clear.
  private long[] materialized = new long[16];
  private int skipped;

  /**
   * Creates an empty buffer that applies to {@code registry}.
   *
   * @param registry the registry that {@link #apply()} changes
   */
  public CommandBuffer(final Registry registry) {
    this(registry, null);
  }

  CommandBuffer(final Registry registry, final CommandBuffers set) {
    this.registry = registry;
    this.set = set;
  }

  private static int nextId() {
    return NEXT_ID.getAndIncrement() & ~RESERVED_BIT;
  }

  /** {@return the id in this buffer's current reserved handles} */
  int id() {
    return id;
  }

  /** {@return the number of commands recorded and not yet applied} */
  public int size() {
    return count;
  }

  /** {@return whether nothing is recorded} */
  public boolean isEmpty() {
    return 0 == count && 0 == reserved;
  }

  /**
   * {@return the number of commands the last {@link #apply()} skipped (dead or missing targets)}
   */
  public int skipped() {
    return skipped;
  }

  /**
   * {@return whether {@code entity} is a reserved handle (from any buffer) rather than an entity}
   *
   * @param entity any handle
   */
  public static boolean isReserved(final long entity) {
    return !Entity.isNull(entity) && 0 != (Entity.index(entity) & RESERVED_BIT);
  }

  // ---------------------------------------------------------------------------------------------
  // Recording.
  // ---------------------------------------------------------------------------------------------

  /**
   * Reserves an entity, created when the buffer is applied; returns its reserved handle.
   *
   * @return a reserved handle, which this buffer's later commands may name; it becomes the created
   *     entity when the buffer is applied
   */
  public long create() {
    return Entity.of(RESERVED_BIT | id, reserved++);
  }

  /**
   * Records adding {@code value} of {@code type} to {@code entity} (replacing it if the entity has
   * one by then).
   *
   * @param <T> the component type
   * @param entity the target: an entity, or a handle reserved by {@link #create()}
   * @param type the component type's key
   * @param value the component to add
   * @throws NullPointerException if {@code type} is null, or {@code value} is null for a type that
   *     stores instances
   */
  public <T> void emplace(final long entity, final ComponentType<T, ?> type, final T value) {
    final Object checked = checkValue(type, value);
    record(EMPLACE, entity, type);
    putValue(checked);
  }

  /**
   * Records replacing the component of {@code entity}; skipped if it has none by then.
   *
   * @param <T> the component type
   * @param entity the target: an entity, or a handle reserved by {@link #create()}
   * @param type the component type's key
   * @param value the new component
   */
  public <T> void replace(final long entity, final ComponentType<T, ?> type, final T value) {
    final Object checked = checkValue(type, value);
    record(REPLACE, entity, type);
    putValue(checked);
  }

  /**
   * Records removing the component of {@code entity} if it has one then.
   *
   * @param entity the target: an entity, or a handle reserved by {@link #create()}
   * @param type the component type's key
   */
  public void remove(final long entity, final ComponentType<?, ?> type) {
    record(REMOVE, entity, checkType(type));
  }

  /**
   * Records removing the component of {@code entity}; skipped (and counted) if it has none then.
   *
   * @param entity the target: an entity, or a handle reserved by {@link #create()}
   * @param type the component type's key
   */
  public void erase(final long entity, final ComponentType<?, ?> type) {
    record(ERASE, entity, checkType(type));
  }

  /**
   * Records destroying {@code entity}.
   *
   * @param entity the target: an entity, or a handle reserved by {@link #create()}
   */
  public void destroy(final long entity) {
    record(DESTROY, entity, null);
  }

  /**
   * Records making {@code child} a child of {@code parent} in the registry's {@link Hierarchy}
   * (either may be a reserved handle). Applied as {@link Hierarchy#reparent}; skipped and counted
   * if either is dead by then or it would make a cycle.
   *
   * @param child the entity to attach, or a reserved handle
   * @param parent its new parent, or a reserved handle
   */
  public void attach(final long child, final long parent) {
    checkHandle(parent, "attach");
    record(ATTACH, child, null);
    putWord(parent);
  }

  /**
   * Records destroying {@code entity} and its descendants in the registry's {@link Hierarchy}.
   *
   * @param entity the root of the subtree to destroy, or a reserved handle
   */
  public void destroyTree(final long entity) {
    record(DESTROY_TREE, entity, null);
  }

  // ---------------------------------------------------------------------------------------------
  // For generated code: typed field recording. A generated storage's emplace(commands, entity,
  // fields...) calls beginFields, then putWord or putRef once per field in declaration order; on
  // apply, the runtime calls the storage's applyRecorded(entity, commands), which reads them back
  // with nextWord and nextRef in the same order. Nothing is boxed.
  // ---------------------------------------------------------------------------------------------

  /**
   * Starts recording the fields of a typed emplace of {@code storage}'s component on {@code
   * entity}. For generated code.
   *
   * @param entity the target: an entity, or a reserved handle
   * @param storage the generated storage whose {@code applyRecorded} reads the fields back
   */
  public void beginFields(final long entity, final Storage<?> storage) {
    final ComponentType<?, ?> type = storage.type();
    record(FIELDS, entity, type);
    final int id = type.id();
    if (id >= fieldWords.length || fieldWords[id] < 0) {
      // The first recording of this type: learn its size when it ends.
      pendingFieldsType = id;
      pendingWordStart = wordCount;
      pendingRefStart = refCount;
    }
  }

  private static int[] unknownSizes(final int length) {
    final int[] sizes = new int[length];
    Arrays.fill(sizes, -1);
    return sizes;
  }

  /** Learns the payload size of the typed recording that just ended. */
  private void endFields() {
    final int type = pendingFieldsType;
    if (type >= fieldWords.length) {
      final int length = Math.max(type + 1, fieldWords.length * 2);
      final int[] words = unknownSizes(length);
      final int[] refs = unknownSizes(length);
      System.arraycopy(fieldWords, 0, words, 0, fieldWords.length);
      System.arraycopy(fieldRefs, 0, refs, 0, fieldRefs.length);
      fieldWords = words;
      fieldRefs = refs;
    }
    fieldWords[type] = wordCount - pendingWordStart;
    fieldRefs[type] = refCount - pendingRefStart;
    pendingFieldsType = -1;
  }

  /**
   * Records one primitive field's bits (see {@link #beginFields}). For generated code.
   *
   * @param bits the field's value as raw bits ({@code Float.floatToRawIntBits} and the like)
   */
  public void putWord(final long bits) {
    if (wordCount == words.length) {
      words = Arrays.copyOf(words, wordCount * 2);
    }
    words[wordCount++] = bits;
  }

  /**
   * Records one reference field (see {@link #beginFields}). For generated code.
   *
   * @param value the field's value, possibly {@code null}
   */
  public void putRef(final Object value) {
    if (refCount == refs.length) {
      refs = Arrays.copyOf(refs, refCount * 2);
    }
    refs[refCount++] = value;
  }

  /**
   * Reads back the next primitive field of the command being applied. For generated code.
   *
   * @return the field's bits, as recorded by {@link #putWord}
   */
  public long nextWord() {
    return words[readWord++];
  }

  /**
   * Reads back the next reference field of the command being applied. For generated code.
   *
   * @return the field's value, as recorded by {@link #putRef}
   */
  public Object nextRef() {
    return refs[readRef++];
  }

  // ---------------------------------------------------------------------------------------------
  // Applying.
  // ---------------------------------------------------------------------------------------------

  /**
   * Applies the buffer (see the class comment), then empties it.
   *
   * @throws java.util.ConcurrentModificationException if a storage of the registry is locked or
   *     iterated; nothing is applied and the buffer is kept
   */
  public void apply() {
    checkSyncPoint(registry);
    materialize();
    final Throwable failure = applyCommands(null, null);
    clear();
    Failures.rethrow(failure);
  }

  /** Forgets every recorded command and reservation; the arrays are kept for reuse. */
  public void clear() {
    if (empty() && null != set) {
      set.idChanged();
    }
  }

  /**
   * Empties the buffer as {@link #clear()} does, without telling the set of a new id (the set's
   * apply sorts its ids itself); returns whether a new id was drawn.
   */
  boolean empty() {
    Arrays.fill(refs, 0, refCount, null);
    count = 0;
    // The handles handed out since the last clear must not resolve to the next ones.
    final boolean renumbered = reserved > 0;
    if (renumbered) {
      id = nextId();
    }
    reserved = 0;
    wordCount = 0;
    refCount = 0;
    pendingFieldsType = -1;
    return renumbered;
  }

  /** Throws unless no storage of {@code registry} is locked or iterated. */
  static void checkSyncPoint(final Registry registry) {
    for (int i = 0; i < registry.storageCount(); i++) {
      registry.storageAt(i).checkRearrange("apply commands while an iteration or a lock holds");
    }
  }

  /** Creates the reserved entities, in reservation order. */
  void materialize() {
    if (reserved > materialized.length) {
      materialized = new long[Math.max(reserved, materialized.length * 2)];
    }
    if (reserved > 0) {
      registry.create(materialized, 0, reserved);
    }
    skipped = 0;
  }

  /**
   * Applies every command; reserved handles are resolved in this buffer or, when {@code siblings}
   * is given, in the sibling buffer of their key. Returns {@code failure} or the first listener
   * exception.
   */
  Throwable applyCommands(Throwable failure, final CommandBuffers siblings) {
    siblingsInApply = siblings;
    // Commands consume their payload in order: the read cursors are reset only when one is skipped
    // or fails part-way.
    readWord = 0;
    readRef = 0;
    // The end of a run of destroys found observed: its commands apply one by one, and the run is
    // not measured again at each of them (which would make a long run quadratic).
    int oneByOneUntil = 0;
    for (int i = 0; i < count; i++) {
      if (i >= oneByOneUntil && DESTROY == (byte) (codes[i] >>> OP_SHIFT)) {
        final int end = destroyRunEnd(i);
        if (end - i > 1 && registry.unobserved()) {
          applyDestroyRun(i, end, siblings);
          i = end - 1;
          continue;
        }
        oneByOneUntil = end;
      }
      final int firstWord = readWord;
      final int firstRef = readRef;
      final long target = resolve(targets[i], siblings);
      if (Entity.isNull(target) || !registry.valid(target)) {
        skipped++;
        skipPayload(i, firstWord, firstRef);
        continue;
      }
      try {
        final int code = codes[i];
        final int typeId = code & TYPE_MASK;
        final byte op = (byte) (code >>> OP_SHIFT);
        if (FIELDS == op) {
          // The common case, kept out of the switch: a typed emplace recorded by a generated
          // storage.
          storageOf(typeId).applyRecorded(target, this);
        } else {
          failure = applyOne(op, target, NO_TYPE == typeId ? null : typesById[typeId], failure);
        }
      } catch (final RuntimeException | Error thrown) {
        failure = Failures.add(failure, thrown);
        skipPayload(i, firstWord, firstRef);
      }
    }
    return failure;
  }

  /** Returns the end of the run of destroy commands that starts at {@code from}. */
  private int destroyRunEnd(final int from) {
    int end = from + 1;
    while (end < count && DESTROY == (byte) (codes[end] >>> OP_SHIFT)) {
      end++;
    }
    return end;
  }

  /**
   * Applies the destroy commands {@code [from, to)}, when nothing can observe a destroy (no
   * listener, iteration or destroy in progress, no group but spanning owning groups), as one batch,
   * storage by storage ({@link Registry#destroy(long[], int, int)}'s unobserved path): the result
   * one by one would give, each dead or repeated target skipped and counted. The run's resolved
   * live targets overwrite its own slots of {@code targets}, which nothing reads after this apply.
   * Destroys carry no payload.
   */
  private void applyDestroyRun(final int from, final int to, final CommandBuffers siblings) {
    int live = from;
    for (int i = from; i < to; i++) {
      final long target = resolve(targets[i], siblings);
      if (Entity.isNull(target) || !registry.valid(target)) {
        skipped++;
      } else {
        targets[live++] = target;
      }
    }
    skipped += (live - from) - registry.destroyUnobserved(targets, from, live);
  }

  /**
   * Moves the read cursors past the payload of command {@code i}, which starts at {@code firstWord}
   * and {@code firstRef}.
   */
  private void skipPayload(final int i, final int firstWord, final int firstRef) {
    final int code = codes[i];
    switch ((byte) (code >>> OP_SHIFT)) {
      case FIELDS -> {
        readWord = firstWord + fieldWords[code & TYPE_MASK];
        readRef = firstRef + fieldRefs[code & TYPE_MASK];
      }
      case EMPLACE, REPLACE -> {
        readWord = firstWord;
        readRef = firstRef + 1;
      }
      case ATTACH -> {
        readWord = firstWord + 1;
        readRef = firstRef;
      }
      default -> {
        readWord = firstWord;
        readRef = firstRef;
      }
    }
  }

  /** Returns the registry's storage of the type with dense id {@code typeId}, cached per buffer. */
  private Storage<?> storageOf(final int typeId) {
    if (typeId >= storagesById.length) {
      storagesById = Arrays.copyOf(storagesById, typesById.length);
    }
    Storage<?> storage = storagesById[typeId];
    if (null == storage) {
      storage = registry.storage(typesById[typeId]);
      storagesById[typeId] = storage;
    }
    return storage;
  }

  @SuppressWarnings({"unchecked", "rawtypes"}) // each value was recorded with its type
  private Throwable applyOne(
      final byte op, final long target, final ComponentType type, final Throwable failure) {
    switch (op) {
      case EMPLACE -> registry.storage(type).emplaceOrReplace(target, nextRef());
      case REPLACE -> {
        final Object value = nextRef();
        final Storage storage = registry.findStorage(type);
        if (null == storage || !storage.contains(target)) {
          skipped++;
        } else {
          storage.replace(target, value);
        }
      }
      case REMOVE -> registry.remove(target, type);
      case ERASE -> {
        if (!registry.remove(target, type)) {
          skipped++;
        }
      }
      case DESTROY -> registry.destroy(target);
      case DESTROY_TREE -> Hierarchy.of(registry).destroyTree(target);
      case ATTACH -> {
        final long parent = resolve(nextWord(), siblingsInApply);
        final Hierarchy hierarchy = Hierarchy.of(registry);
        if (Entity.isNull(parent)
            || !registry.valid(parent)
            || target == parent
            || hierarchy.isAncestor(target, parent)) {
          skipped++;
        } else {
          hierarchy.reparent(target, parent);
        }
      }
      default -> throw new AssertionError(op);
    }
    return failure;
  }

  /**
   * Returns the entity a handle stands for now, or {@link Entity#NULL} if it cannot be resolved.
   */
  long resolve(final long handle, final CommandBuffers siblings) {
    if (!isReserved(handle)) {
      return handle;
    }
    final int handleId = Entity.index(handle) & ~RESERVED_BIT;
    final CommandBuffer owner =
        handleId == id ? this : null == siblings ? null : siblings.findById(handleId);
    final int n = Entity.version(handle);
    return null == owner || n < 0 || n >= owner.reserved ? Entity.NULL : owner.materialized[n];
  }

  /** Records a command; its payload (words, references) follows through putWord and putRef. */
  private void record(final byte op, final long entity, final ComponentType<?, ?> type) {
    checkHandle(entity, OPERATIONS[op]);
    if (count == codes.length) {
      final int capacity = count * 2;
      codes = Arrays.copyOf(codes, capacity);
      targets = Arrays.copyOf(targets, capacity);
    }
    targets[count] = entity;
    if (pendingFieldsType >= 0) {
      endFields();
    }
    int id = NO_TYPE;
    if (null != type) {
      id = type.id();
      if (id >= NO_TYPE) {
        throw new IllegalStateException(
            "more than " + NO_TYPE + " component types: command buffers cannot record them");
      }
      if (id >= typesById.length) {
        typesById = Arrays.copyOf(typesById, Math.max(id + 1, typesById.length * 2));
      }
      if (typesById[id] != type) {
        typesById[id] = type;
      }
    }
    codes[count] = op << OP_SHIFT | id;
    count++;
  }

  /**
   * Throws, before anything is recorded, if {@code entity} is a reserved handle that no apply of
   * this buffer could resolve: one of a buffer other than this one and its set's, or one this
   * buffer handed out before it was last emptied.
   */
  private void checkHandle(final long entity, final String operation) {
    if (!isReserved(entity)) {
      return;
    }
    final int handleId = Entity.index(entity) & ~RESERVED_BIT;
    if (handleId != id && (null == set || null == set.findById(handleId))) {
      throw new IllegalArgumentException(
          "cannot record "
              + operation
              + " on reserved handle #"
              + Entity.version(entity)
              + " of command buffer "
              + handleId
              + ": it belongs to another buffer, or to one applied or cleared since it was"
              + " reserved; a reserved handle is valid in the buffer that reserved it (or any"
              + " buffer of its CommandBuffers) until that buffer is applied or cleared");
    }
  }

  private void putValue(final Object value) {
    if (refCount == refs.length) {
      refs = Arrays.copyOf(refs, refCount * 2);
    }
    refs[refCount++] = value;
  }

  private static ComponentType<?, ?> checkType(final ComponentType<?, ?> type) {
    if (null == type) {
      throw new NullPointerException("type");
    }
    return type;
  }

  private static Object checkValue(final ComponentType<?, ?> type, final Object value) {
    checkType(type);
    if (null == value && !type.traits().empty()) {
      throw new NullPointerException(
          "cannot record a null " + type.name() + ": the type stores instances");
    }
    return value;
  }
}

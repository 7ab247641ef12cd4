package dev.phalanx.ecs.command;

import dev.phalanx.ecs.ChangeSet;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.OwningGroup;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import dev.phalanx.ecs.internal.Failures;
import dev.phalanx.ecs.internal.FieldRecorder;
import dev.phalanx.ecs.internal.RecordedFields;
import java.lang.ref.WeakReference;
import java.util.Arrays;
import java.util.ConcurrentModificationException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Structural changes recorded now and applied later, at a sync point the user chooses: the way to
 * destroy what died during a pass, spawn from a loop body, or change the world from a parallel
 * iteration, where direct changes are refused.
 *
 * <h2>Recording</h2>
 *
 * <p>{@link #create()} reserves an entity: it returns a <em>reserved handle</em> that later
 * commands of the same buffer (or of the same {@link CommandBuffers}) may target, and that names
 * the entity created for it by the buffer's apply ({@link #entityOf}). A handle is valid until its
 * buffer is applied or cleared: recording a command that names a handle of another buffer (of
 * another set, or standalone), or one handed out before the last apply or clear, throws {@link
 * IllegalArgumentException} naming the handle and both buffers, and records nothing; the registry
 * refuses reserved handles too. {@link #emplace}, {@link #emplaceIfAbsent}, {@link #replace},
 * {@link #remove}, {@link #removeAll}, {@link #erase}, {@link #destroy}, {@link #destroyTree},
 * {@link #attach} and {@link #detach} record a change of an existing or reserved entity; {@link
 * #queue} records any action on the registry. Generated storages add typed forms, {@code
 * positions.emplace(commands, entity, x, y)} and {@code positions.emplaceIfAbsent(commands, entity,
 * x, y)}, that record the fields as primitives (no component object, no boxing). Recording reads
 * nothing of the world, allocates nothing once the buffer's arrays have grown, and is all or
 * nothing: every array a command needs is grown before anything of it is written, so a failure (out
 * of memory included) leaves no half-recorded command.
 *
 * <h2>Applying</h2>
 *
 * <p>{@link #apply()} first creates the reserved entities in reservation order, then applies every
 * command in recording order, then empties the buffer (keeping its arrays). It is refused (before
 * anything changes, the buffer kept) while any storage of the registry is locked or iterated, when
 * the reserved entities cannot be created, and from inside its own apply (a listener): apply
 * between passes, not inside one. Each command is tolerant, so that a buffer is never half-applied:
 *
 * <ul>
 *   <li>a command whose target is dead (destroyed since recording, or never created) is skipped and
 *       counted ({@link #skipped()});
 *   <li>{@code emplace} on an entity that already has the component replaces it, {@code
 *       emplaceIfAbsent} then does nothing; {@code replace} and {@code erase} of a component the
 *       entity lacks are skipped and counted; {@code remove} of a missing component does nothing;
 *   <li>exceptions do not stop it (listeners', queued actions', out of memory): the command that
 *       threw is skipped, every other command is applied, and the first exception is rethrown at
 *       the end, unchanged, with the later ones suppressed. The buffer is empty afterwards whatever
 *       happened.
 * </ul>
 *
 * <p><b>What is recorded while apply runs</b> (by listeners or queued actions, into this buffer) is
 * applied by this apply, after everything recorded before it, in recording order; a handle reserved
 * meanwhile is created when the first command naming it is applied (or at the end of the apply if
 * none does), so its commands land on it. A listener that records on every command it sees
 * therefore never lets apply end: record conditionally.
 *
 * <p>A run of consecutive {@code destroy} commands that nothing can observe ({@link
 * Registry#destroysInBulk()}: no storage has a destroy or removal listener, and every group is an
 * owning group that spans its owned storages alone) is applied as one batch, storage by storage, as
 * {@link Registry#destroy(long[], int, int)} does: the same result as one by one, at about half the
 * cost per entity. Record the destroys of a pass together to get it.
 *
 * <h2>Threading</h2>
 *
 * <p>A buffer belongs to one thread at a time: the first thread that records into it after a sync
 * point owns it until the next one (its {@link #apply()} or {@link #clear()}, or the end of a
 * parallel iteration of its registry, {@link OwningGroup#parallelEachChunk}). Recording from
 * another thread meanwhile throws {@link ConcurrentModificationException} naming both threads and
 * records nothing: the check is one field compare per command, not a lock. Give each thread, or
 * each run of a parallel iteration, its own buffer (see {@link CommandBuffers}, whose apply order
 * does not depend on the number of threads). Apply from one thread, at a sync point.
 */
public final class CommandBuffer extends FieldRecorder {

  // Reserved handles: index bits with the top bit set (never a live index: indices stop at
  // Entity.MAX_INDEX), the buffer's slot in the other 31 (see Slots); the version bits hold the
  // reservation's number, drawn from the slot's numbers, which are never drawn twice.
  private static final int RESERVED_BIT = 0x8000_0000;
  // Past this many numbers at the end of an apply, a buffer moves to a fresh slot, so that one
  // apply's reservations never run out of numbers.
  private static final int RENUMBER_AT = 1 << 30;
  // For messages: each buffer's number, in creation order (64 bits: never reused).
  private static final AtomicLong SERIALS = new AtomicLong();
  // What apply does, in the message of an apply refused outside a sync point.
  private static final String SYNC_POINT = "apply commands while an iteration or a lock holds";

  private static final byte EMPLACE = 0;
  private static final byte REPLACE = 1;
  private static final byte REMOVE = 2;
  private static final byte ERASE = 3;
  private static final byte DESTROY = 4;
  private static final byte DESTROY_TREE = 5;
  private static final byte FIELDS = 6;
  private static final byte ATTACH = 7;
  private static final byte EMPLACE_IF_ABSENT = 8;
  private static final byte FIELDS_IF_ABSENT = 9;
  private static final byte DETACH = 10;
  private static final byte REMOVE_ALL = 11;
  private static final byte QUEUE = 12;
  private static final String[] OPERATIONS = {
    "emplace",
    "replace",
    "remove",
    "erase",
    "destroy",
    "destroyTree",
    "emplace",
    "attach",
    "emplaceIfAbsent",
    "emplaceIfAbsent",
    "detach",
    "removeAll",
    "queue"
  };
  private static final int OP_SHIFT = 24;
  private static final int TYPE_MASK = (1 << OP_SHIFT) - 1;
  private static final int NO_TYPE = TYPE_MASK;

  // The registry, whose count of parallel passes (Registry.parallelPasses) ends an owner's claim.
  private final Registry registry;
  // What a generated storage's applyRecorded reads the typed command's fields through.
  private final RecordedFields replay = new Replay();
  // The set this buffer belongs to, whose buffers resolve each other's handles; null if
  // standalone.
  private final CommandBuffers set;
  // The run key in the set, for messages; -1 if standalone.
  private final int key;
  private final long serial = SERIALS.incrementAndGet();
  private final WeakReference<CommandBuffer> self = new WeakReference<>(this);
  // The slot in this buffer's reserved handles (see Slots), and the reservation numbers: [base,
  // next) are this apply's reservations, and the slot may hand out numbers up to limit.
  private int slot;
  private int base;
  private int next;
  private int limit;
  // The thread that records between two sync points, and the registry's parallel pass count when
  // it claimed the buffer: a claim of an earlier pass has ended. Written under the monitor.
  private Thread owner;
  private int ownerPass;
  // Each command's operation (top 8 bits) and type id (low 24 bits; NO_TYPE for none), in one int.
  private int[] codes = new int[16];
  private long[] targets = new long[16];
  // The types by dense id: commands store ids, not references.
  private ComponentType<?, ?>[] typesById = new ComponentType<?, ?>[16];
  // The registry's storages by type id, filled as commands are applied (a storage never changes).
  private Storage<?>[] storagesById = new Storage<?>[16];
  // How many words and references a typed recording of each type (by id) holds, given by the
  // generated storage when it records: a skipped command's payload is passed over by them.
  private int[] fieldWords = unknownSizes(16);
  private int[] fieldRefs = unknownSizes(16);
  // By type id, the sizes as shape(words, refs) once recorded typed, else -1: beginFields' one
  // check.
  private long[] fieldShapes = unknownShapes(16);
  private long[] words = new long[64];
  private int wordCount;
  private Object[] refs = new Object[16];
  private int refCount;
  // Apply's cursors: the next command, and the payload read so far.
  private int applied;
  private int readWord;
  private int readRef;
  // The set this buffer belongs to while it is applied, to resolve reserved handles of its
  // siblings.
  private CommandBuffers siblingsInApply;
  private boolean applying;
  private int count;
  // The entities the reservations [createdBase, createdBase + created) became: the current
  // apply's so far, or the last apply's; forgotten by clear().
  private long[] materialized = new long[16];
  private int createdBase;
  private int created;
  // What the registry's create listeners threw during this apply's creations: creating never stops
  // half-way for them (the count above must stay true), so it is kept here and reported with the
  // commands' failures at the end of applyCommands.
  private Throwable createFailure;
  private int skipped;

  /**
   * Creates an empty buffer that applies to {@code registry}.
   *
   * @param registry the registry that {@link #apply()} changes
   */
  public CommandBuffer(final Registry registry) {
    this(registry, null, -1);
  }

  CommandBuffer(final Registry registry, final CommandBuffers set, final int key) {
    this.registry = registry;
    this.set = set;
    this.key = key;
    takeSlot();
  }

  /** {@return the slot in this buffer's reserved handles} */
  int slot() {
    return slot;
  }

  /** {@return the number of commands recorded and not yet applied} */
  public int size() {
    return count - applied;
  }

  /** {@return whether nothing is recorded} */
  public boolean isEmpty() {
    return count == applied && next == base;
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
    return !Entity.isNull(entity)
        && 0 != (Entity.index(entity) & RESERVED_BIT)
        && !ChangeSet.isStaged(entity);
  }

  /**
   * {@return the entity created for {@code handle}, a handle this buffer reserved, by its last
   * apply (or by the one in progress, once created), or {@link Entity#NULL} if there is none: not a
   * handle of this buffer's last apply, or forgotten by {@link #clear()}} The entity may have been
   * destroyed since: check {@link Registry#valid}.
   *
   * @param handle a reserved handle
   */
  public long entityOf(final long handle) {
    if (!isReserved(handle) || (Entity.index(handle) & ~RESERVED_BIT) != slot) {
      return Entity.NULL;
    }
    final int n = Entity.version(handle) - createdBase;
    return n >= 0 && n < created ? materialized[n] : Entity.NULL;
  }

  /** {@return "command buffer #n", with the run key for a buffer of a set} */
  @Override
  public String toString() {
    return null == set
        ? "command buffer #" + serial
        : "command buffer #" + serial + " (run " + key + " of a CommandBuffers)";
  }

  // ---------------------------------------------------------------------------------------------
  // Recording.
  // ---------------------------------------------------------------------------------------------

  /**
   * Reserves an entity, created when the buffer is applied; returns its reserved handle.
   *
   * @return a reserved handle, which this buffer's later commands (and those of the buffers of its
   *     {@link CommandBuffers}) may name until this buffer is applied or cleared. It is not an
   *     entity: after the apply, {@link #entityOf} gives the entity created for it
   * @throws ConcurrentModificationException if another thread records into this buffer (see the
   *     class comment)
   */
  public long create() {
    claim();
    if (next == limit) {
      extendNumbers();
    }
    return Entity.of(RESERVED_BIT | slot, next++);
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
    record(EMPLACE, entity, type, 0, 1);
    refs[refCount++] = checked;
  }

  /**
   * Records adding the tag {@code type} (a type that stores no instances) to {@code entity}; an
   * entity that has it by then keeps it (an update is published, as {@code emplace} does).
   *
   * @param entity the target: an entity, or a handle reserved by {@link #create()}
   * @param tag the tag type's key
   * @throws IllegalArgumentException if {@code tag} stores instances (use {@link #emplace(long,
   *     ComponentType, Object)})
   */
  public void emplace(final long entity, final ComponentType<?, ?> tag) {
    checkTag(tag, "emplace");
    record(EMPLACE, entity, tag, 0, 1);
    refs[refCount++] = null;
  }

  /**
   * Records adding {@code value} of {@code type} to {@code entity} unless it has one by then (then
   * nothing happens: no replacement, no signal, not counted as skipped).
   *
   * @param <T> the component type
   * @param entity the target: an entity, or a handle reserved by {@link #create()}
   * @param type the component type's key
   * @param value the component to add
   * @throws NullPointerException as {@link #emplace(long, ComponentType, Object)}
   */
  public <T> void emplaceIfAbsent(
      final long entity, final ComponentType<T, ?> type, final T value) {
    final Object checked = checkValue(type, value);
    record(EMPLACE_IF_ABSENT, entity, type, 0, 1);
    refs[refCount++] = checked;
  }

  /**
   * Records adding the tag {@code type} to {@code entity} unless it has it by then.
   *
   * @param entity the target: an entity, or a handle reserved by {@link #create()}
   * @param tag the tag type's key
   * @throws IllegalArgumentException if {@code tag} stores instances
   */
  public void emplaceIfAbsent(final long entity, final ComponentType<?, ?> tag) {
    checkTag(tag, "emplaceIfAbsent");
    record(EMPLACE_IF_ABSENT, entity, tag, 0, 1);
    refs[refCount++] = null;
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
    record(REPLACE, entity, type, 0, 1);
    refs[refCount++] = checked;
  }

  /**
   * Records removing the component of {@code entity} if it has one then.
   *
   * @param entity the target: an entity, or a handle reserved by {@link #create()}
   * @param type the component type's key
   */
  public void remove(final long entity, final ComponentType<?, ?> type) {
    record(REMOVE, entity, checkType(type), 0, 0);
  }

  /**
   * Records removing every component {@code entity} has then (last created storage first, as {@link
   * Registry#destroy(long)} does), keeping the entity. A hierarchy node is unlinked as its
   * component is removed.
   *
   * @param entity the target: an entity, or a handle reserved by {@link #create()}
   */
  public void removeAll(final long entity) {
    record(REMOVE_ALL, entity, null, 0, 0);
  }

  /**
   * Records removing the component of {@code entity}; skipped (and counted) if it has none then.
   *
   * @param entity the target: an entity, or a handle reserved by {@link #create()}
   * @param type the component type's key
   */
  public void erase(final long entity, final ComponentType<?, ?> type) {
    record(ERASE, entity, checkType(type), 0, 0);
  }

  /**
   * Records destroying {@code entity}.
   *
   * @param entity the target: an entity, or a handle reserved by {@link #create()}
   */
  public void destroy(final long entity) {
    final int at = count;
    // The steady state: the owner, a plain entity, room for the command (no payload).
    if (owner == Thread.currentThread()
        && ownerPass == registry.parallelPasses()
        && !isReserved(entity)
        && at < codes.length) {
      targets[at] = entity;
      codes[at] = DESTROY << OP_SHIFT | NO_TYPE;
      count = at + 1;
      return;
    }
    record(DESTROY, entity, null, 0, 0);
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
    record(ATTACH, child, null, 1, 0);
    words[wordCount++] = parent;
  }

  /**
   * Records making {@code child} a root of the registry's {@link Hierarchy}, keeping its own
   * children (applied as {@link Hierarchy#detach}; a root is left as it is).
   *
   * @param child the entity to detach, or a reserved handle
   */
  public void detach(final long child) {
    record(DETACH, child, null, 0, 0);
  }

  /**
   * Records destroying {@code entity} and its descendants in the registry's {@link Hierarchy}.
   *
   * @param entity the root of the subtree to destroy, or a reserved handle
   */
  public void destroyTree(final long entity) {
    record(DESTROY_TREE, entity, null, 0, 0);
  }

  /**
   * Records running {@code action} on the registry when the buffer is applied, in its place among
   * the other commands (Bevy's {@code queue}). The action may change the registry as any code at a
   * sync point may, and record into this buffer (applied by this apply, see the class comment); its
   * exception is collected as a listener's is. Reserved handles mean nothing to the registry: read
   * them through {@link #entityOf} inside the action.
   *
   * @param action what to run
   * @throws NullPointerException if {@code action} is null
   */
  public void queue(final Consumer<? super Registry> action) {
    if (null == action) {
      throw new NullPointerException("action");
    }
    record(QUEUE, Entity.NULL, null, 0, 1);
    refs[refCount++] = action;
  }

  // ---------------------------------------------------------------------------------------------
  // For generated code: typed field recording (see FieldRecorder, through which generated code
  // calls these protected members). A generated storage's emplace(commands, entity, fields...)
  // calls beginFields with the number of words and references its fields take, then putWord or
  // putRef once per field in declaration order; on apply, the runtime calls the storage's
  // applyRecorded(entity, fields), which reads them back through Replay in the same order. Nothing
  // is boxed.
  // ---------------------------------------------------------------------------------------------

  /**
   * Starts recording the fields of a typed emplace of {@code storage}'s component on {@code
   * entity}: grows the buffer for the whole command first, so that the {@code putWord} and {@code
   * putRef} calls that follow cannot fail.
   *
   * @param entity the target: an entity, or a reserved handle
   * @param storage the generated storage whose {@code applyRecorded} reads the fields back
   * @param wordCount the number of {@link #putWord} calls that follow (primitive fields)
   * @param refCount the number of {@link #putRef} calls that follow (reference fields)
   * @throws IllegalArgumentException if the counts differ from an earlier recording of the type
   */
  @Override
  protected void beginFields(
      final long entity, final Object storage, final int wordCount, final int refCount) {
    final ComponentType<?, ?> type = ((Storage<?>) storage).type();
    final int id = type.id();
    final long[] shapes = fieldShapes;
    // The steady state, checked in one go: a type recorded typed before with these sizes (which
    // implies typesById[id] == type: ids are unique in the JVM), the owner, a plain entity, room
    // for the command and its payload. With the generated code's constant sizes, the size checks
    // of an empty payload fold away. Anything else takes record's path.
    if (id < shapes.length
        && shapes[id] == shape(wordCount, refCount)
        && (wordCount | refCount) >= 0
        && owner == Thread.currentThread()
        && ownerPass == registry.parallelPasses()
        && !isReserved(entity)
        && hasRoom(wordCount, refCount)) {
      final int at = count;
      targets[at] = entity;
      codes[at] = FIELDS << OP_SHIFT | id;
      count = at + 1;
      return;
    }
    record(FIELDS, entity, type, wordCount, refCount);
  }

  /**
   * As {@link #beginFields}, for a typed emplace applied only if the entity has no component of the
   * type by then.
   *
   * @param entity the target: an entity, or a reserved handle
   * @param storage the generated storage whose {@code applyRecorded} reads the fields back
   * @param wordCount the number of {@link #putWord} calls that follow (primitive fields)
   * @param refCount the number of {@link #putRef} calls that follow (reference fields)
   */
  @Override
  protected void beginFieldsIfAbsent(
      final long entity, final Object storage, final int wordCount, final int refCount) {
    record(FIELDS_IF_ABSENT, entity, ((Storage<?>) storage).type(), wordCount, refCount);
  }

  /**
   * Records one primitive field's bits (see {@link #beginFields}).
   *
   * @param bits the field's value as raw bits ({@code Float.floatToRawIntBits} and the like)
   * @throws IllegalStateException if more words are put than {@code beginFields} announced
   */
  @Override
  protected void putWord(final long bits) {
    if (wordCount == words.length) {
      throw overflow("words");
    }
    words[wordCount++] = bits;
  }

  /**
   * Records one reference field (see {@link #beginFields}).
   *
   * @param value the field's value, possibly {@code null}
   * @throws IllegalStateException if more references are put than {@code beginFields} announced
   */
  @Override
  protected void putRef(final Object value) {
    if (refCount == refs.length) {
      throw overflow("references");
    }
    refs[refCount++] = value;
  }

  /** {@return the sizes of a typed recording, as kept in fieldShapes} */
  private static long shape(final int wordCount, final int refCount) {
    return (long) wordCount << 32 | (refCount & 0xFFFF_FFFFL);
  }

  /**
   * {@return whether one more command with a payload of {@code wordCount} words and {@code
   * refCount} references fits without growing any array}
   */
  private boolean hasRoom(final int wordCount, final int refCount) {
    return count < codes.length
        && (0 == wordCount || wordCount <= words.length - this.wordCount)
        && (0 == refCount || refCount <= refs.length - this.refCount);
  }

  private IllegalStateException overflow(final String what) {
    return new IllegalStateException(this + ": more " + what + " put than beginFields announced");
  }

  /** Reads back the next primitive field of the command being applied. */
  private long nextWord() {
    return words[readWord++];
  }

  /** Reads back the next reference field of the command being applied. */
  private Object nextRef() {
    return refs[readRef++];
  }

  /**
   * The fields of the typed command being applied, as a generated storage's {@code applyRecorded}
   * reads them: the buffer's own read cursor, so that the buffer's stream is not part of its API.
   */
  private final class Replay implements RecordedFields {
    @Override
    public long nextWord() {
      return CommandBuffer.this.nextWord();
    }

    @Override
    public Object nextRef() {
      return CommandBuffer.this.nextRef();
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Applying.
  // ---------------------------------------------------------------------------------------------

  /**
   * Applies the buffer (see the class comment), then empties it.
   *
   * @throws java.util.ConcurrentModificationException if a storage of the registry is locked or
   *     iterated; nothing is applied and the buffer is kept
   * @throws IllegalStateException if called during this buffer's own apply (or, for a buffer of a
   *     {@link CommandBuffers}, during the set's), or if the reserved entities cannot be created;
   *     nothing is applied and the buffer is kept
   */
  public void apply() {
    checkNotApplying();
    checkSyncPoint(registry);
    // Applying already: a create listener that applies this buffer is refused, not re-entered.
    applying = true;
    try {
      createReserved();
    } catch (final RuntimeException | Error refused) {
      // The entity limit: nothing was created, nothing is applied, the buffer is kept.
      applying = false;
      throw refused;
    }
    Throwable failure = null;
    try {
      do {
        failure = applyCommands(failure, null);
      } while (hasPending());
    } catch (final Throwable thrown) {
      // A failure of the buffer's own steps, not of a command (which are caught one by one).
      failure = Failures.add(failure, thrown);
    } finally {
      applying = false;
      empty();
    }
    Failures.rethrow(failure);
  }

  /** Forgets every recorded command and reservation; the arrays are kept for reuse. */
  public void clear() {
    checkNotApplying();
    empty();
    created = 0;
  }

  /** Throws if this buffer, or its set, is being applied. */
  void checkNotApplying() {
    if (applying || (null != set && set.isApplying())) {
      throw new IllegalStateException(
          "cannot apply or clear "
              + this
              + " during its own apply (from a listener or a queued action): what is recorded"
              + " now is applied by the apply in progress");
    }
  }

  /**
   * Empties the buffer: forgets its commands and reservations (not the entities the last apply
   * created), releases its owner, and keeps its arrays.
   */
  void empty() {
    Arrays.fill(refs, 0, refCount, null);
    count = 0;
    applied = 0;
    wordCount = 0;
    refCount = 0;
    readWord = 0;
    readRef = 0;
    siblingsInApply = null;
    base = next;
    if (next >= RENUMBER_AT) {
      Slots.retire(slot);
      takeSlot();
      if (null != set) {
        set.slotChanged();
      }
    }
    release();
  }

  /**
   * Throws unless no storage of {@code registry} is locked or iterated, with the message a
   * rearrangement of the storage would be refused with.
   */
  static void checkSyncPoint(final Registry registry) {
    for (int i = 0; i < registry.storageCount(); i++) {
      final Storage<?> storage = registry.storageAt(i);
      if (storage.isLocked()) {
        throw new ConcurrentModificationException(
            "cannot "
                + SYNC_POINT
                + " "
                + storage.describe()
                + ": "
                + storage.lockDescription()
                + " is reading it, and structural changes are refused until it ends");
      }
      if (storage.isIterated()) {
        throw new ConcurrentModificationException(
            "cannot "
                + SYNC_POINT
                + " "
                + storage.describe()
                + ": an iteration over it is in progress");
      }
    }
  }

  /** {@return the number of reservations to create when an apply starts} */
  int toCreate() {
    return next - base;
  }

  /**
   * Creates the reserved entities, in reservation order, all or none; starts the apply's count of
   * skipped commands.
   */
  void createReserved() {
    skipped = 0;
    createdBase = base;
    created = 0;
    final int n = next - base;
    ensureMaterialized(n);
    if (n > 0) {
      createFailure = createAll(registry, materialized, 0, n, createFailure);
      created = n;
    }
  }

  /** Adopts {@code n} entities the set created for this buffer's reservations, from {@code at}. */
  void adoptReserved(final long[] entities, final int at, final int n) {
    skipped = 0;
    createdBase = base;
    ensureMaterialized(n);
    System.arraycopy(entities, at, materialized, 0, n);
    created = n;
  }

  private void ensureMaterialized(final int n) {
    if (n > materialized.length) {
      materialized = new long[Math.max(n, materialized.length * 2)];
    }
  }

  /** Creates the reservations made since the last creation (during this apply). */
  private void createLate() {
    final int n = next - base;
    if (n > materialized.length) {
      materialized = Arrays.copyOf(materialized, Math.max(n, materialized.length * 2));
    }
    createFailure = createAll(registry, materialized, created, n - created, createFailure);
    created = n;
  }

  /**
   * Creates {@code out[offset, offset + count)} as {@link Registry#create(long[], int, int)} does,
   * all or none, and returns {@code failure} with what a create listener threw added to it instead
   * of throwing it: the entities are created then, and the caller must go on with them. A refused
   * creation throws, having created nothing.
   *
   * <p>The two are told apart beforehand, by what decides a refusal (the registry being cleared,
   * too few {@linkplain dev.phalanx.ecs.EntityStorage#available() identifiers available}), not by
   * comparing {@link Registry#alive()} before and after: a create listener may destroy or create
   * entities before it throws. The last slot is cleared first, so that a creation that failed
   * before its end (out of memory while growing) counts as refused too: a creation writes every
   * slot.
   */
  static Throwable createAll(
      final Registry registry,
      final long[] out,
      final int offset,
      final int count,
      final Throwable failure) {
    if (0 == count) {
      return failure;
    }
    final boolean refused = registry.isClearing() || registry.entities().available() < count;
    final int last = offset + count - 1;
    out[last] = Entity.NULL;
    try {
      registry.create(out, offset, count);
    } catch (final RuntimeException | Error thrown) {
      if (refused || Entity.isNull(out[last])) {
        throw thrown;
      }
      return Failures.add(failure, thrown);
    }
    return failure;
  }

  /** {@return whether commands or reservations wait for this apply} */
  boolean hasPending() {
    return applied < count || created < next - base;
  }

  /**
   * Applies every command not applied yet, those recorded meanwhile included, then creates the
   * reservations no command named; reserved handles are resolved in this buffer or, when {@code
   * siblings} is given, in the sibling buffer of their slot. Returns {@code failure} or the first
   * exception a command threw.
   */
  Throwable applyCommands(Throwable failure, final CommandBuffers siblings) {
    siblingsInApply = siblings;
    // The end of a run of destroys found observed: its commands apply one by one, and the run is
    // not measured again at each of them (which would make a long run quadratic).
    int oneByOneUntil = 0;
    // count is read at each step: commands recorded meanwhile are applied too.
    while (applied < count) {
      final int i = applied;
      final int code = codes[i];
      if (FIELDS == (byte) (code >>> OP_SHIFT)) {
        // The common case, kept tight: a typed emplace recorded by a generated storage.
        failure = applyFields(i, code, siblings, failure);
        continue;
      }
      if (i >= oneByOneUntil && DESTROY == (byte) (code >>> OP_SHIFT)) {
        final int end = destroyRunEnd(i);
        if (end - i > 1 && registry.destroysInBulk() && !createsLate(i, end, siblings)) {
          failure = applyDestroyRun(i, end, siblings, failure);
          continue;
        }
        oneByOneUntil = end;
      }
      failure = applyAt(i, siblings, failure);
    }
    if (created < next - base) {
      try {
        createLate();
      } catch (final RuntimeException | Error thrown) {
        // Nothing names them: forget them, as if never reserved.
        failure = Failures.add(failure, thrown);
        next = base + created;
      }
    }
    if (null != createFailure) {
      failure = Failures.add(failure, createFailure);
      createFailure = null;
    }
    return failure;
  }

  /** Applies the typed emplace {@code i}; returns {@code failure} or the exception it threw. */
  private Throwable applyFields(
      final int i, final int code, final CommandBuffers siblings, Throwable failure) {
    applied = i + 1;
    final int firstWord = readWord;
    final int firstRef = readRef;
    try {
      final long target = resolve(targets[i], siblings);
      if (Entity.isNull(target) || !registry.valid(target)) {
        skipped++;
        skipPayload(code, firstWord, firstRef);
      } else {
        storageOf(code & TYPE_MASK).replayRecorded(target, replay);
      }
    } catch (final RuntimeException | Error thrown) {
      failure = Failures.add(failure, thrown);
      skipPayload(code, firstWord, firstRef);
    }
    return failure;
  }

  /** Applies command {@code i}; returns {@code failure} or the exception it threw. */
  private Throwable applyAt(final int i, final CommandBuffers siblings, Throwable failure) {
    final int firstWord = readWord;
    final int firstRef = readRef;
    final int code = codes[i];
    applied = i + 1;
    try {
      final byte op = (byte) (code >>> OP_SHIFT);
      if (QUEUE == op) {
        applyQueued();
        return failure;
      }
      final long target = resolve(targets[i], siblings);
      if (Entity.isNull(target) || !registry.valid(target)) {
        skipped++;
        skipPayload(code, firstWord, firstRef);
        return failure;
      }
      final int typeId = code & TYPE_MASK;
      if (FIELDS_IF_ABSENT == op) {
        final Storage<?> storage = storageOf(typeId);
        if (storage.contains(target)) {
          skipPayload(code, firstWord, firstRef);
        } else {
          storage.replayRecorded(target, replay);
        }
      } else {
        failure = applyOne(op, target, NO_TYPE == typeId ? null : typesById[typeId], failure);
      }
    } catch (final RuntimeException | Error thrown) {
      failure = Failures.add(failure, thrown);
      skipPayload(code, firstWord, firstRef);
    }
    return failure;
  }

  @SuppressWarnings("unchecked") // recorded by queue(Consumer<? super Registry>)
  private void applyQueued() {
    final Consumer<? super Registry> action = (Consumer<? super Registry>) nextRef();
    action.accept(registry);
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
   * Returns whether a command of {@code [from, to)} names a reservation made during this apply and
   * not created yet: resolving it creates entities (create listeners run, the entity limit may
   * refuse them), and an identifier an earlier destroy of the run frees may be the one it gets, so
   * such a run is applied one by one.
   */
  private boolean createsLate(final int from, final int to, final CommandBuffers siblings) {
    for (int i = from; i < to; i++) {
      final long handle = targets[i];
      if (isReserved(handle)) {
        final int handleSlot = Entity.index(handle) & ~RESERVED_BIT;
        final CommandBuffer owner =
            handleSlot == slot ? this : null == siblings ? null : siblings.findBySlot(handleSlot);
        if (null != owner && owner.notCreatedYet(Entity.version(handle))) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * {@return whether reservation {@code number} is this apply's and not created yet} A number past
   * the reservations counts too: it resolves to nothing either way, so only the path differs.
   */
  private boolean notCreatedYet(final int number) {
    return number - base >= created;
  }

  /**
   * Applies the destroy commands {@code [from, to)}, when nothing can observe a destroy ({@link
   * Registry#destroysInBulk()}), as one batch, storage by storage ({@link Registry#destroy(long[],
   * int, int)}'s bulk path): the result one by one would give, each dead or repeated target skipped
   * and counted. The run's resolved live targets overwrite its own slots of {@code targets}, which
   * nothing reads after this apply. Destroys carry no payload, and no user code runs meanwhile.
   */
  private Throwable applyDestroyRun(
      final int from, final int to, final CommandBuffers siblings, Throwable failure) {
    int live = from;
    // No target needs a late creation (see createsLate): resolving runs no code and cannot fail.
    for (int i = from; i < to; i++) {
      final long target = resolve(targets[i], siblings);
      if (Entity.isNull(target) || !registry.valid(target)) {
        skipped++;
      } else {
        targets[live++] = target;
      }
    }
    applied = to;
    // No user code runs in a bulk destroy: the fall in live entities is the number destroyed, a
    // target named twice in the run counted once (the second is skipped, as one by one).
    final int alive = registry.alive();
    registry.destroy(targets, from, live);
    skipped += (live - from) - (alive - registry.alive());
    return failure;
  }

  /**
   * Moves the read cursors past the payload of the command of {@code code}, which starts at {@code
   * firstWord} and {@code firstRef}.
   */
  private void skipPayload(final int code, final int firstWord, final int firstRef) {
    switch ((byte) (code >>> OP_SHIFT)) {
      case FIELDS, FIELDS_IF_ABSENT -> {
        readWord = firstWord + fieldWords[code & TYPE_MASK];
        readRef = firstRef + fieldRefs[code & TYPE_MASK];
      }
      case EMPLACE, REPLACE, EMPLACE_IF_ABSENT, QUEUE -> {
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
      final byte op, final long target, final ComponentType type, Throwable failure) {
    switch (op) {
      case EMPLACE -> registry.storage(type).emplaceOrReplace(target, nextRef());
      case EMPLACE_IF_ABSENT -> {
        final Object value = nextRef();
        final Storage storage = registry.storage(type);
        if (!storage.contains(target)) {
          storage.emplace(target, value);
        }
      }
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
      case REMOVE_ALL -> failure = removeAllOf(target, failure);
      case DESTROY -> registry.destroy(target);
      case DESTROY_TREE -> Hierarchy.of(registry).destroyTree(target);
      case DETACH -> Hierarchy.of(registry).detach(target);
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
   * Removes every component of {@code target}, last created storage first, each removal on its own:
   * a listener's exception stops none of the others. Returns {@code failure} or the first.
   */
  private Throwable removeAllOf(final long target, Throwable failure) {
    for (int s = registry.storageCount() - 1; s >= 0; s--) {
      final Storage<?> storage = registry.storageAt(s);
      if (storage.contains(target) && registry.valid(target)) {
        try {
          storage.remove(target);
        } catch (final RuntimeException | Error thrown) {
          failure = Failures.add(failure, thrown);
        }
      }
    }
    return failure;
  }

  /**
   * Returns the entity a handle stands for now, or {@link Entity#NULL} if it cannot be resolved;
   * creates the reservations made during the apply, when one of them is named first.
   */
  long resolve(final long handle, final CommandBuffers siblings) {
    if (!isReserved(handle)) {
      return handle;
    }
    final int handleSlot = Entity.index(handle) & ~RESERVED_BIT;
    final CommandBuffer owner =
        handleSlot == slot ? this : null == siblings ? null : siblings.findBySlot(handleSlot);
    return null == owner ? Entity.NULL : owner.createdFor(Entity.version(handle));
  }

  /** Returns the entity created for reservation {@code number}, creating late ones if needed. */
  private long createdFor(final int number) {
    final int n = number - base;
    if (n < 0 || number >= next) {
      return Entity.NULL;
    }
    if (n >= created) {
      createLate();
    }
    return materialized[n];
  }

  /**
   * Records a command: checks it (owner, handle, type), grows every array it needs (its payload of
   * {@code wordCount} words and {@code refCount} references included), and only then writes it. The
   * payload follows through putWord and putRef, which cannot fail.
   */
  private void record(
      final byte op,
      final long entity,
      final ComponentType<?, ?> type,
      final int wordCount,
      final int refCount) {
    claim();
    checkHandle(entity, OPERATIONS[op]);
    final boolean typed = FIELDS == op || FIELDS_IF_ABSENT == op;
    final int id = null == type ? NO_TYPE : checkedId(type, typed, wordCount, refCount);
    ensureCapacity(wordCount, refCount);
    // Nothing below can fail.
    if (NO_TYPE != id) {
      typesById[id] = type;
      if (typed) {
        fieldWords[id] = wordCount;
        fieldRefs[id] = refCount;
        fieldShapes[id] = shape(wordCount, refCount);
      }
    }
    targets[count] = entity;
    codes[count] = op << OP_SHIFT | id;
    count++;
  }

  /**
   * Returns the id of {@code type}, growing the tables by type id. For a typed recording ({@code
   * typed}), checks that its sizes are those of the type's earlier typed recordings.
   */
  private int checkedId(
      final ComponentType<?, ?> type, final boolean typed, final int words, final int refs) {
    final int id = type.id();
    if (id >= NO_TYPE) {
      throw new IllegalStateException(
          "more than " + NO_TYPE + " component types: command buffers cannot record them");
    }
    if (typed && (words < 0 || refs < 0)) {
      throw new IllegalArgumentException(
          "cannot record a typed "
              + type.name()
              + " of "
              + words
              + " word(s) and "
              + refs
              + " reference(s) in "
              + this
              + ": sizes cannot be negative");
    }
    if (id >= typesById.length) {
      final int length = Math.max(id + 1, typesById.length * 2);
      final ComponentType<?, ?>[] types = Arrays.copyOf(typesById, length);
      final int[] wordSizes = grownSizes(fieldWords, length);
      final int[] refSizes = grownSizes(fieldRefs, length);
      final long[] shapes = unknownShapes(length);
      System.arraycopy(fieldShapes, 0, shapes, 0, fieldShapes.length);
      typesById = types;
      fieldShapes = shapes;
      fieldWords = wordSizes;
      fieldRefs = refSizes;
    }
    if (typed && fieldWords[id] >= 0 && (fieldWords[id] != words || fieldRefs[id] != refs)) {
      throw new IllegalArgumentException(
          "cannot record a typed "
              + type.name()
              + " of "
              + words
              + " word(s) and "
              + refs
              + " reference(s) in "
              + this
              + ": the type's typed recordings take "
              + fieldWords[id]
              + " and "
              + fieldRefs[id]);
    }
    return id;
  }

  private static int[] unknownSizes(final int length) {
    final int[] sizes = new int[length];
    Arrays.fill(sizes, -1);
    return sizes;
  }

  private static long[] unknownShapes(final int length) {
    final long[] shapes = new long[length];
    Arrays.fill(shapes, -1L);
    return shapes;
  }

  private static int[] grownSizes(final int[] sizes, final int length) {
    final int[] grown = unknownSizes(length);
    System.arraycopy(sizes, 0, grown, 0, sizes.length);
    return grown;
  }

  private void ensureCapacity(final int wordCount, final int refCount) {
    if (count == codes.length) {
      final int capacity = count * 2;
      final int[] newCodes = Arrays.copyOf(codes, capacity);
      targets = Arrays.copyOf(targets, capacity);
      codes = newCodes;
    }
    if (this.wordCount + wordCount > words.length) {
      words = Arrays.copyOf(words, Math.max(this.wordCount + wordCount, words.length * 2));
    }
    if (this.refCount + refCount > refs.length) {
      refs = Arrays.copyOf(refs, Math.max(this.refCount + refCount, refs.length * 2));
    }
  }

  /**
   * Throws, before anything is recorded, if {@code entity} is a reserved handle that no apply of
   * this buffer could resolve: one of a buffer other than this one and its set's, or one handed out
   * before its buffer was last emptied.
   */
  private void checkHandle(final long entity, final String operation) {
    if (!isReserved(entity)) {
      return;
    }
    final int handleSlot = Entity.index(entity) & ~RESERVED_BIT;
    final CommandBuffer owner =
        handleSlot == slot ? this : null == set ? null : set.findBySlot(handleSlot);
    if (null == owner || !owner.reservedNow(Entity.version(entity))) {
      throw new IllegalArgumentException(
          "cannot record "
              + operation
              + " on reserved handle "
              + Entity.toString(entity)
              + " in "
              + this
              + ": it "
              + describeOwner(entity, owner)
              + "; a reserved handle is valid in the buffer that reserved it (or any buffer of"
              + " its CommandBuffers) until that buffer is applied or cleared");
    }
  }

  private static String describeOwner(final long handle, final CommandBuffer owner) {
    if (null != owner) {
      return "was reserved by " + owner + " before its last apply or clear";
    }
    final CommandBuffer reserver = Slots.owner(Entity.index(handle) & ~RESERVED_BIT);
    return null == reserver
        ? "was reserved by a command buffer that no longer exists"
        : "belongs to " + reserver;
  }

  /** {@return whether {@code number} is one of this buffer's current reservations} */
  private boolean reservedNow(final int number) {
    return number - base >= 0 && number < next;
  }

  // ---------------------------------------------------------------------------------------------
  // Ownership.
  // ---------------------------------------------------------------------------------------------

  /** Throws unless the calling thread may record: it owns the buffer, or takes it now. */
  private void claim() {
    if (owner != Thread.currentThread() || ownerPass != registry.parallelPasses()) {
      claimSlowly();
    }
  }

  private synchronized void claimSlowly() {
    final Thread current = Thread.currentThread();
    final int pass = registry.parallelPasses();
    final Thread holder = owner;
    if (null != holder && holder != current && ownerPass == pass) {
      throw new ConcurrentModificationException(
          "cannot record into "
              + this
              + " from thread "
              + current.getName()
              + ": thread "
              + holder.getName()
              + " records into it; a buffer is recorded by one thread between two sync points"
              + " (apply, clear, the end of a parallel iteration): give each thread or run its own"
              + " buffer (CommandBuffers.forRun(position of the run's first element), or the"
              + " parallelEachChunk forms that take a CommandBuffers)");
    }
    owner = current;
    ownerPass = pass;
  }

  private synchronized void release() {
    owner = null;
  }

  // ---------------------------------------------------------------------------------------------
  // Slots: the numbers in reserved handles.
  // ---------------------------------------------------------------------------------------------

  private void takeSlot() {
    final int[] taken = Slots.take(self);
    slot = taken[0];
    base = taken[1];
    next = base;
    limit = taken[1];
    createdBase = base;
    created = 0;
  }

  /**
   * Test hook: gives up this buffer's slot as if the buffer had been collected, so that the next
   * buffer created reuses it (its numbers start where this buffer's stopped). This buffer must not
   * be used afterwards.
   */
  static void reuseSlotOf(final CommandBuffer buffer) {
    Slots.handOver(buffer.slot);
  }

  /** Draws more reservation numbers from the slot (a lock, once per growing number of them). */
  private void extendNumbers() {
    if (next == Integer.MAX_VALUE) {
      throw new IllegalStateException(
          this + " cannot reserve more than " + (Integer.MAX_VALUE - base) + " entities at once");
    }
    limit = Slots.extend(slot, next, Math.max(1024, next - base));
  }

  /**
   * The JVM-wide table of reserved-handle slots. A buffer holds one slot for its life; a slot is
   * reused only once its buffer has been collected, and its reservation numbers are never drawn
   * twice (each slot remembers how far they went): so no two handles, ever, are equal, and a handle
   * names at most one buffer, whatever the number of buffers created (there is no id to wrap).
   */
  private static final class Slots {
    private static WeakReference<?>[] owners = new WeakReference<?>[64];
    // Per slot, the numbers below this one have been handed out.
    private static int[] drawn = new int[64];
    private static int used;
    // Where the next search for a collected owner's slot starts.
    private static int sweep;

    private Slots() {}

    /** Returns {slot, first free number} for a new buffer. */
    static synchronized int[] take(final WeakReference<CommandBuffer> buffer) {
      int slot = -1;
      if (handOver >= 0) {
        slot = handOver;
        handOver = -1;
      } else if (used < owners.length) {
        slot = used++;
      } else {
        slot = collected();
        if (slot < 0) {
          if (owners.length >= Integer.MAX_VALUE / 2) {
            throw new IllegalStateException("too many live command buffers");
          }
          owners = Arrays.copyOf(owners, owners.length * 2);
          drawn = Arrays.copyOf(drawn, owners.length);
          slot = used++;
        }
      }
      owners[slot] = buffer;
      if (drawn[slot] >= RENUMBER_AT) {
        // Its numbers are spent: retired for good (once per 2^30 reservations of one slot).
        owners[slot] = RETIRED;
        return take(buffer);
      }
      return new int[] {slot, drawn[slot]};
    }

    private static final WeakReference<Object> RETIRED = new WeakReference<>(Slots.class);

    /** Returns the slot of a collected buffer, or -1 if none. */
    private static int collected() {
      for (int k = 0; k < used; k++) {
        final int slot = (sweep + k) % used;
        if (null == owners[slot].get()) {
          sweep = slot + 1;
          return slot;
        }
      }
      return -1;
    }

    // A slot given up by reuseSlotOf, taken by the next buffer created; -1 if none.
    private static int handOver = -1;

    /** Gives up {@code slot} as if its buffer had been collected: the next buffer takes it. */
    static synchronized void handOver(final int slot) {
      owners[slot] = GONE;
      handOver = slot;
    }

    private static final WeakReference<Object> GONE = new WeakReference<>(null);

    /** Lets {@code slot} hand out numbers up to {@code from + more}; returns the new limit. */
    static synchronized int extend(final int slot, final int from, final int more) {
      final long limit = Math.min((long) Integer.MAX_VALUE, (long) from + more);
      drawn[slot] = (int) limit;
      return (int) limit;
    }

    /** Retires {@code slot} for good: its numbers are nearly spent. */
    static synchronized void retire(final int slot) {
      owners[slot] = RETIRED;
    }

    /** Returns the live buffer of {@code slot}, or {@code null}. */
    static synchronized CommandBuffer owner(final int slot) {
      if (slot < 0 || slot >= used) {
        return null;
      }
      final Object owner = owners[slot].get();
      return owner instanceof CommandBuffer buffer ? buffer : null;
    }
  }

  private static ComponentType<?, ?> checkType(final ComponentType<?, ?> type) {
    if (null == type) {
      throw new NullPointerException("type");
    }
    return type;
  }

  private static void checkTag(final ComponentType<?, ?> type, final String operation) {
    checkType(type);
    if (!type.traits().empty()) {
      throw new IllegalArgumentException(
          "cannot record "
              + operation
              + "(entity, "
              + type.name()
              + ") as a tag: the type stores instances; record emplace(entity, type, value)");
    }
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

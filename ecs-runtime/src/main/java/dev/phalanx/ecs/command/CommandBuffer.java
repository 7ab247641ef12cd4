package dev.phalanx.ecs.command;

import static dev.phalanx.ecs.command.CommandStream.ATTACH;
import static dev.phalanx.ecs.command.CommandStream.DESTROY;
import static dev.phalanx.ecs.command.CommandStream.DESTROY_TREE;
import static dev.phalanx.ecs.command.CommandStream.DETACH;
import static dev.phalanx.ecs.command.CommandStream.EMPLACE;
import static dev.phalanx.ecs.command.CommandStream.EMPLACE_IF_ABSENT;
import static dev.phalanx.ecs.command.CommandStream.ERASE;
import static dev.phalanx.ecs.command.CommandStream.FIELDS;
import static dev.phalanx.ecs.command.CommandStream.FIELDS_IF_ABSENT;
import static dev.phalanx.ecs.command.CommandStream.NO_TYPE;
import static dev.phalanx.ecs.command.CommandStream.OPERATIONS;
import static dev.phalanx.ecs.command.CommandStream.QUEUE;
import static dev.phalanx.ecs.command.CommandStream.REMOVE;
import static dev.phalanx.ecs.command.CommandStream.REMOVE_ALL;
import static dev.phalanx.ecs.command.CommandStream.REPLACE;
import static dev.phalanx.ecs.command.CommandStream.code;

import dev.phalanx.ecs.ChangeSet;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.OwningGroup;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import dev.phalanx.ecs.internal.Failures;
import dev.phalanx.ecs.internal.FieldRecorder;
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
  // Entity.MAX_INDEX), the buffer's slot in the other 31 (see ReservationSlots); the version bits
  // hold the reservation's number, drawn from the slot's numbers, which are never drawn twice.
  private static final int RESERVED_BIT = 0x8000_0000;
  // For messages: each buffer's number, in creation order (64 bits: never reused).
  private static final AtomicLong SERIALS = new AtomicLong();
  // The registry, whose count of parallel passes (Registry.parallelPasses) ends an owner's claim.
  private final Registry registry;
  // The recorded commands, and their replay onto the registry.
  private final CommandStream stream = new CommandStream();
  private final CommandReplay replay;
  // The set this buffer belongs to, whose buffers resolve each other's handles; null if
  // standalone.
  private final CommandBuffers set;
  // The run key in the set, for messages; -1 if standalone.
  private final int key;
  private final long serial = SERIALS.incrementAndGet();
  private final WeakReference<CommandBuffer> self = new WeakReference<>(this);
  // The slot in this buffer's reserved handles (see ReservationSlots), and the reservation
  // numbers: [base, next) are this apply's reservations, and the slot may hand out numbers up to
  // limit.
  private int slot;
  private int base;
  private int next;
  private int limit;
  // The thread that records between two sync points, and the registry's parallel pass count when
  // it claimed the buffer: a claim of an earlier pass has ended. Written under the monitor.
  private Thread owner;
  private int ownerPass;
  private boolean applying;
  // The entities the reservations [createdBase, createdBase + created) became: the current
  // apply's so far, or the last apply's; forgotten by clear().
  private long[] materialized = new long[16];
  private int createdBase;
  private int created;
  // What the registry's create listeners threw during this apply's creations: creating never stops
  // half-way for them (the count above must stay true), so it is kept here and reported with the
  // commands' failures at the end of applyCommands.
  private Throwable createFailure;

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
    this.replay = new CommandReplay(this, registry, stream);
    takeSlot();
  }

  /** {@return the slot in this buffer's reserved handles} */
  int slot() {
    return slot;
  }

  /** {@return the number of commands recorded and not yet applied} */
  public int size() {
    return stream.count - stream.applied;
  }

  /** {@return whether nothing is recorded} */
  public boolean isEmpty() {
    return stream.count == stream.applied && next == base;
  }

  /**
   * {@return the number of commands the last {@link #apply()} skipped (dead or missing targets)}
   */
  public int skipped() {
    return replay.skipped();
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
    stream.addRef(checked);
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
    stream.addRef(null);
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
    stream.addRef(checked);
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
    stream.addRef(null);
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
    stream.addRef(checked);
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
    // The steady state: the owner, a plain entity, room for the command (no payload).
    if (owner == Thread.currentThread()
        && ownerPass == registry.parallelPasses()
        && !isReserved(entity)
        && stream.tryAppend(entity, code(DESTROY, NO_TYPE))) {
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
    stream.addWord(parent);
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
    stream.addRef(action);
  }

  // ---------------------------------------------------------------------------------------------
  // For generated code: typed field recording (see FieldRecorder, through which generated code
  // calls these protected members). A generated storage's emplace(commands, entity, fields...)
  // calls beginFields with the number of words and references its fields take, then putWord or
  // putRef once per field in declaration order; on apply, the runtime calls the storage's
  // applyRecorded(entity, fields), which reads them back from the CommandStream in the same order.
  // Nothing is boxed.
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
    // The steady state, checked in one go: a type recorded typed before with these sizes (which
    // implies the table holds the type: ids are unique in the JVM), the owner, a plain entity, room
    // for the command and its payload. With the generated code's constant sizes, the size checks
    // of an empty payload fold away. Anything else takes record's path.
    if (stream.types.hasShape(id, wordCount, refCount)
        && (wordCount | refCount) >= 0
        && owner == Thread.currentThread()
        && ownerPass == registry.parallelPasses()
        && !isReserved(entity)
        && stream.hasRoom(wordCount, refCount)) {
      stream.append(entity, code(FIELDS, id));
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
    if (!stream.tryAddWord(bits)) {
      throw overflow("words");
    }
  }

  /**
   * Records one reference field (see {@link #beginFields}).
   *
   * @param value the field's value, possibly {@code null}
   * @throws IllegalStateException if more references are put than {@code beginFields} announced
   */
  @Override
  protected void putRef(final Object value) {
    if (!stream.tryAddRef(value)) {
      throw overflow("references");
    }
  }

  private IllegalStateException overflow(final String what) {
    return new IllegalStateException(this + ": more " + what + " put than beginFields announced");
  }

  // ---------------------------------------------------------------------------------------------
  // Recording: the checks and the write every command goes through.
  // ---------------------------------------------------------------------------------------------

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
    final int id =
        null == type ? NO_TYPE : stream.types.checkedId(type, typed, wordCount, refCount, this);
    stream.ensureCapacity(wordCount, refCount);
    // Nothing below can fail.
    if (NO_TYPE != id) {
      stream.types.remember(id, type, typed, wordCount, refCount);
    }
    stream.append(entity, code(op, id));
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
    final CommandBuffer reserver =
        ReservationSlots.SHARED.owner(Entity.index(handle) & ~RESERVED_BIT);
    return null == reserver
        ? "was reserved by a command buffer that no longer exists"
        : "belongs to " + reserver;
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
    CommandReplay.checkSyncPoint(registry);
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
    stream.clear();
    replay.forgetSiblings();
    base = next;
    if (next >= ReservationSlots.RENUMBER_AT) {
      ReservationSlots.SHARED.retire(slot);
      takeSlot();
      if (null != set) {
        set.slotChanged();
      }
    }
    release();
  }

  /** {@return whether commands or reservations wait for this apply} */
  boolean hasPending() {
    return stream.applied < stream.count || created < next - base;
  }

  /**
   * Applies every command not applied yet, those recorded meanwhile included, then creates the
   * reservations no command named; reserved handles are resolved in this buffer or, when {@code
   * siblings} is given, in the sibling buffer of their slot. Returns {@code failure} or the first
   * exception a command threw.
   */
  Throwable applyCommands(Throwable failure, final CommandBuffers siblings) {
    failure = replay.applyAll(failure, siblings);
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
  // Reservations: created as an apply starts or when first named, resolved by the replay.
  // ---------------------------------------------------------------------------------------------

  /** {@return the number of reservations to create when an apply starts} */
  int toCreate() {
    return next - base;
  }

  /**
   * Creates the reserved entities, in reservation order, all or none; starts the apply's count of
   * skipped commands.
   */
  void createReserved() {
    replay.startCounting();
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
    replay.startCounting();
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

  /**
   * {@return whether resolving {@code handle} would create entities} It names a reservation made
   * during this apply and not created yet, in this buffer or (when {@code siblings} is given) a
   * sibling.
   */
  boolean createsLate(final long handle, final CommandBuffers siblings) {
    if (!isReserved(handle)) {
      return false;
    }
    final CommandBuffer reserver = reserverOf(handle, siblings);
    return null != reserver && reserver.notCreatedYet(Entity.version(handle));
  }

  /**
   * {@return whether reservation {@code number} is this apply's and not created yet} A number past
   * the reservations counts too: it resolves to nothing either way, so only the path differs.
   */
  private boolean notCreatedYet(final int number) {
    return number - base >= created;
  }

  /**
   * {@return the buffer of {@code handle}'s slot: this one, or the sibling of that slot in {@code
   * siblings}; null if none}
   */
  private CommandBuffer reserverOf(final long handle, final CommandBuffers siblings) {
    final int handleSlot = Entity.index(handle) & ~RESERVED_BIT;
    return handleSlot == slot ? this : null == siblings ? null : siblings.findBySlot(handleSlot);
  }

  /**
   * Returns the entity a handle stands for now, or {@link Entity#NULL} if it cannot be resolved;
   * creates the reservations made during the apply, when one of them is named first.
   */
  long resolve(final long handle, final CommandBuffers siblings) {
    if (!isReserved(handle)) {
      return handle;
    }
    final CommandBuffer reserver = reserverOf(handle, siblings);
    return null == reserver ? Entity.NULL : reserver.createdFor(Entity.version(handle));
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

  /** {@return whether {@code number} is one of this buffer's current reservations} */
  private boolean reservedNow(final int number) {
    return number - base >= 0 && number < next;
  }

  // ---------------------------------------------------------------------------------------------
  // Slots: the numbers in reserved handles.
  // ---------------------------------------------------------------------------------------------

  private void takeSlot() {
    final int[] taken = ReservationSlots.SHARED.take(self);
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
    ReservationSlots.SHARED.handOver(buffer.slot);
  }

  /** Draws more reservation numbers from the slot (a lock, once per growing number of them). */
  private void extendNumbers() {
    if (next == Integer.MAX_VALUE) {
      throw new IllegalStateException(
          this + " cannot reserve more than " + (Integer.MAX_VALUE - base) + " entities at once");
    }
    limit = ReservationSlots.SHARED.extend(slot, next, Math.max(1024, next - base));
  }
}

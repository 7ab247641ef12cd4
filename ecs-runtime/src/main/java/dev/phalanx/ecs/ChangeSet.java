package dev.phalanx.ecs;

import dev.phalanx.ecs.internal.Failures;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A set of structural changes staged now and committed as one: the core's all-or-nothing change
 * path. Stage creations, insertions (by value, or as copies of another storage's element), value
 * writes, removals and destructions; {@link #commit()} then checks every staged change against the
 * world, and only if all pass applies them, then announces them. A refused commit changes nothing.
 * Use it for an edit that must land whole: a level read from a file, an editor's "apply", a message
 * from the network, a prefab's instances. Phalanx's cloning and prefabs are built on it.
 *
 * <h2>Why this shape</h2>
 *
 * <p>EnTT applies every change at once and leaves atomicity to the caller; flecs defers changes
 * between {@code defer_begin} and {@code defer_end} and merges them at the end, without a check
 * before the merge; Bevy's {@code Commands} queue changes that are applied at a sync point, each
 * command on its own. A change set is the part of these that a batch edit needs: handles usable
 * before they exist (as flecs and Bevy give), with the whole batch checked before the first change
 * (which none of them gives). It is an object the caller owns, not a mode of the registry: two
 * edits in progress cannot see each other's staging, and a listener that runs during a commit
 * cannot extend it by accident.
 *
 * <h2>Staging</h2>
 *
 * <p>{@link #create()} returns a <em>staged handle</em>: a placeholder for an entity that the
 * commit creates. Later calls of the same set may target it, and an {@code @EntityRef} field
 * written by the commit that holds it (in a value passed to {@link #emplace} or {@link #replace},
 * set by a {@link RowWriter}, or after a {@link References} mapping of a {@link #copy}) is
 * rewritten to the created entity. After the commit, {@link #entityOf} names the entity each handle
 * became. The registry refuses staged handles. Staging changes nothing of the world and checks only
 * its arguments (a value write looks up its element then, to spare the commit the lookup); it is
 * cheap and allocates nothing once the set's arrays have grown (keep the set and reuse it).
 *
 * <p>An insertion or a value write may also be staged without a component instance: {@link
 * #emplace(long, ComponentType, RowWriter, int)} and {@link #write(long, ComponentType, RowWriter,
 * int)} take a {@link RowWriter} and a row number, and the commit has the writer write the fields
 * straight into the storage's pages at the element's final position, in the apply step. They are
 * checked and announced as {@link #emplace(long, ComponentType, Object)} and {@link #replace} are.
 * Writes by one writer of one type staged one after another (or as a range, {@link #write(long[],
 * int, int, ComponentType, RowWriter, int[])}) are kept as one run, its elements handed to the
 * writer at once. This is how a loader applies a decoded stream: its columns are copied field by
 * field, with no instance and no boxing; {@code dev.phalanx.ecs.snapshot}'s {@code
 * ContinuousLoader} and {@code DeltaLoader} apply each snapshot or delta as one change set so.
 *
 * <h2>Committing</h2>
 *
 * <p>{@link #commit()} runs in three steps.
 *
 * <ol>
 *   <li><b>Check.</b> Every change is checked against the world and against the changes staged
 *       before it: its target is live or staged here and not destroyed earlier in the set, an
 *       insertion's target lacks the component, a value write's target has it, the registry is not
 *       being cleared, the identifiers suffice, and no storage a change touches is locked, nor
 *       iterated when the change removes from it or groups observe it. One component of one entity
 *       may be inserted, written or removed once per set. A relationship an insertion, a value
 *       write or a copy stages names a live entity or a handle of this set, not one the set
 *       destroys or whose destroy is under way, and closes no cycle of an acyclic kind, counting
 *       every relationship the set stages (a {@link References} mapping of a relationship kind's
 *       copy runs here too; row writes are not read before the apply). Each run of destroys staged
 *       one after another passes the registry's {@link DestroyCheck}s as one batch, as {@link
 *       Registry#destroy(long[], int, int)}. The first failure is thrown (an {@link
 *       IllegalArgumentException}, {@link IllegalStateException} or {@link
 *       java.util.ConcurrentModificationException} naming the change, the entity and the rule) and
 *       nothing changes; the set keeps its changes. A storage created for a type the registry did
 *       not have yet stays, empty.
 *   <li><b>Apply.</b> The staged entities are created, then every insertion and value write is made
 *       in staging order, with nothing announced: no user code runs in this step but the {@link
 *       RowWriter}s of row changes, which may only write their element's fields.
 *   <li><b>Announce.</b> Creation is published for each created entity, then every insertion (group
 *       entries, construction) last staged first, then every value write (update; not for a target
 *       that listeners destroyed or stripped of the component meanwhile). Then the removals and
 *       destructions run in staging order (a run of destroys as one batch destroy), each announced
 *       as the registry announces it (their listeners see the component still there); a target that
 *       listeners already destroyed or stripped is skipped. A listener's exception stops nothing:
 *       every change is made and every listener runs, and the first exception is rethrown at the
 *       end with later ones suppressed (a row writer's exception too, the element written as far as
 *       it got).
 * </ol>
 *
 * <p>After a commit that got to its second step, the set is empty and reusable, whatever a listener
 * threw; a refused commit leaves it holding its changes, so {@link #isEmpty()} tells the two apart
 * when {@code commit()} throws. {@link #entityOf} answers for the handles of a commit from its
 * apply step on (its listeners may call it) until the next commit.
 *
 * <h2>Re-entrancy and threads</h2>
 *
 * <p>While a set commits, its methods that stage, clear or commit refuse with {@link
 * IllegalStateException} and change nothing (its queries answer): a listener that wants to change
 * the world uses the registry, or a set of its own. A set belongs to one thread; commit it at a
 * point where no other thread changes its registry.
 */
public final class ChangeSet {

  /**
   * Maps the {@code @EntityRef} fields of a copy ({@link #copy}): called once per reference field
   * of each copied element that holds an entity.
   */
  @FunctionalInterface
  public interface References {
    /**
     * Returns what the field should hold in the copy: the reference itself, another entity, a
     * staged handle of the same set (rewritten to its entity by the commit) or {@link Entity#NULL}.
     * Called during the commit's apply step: it must not change the world.
     *
     * @param copy the copy's index among the targets of one {@code copy} call (0 for one target)
     * @param reference the entity the field holds in the source
     * @return the entity the field holds in the copy
     */
    long map(int copy, long reference);
  }

  /**
   * Writes the fields of one element that a commit inserts or writes ({@link #emplace(long,
   * ComponentType, RowWriter, int)}, {@link #write(long, ComponentType, RowWriter, int)}) straight
   * into its storage's pages, where the caller holds the values in a form of its own (a decoded
   * stream's columns, say): no component instance is built, nothing is boxed.
   *
   * <p>The commit calls it in its apply step, in staging order, with each element's final position:
   * a run of changes staged one after another with the same writer and type is handed over at once
   * ({@link #writeAll}), after the run's insertions are made (unannounced) and the elements moved
   * where groups keep them; a single change comes through {@link #write}. It may write only that
   * position's fields, through the page arrays {@link Storage#columns} hands out ({@code
   * pages[position >>> storage.pageShift()][position & (storage.pageSize() - 1)]}), and read
   * anything that is not the world. It runs while the world is half changed and announces nothing:
   * it must not call the registry, a storage's mutators or a query, nor stage into the set. For an
   * insertion it should write every field: a field it leaves alone holds whatever the page held at
   * that position (the values of a removed element, or the type's defaults). If it throws, the
   * commit goes on (the element is inserted, or kept, with what was written), and the exception is
   * rethrown at the commit's end as a listener's would be. One writer may serve many changes:
   * {@code row} tells it which values to write.
   */
  @FunctionalInterface
  public interface RowWriter {
    /**
     * Writes the fields of the element at {@code position} of {@code storage}.
     *
     * @param storage the storage of the change's type in the set's registry
     * @param position the element's position in {@code storage}
     * @param row the row given when the change was staged
     */
    void write(Storage<?> storage, int position, int row);

    /**
     * Writes the fields of {@code count} elements: row {@code rows[k]} at {@code positions[k]}. A
     * writer that holds its values by column overrides it to write column by column, each page
     * array fetched once. The default calls {@link #write} for each, in order; if some throw, the
     * others are still written and the first exception is thrown at the end, later ones suppressed.
     *
     * @param storage the storage of the changes' type in the set's registry
     * @param positions the elements' positions in {@code storage}, {@code [0, count)}
     * @param rows the rows given when the changes were staged, {@code [0, count)}
     * @param count how many elements
     */
    default void writeAll(
        final Storage<?> storage, final int[] positions, final int[] rows, final int count) {
      Throwable failure = null;
      for (int k = 0; k < count; k++) {
        try {
          write(storage, positions[k], rows[k]);
        } catch (final RuntimeException | Error thrown) {
          failure = Failures.add(failure, thrown);
        }
      }
      Failures.rethrow(failure);
    }
  }

  // Staged handles: index bits 0b11 then the set's serial (30 bits); version bits the staging
  // number. Command buffers' reserved handles set the top bit only, with slots below 2^30.
  private static final int STAGED_BITS = 0xC000_0000;
  private static final int SERIAL_MASK = 0x3FFF_FFFF;
  // What a staged handle adds to its predecessor's: one staging number.
  private static final long NEXT_HANDLE = 1L << Entity.INDEX_BITS;
  private static final AtomicInteger SERIALS = new AtomicInteger();

  // The kinds of staged change.
  static final byte EMPLACE = 0;
  static final byte COPY = 1;
  static final byte REPLACE = 2;
  static final byte REMOVE = 3;
  static final byte DESTROY = 4;
  static final byte EMPLACE_ROW = 5;
  static final byte WRITE_RUN = 6;
  // The operation each kind of change is staged by, for messages.
  static final String[] OPERATIONS = {
    "emplace", "copy", "replace", "remove", "destroy", "emplace", "write"
  };

  private final Registry registry;
  // The commit's steps: the check, and what it found for the apply; the apply and announce.
  private final ChangeCheck check;
  private final ChangeApply apply;

  // Staged creations: numbers [base, base + staged) of this set's serial. The commit's steps read
  // them; only staging, clear and the end of a commit change them.
  private int serial;
  int base;
  int staged;

  // The last commit's creations: numbers [createdBase, createdBase + createdCount) of
  // createdSerial.
  long[] created = new long[8];
  private int createdSerial = -1;
  private int createdBase;
  int createdCount;

  // The staged changes, in order. For a copy, values holds the source storage and sources the
  // source entity; a copy to many targets keeps them in rangeTargets[rangeStart, + rangeCount).
  // For a row insertion, values holds the RowWriter and sources the row. Row writes are kept as
  // runs: writes of one type by one writer staged one after another are one change, its targets
  // in rangeTargets, their rows in rangeRows and the positions staging found in rangePositions,
  // at the same offsets; joinedWrites counts the writes that joined a run after its first. The
  // commit's steps read them (a range's
  // staged targets are resolved in place, a run's positions refreshed); only staging changes them,
  // and never during a commit. A grow replaces the arrays: read them through the set.
  byte[] kinds = new byte[16];
  long[] targets = new long[16];
  ComponentType<?, ?>[] types = new ComponentType<?, ?>[16];
  Object[] values = new Object[16];
  long[] sources = new long[16];
  References[] maps = new References[16];
  int[] rangeStarts = new int[16];
  int[] rangeCounts = new int[16];
  int size;
  long[] rangeTargets = new long[16];
  int[] rangeRows = new int[0];
  int[] rangePositions = new int[0];
  private int rangeSize;
  private int joinedWrites;

  private boolean committing;

  /**
   * Creates an empty set of changes to {@code registry}.
   *
   * @param registry the registry {@link #commit()} changes
   */
  public ChangeSet(final Registry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
    this.check = new ChangeCheck(this, registry);
    this.apply = new ChangeApply(this, check, registry);
    this.serial = SERIALS.getAndIncrement() & SERIAL_MASK;
  }

  /** {@return the registry this set changes} */
  public Registry registry() {
    return registry;
  }

  /**
   * {@return the number of changes staged, staged creations included; each entity of a range write
   * counts as one write, a copy to many targets as one change}
   */
  public int size() {
    return size + staged + joinedWrites;
  }

  /** {@return whether nothing is staged} */
  public boolean isEmpty() {
    return 0 == size && 0 == staged;
  }

  /**
   * {@return whether {@code handle} is a staged handle (of any set) rather than an entity}
   *
   * @param handle any handle
   */
  public static boolean isStaged(final long handle) {
    return !Entity.isNull(handle) && STAGED_BITS == (Entity.index(handle) & STAGED_BITS);
  }

  /** {@return "change set #serial", for messages} */
  @Override
  public String toString() {
    return "change set #" + serial;
  }

  // ---------------------------------------------------------------------------------------------
  // Staging.
  // ---------------------------------------------------------------------------------------------

  /**
   * Stages the creation of an entity.
   *
   * @return the staged handle that names it in this set's later calls, and in {@link #entityOf}
   *     after the commit
   * @throws IllegalStateException while this set commits
   */
  public long create() {
    checkIdle("create");
    if (base + staged == Integer.MAX_VALUE) {
      throw ChangeRefusals.tooManyCreations(this, staged);
    }
    return handle(staged++);
  }

  /**
   * Stages {@code count} creations, their staged handles into {@code out[offset, offset + count)}.
   *
   * @param out receives the staged handles
   * @param offset where in {@code out} the first goes
   * @param count how many to stage
   * @throws IndexOutOfBoundsException if the range does not fit {@code out}
   * @throws IllegalStateException while this set commits
   */
  public void create(final long[] out, final int offset, final int count) {
    Objects.checkFromIndexSize(offset, count, out.length);
    checkIdle("create");
    if (count > Integer.MAX_VALUE - base - staged) {
      throw ChangeRefusals.tooManyCreationsMore(this, count);
    }
    long next = handle(staged);
    for (int i = offset; i < offset + count; i++) {
      out[i] = next;
      next += NEXT_HANDLE;
    }
    staged += count;
  }

  /**
   * Stages the insertion of {@code value} as {@code entity}'s component of {@code type}.
   *
   * @param <T> the component class
   * @param entity a live entity or a staged handle of this set
   * @param type the component type
   * @param value the component; {@code null} only for a tag type
   * @throws NullPointerException if {@code type} is null, or {@code value} is for a non-tag type
   * @throws IllegalArgumentException if {@code entity} is a staged handle of another set
   * @throws IllegalStateException while this set commits
   */
  public <T> void emplace(final long entity, final ComponentType<T, ?> type, final T value) {
    stage(EMPLACE, entity, checkValue(type, value, "emplace"), value);
  }

  /**
   * Stages the insertion of the tag {@code tag} on {@code entity}.
   *
   * @param entity a live entity or a staged handle of this set
   * @param tag a tag type (one without fields)
   * @throws IllegalArgumentException if {@code tag} stores instances
   * @throws IllegalStateException while this set commits
   */
  public void emplace(final long entity, final ComponentType<?, ?> tag) {
    Objects.requireNonNull(tag, "tag");
    if (!tag.traits().empty()) {
      throw ChangeRefusals.notATag(tag);
    }
    stage(EMPLACE, entity, tag, null);
  }

  /**
   * Stages the insertion of a copy of {@code sourceEntity}'s element of {@code source} as {@code
   * entity}'s component: field by field for struct-of-arrays storages, the reference for object
   * storages, membership for tags. The source is read when the set commits, and must then still
   * hold the element. {@code @EntityRef} fields keep what they hold.
   *
   * @param entity a live entity or a staged handle of this set
   * @param source any storage: of this registry, another, or standalone
   * @param sourceEntity the entity whose element is copied
   * @throws IllegalStateException while this set commits
   */
  public void copy(final long entity, final Storage<?> source, final long sourceEntity) {
    copy(entity, source, sourceEntity, null);
  }

  /**
   * As {@link #copy(long, Storage, long)}, with each {@code @EntityRef} field of the copy that
   * holds an entity set to what {@code references} maps it to.
   *
   * @param entity a live entity or a staged handle of this set
   * @param source any storage
   * @param sourceEntity the entity whose element is copied
   * @param references maps the copy's references, or {@code null} to keep them
   * @throws IllegalStateException while this set commits
   */
  public void copy(
      final long entity,
      final Storage<?> source,
      final long sourceEntity,
      final References references) {
    Objects.requireNonNull(source, "source");
    final int change = stage(COPY, entity, source.type(), source);
    sources[change] = sourceEntity;
    maps[change] = references;
  }

  /**
   * Stages a copy of {@code sourceEntity}'s element of {@code source} for every entity of {@code
   * entities[from, to)}: the bulk form of {@link #copy(long, Storage, long, References)}, which a
   * commit makes as one bulk insertion where nothing listens. {@code references} is called with
   * each target's offset from {@code from} as the copy's index.
   *
   * @param entities live entities or staged handles of this set, each listed once
   * @param from the first offset in {@code entities}
   * @param to the end of the range, exclusive
   * @param source any storage
   * @param sourceEntity the entity whose element is copied
   * @param references maps each copy's references, or {@code null} to keep them
   * @throws IndexOutOfBoundsException if the range does not fit {@code entities}
   * @throws IllegalStateException while this set commits
   */
  public void copy(
      final long[] entities,
      final int from,
      final int to,
      final Storage<?> source,
      final long sourceEntity,
      final References references) {
    Objects.checkFromToIndex(from, to, entities.length);
    Objects.requireNonNull(source, "source");
    checkIdle("copy");
    final int count = to - from;
    // A run of this set's own creations (a prefab's instances) needs no check per handle.
    final int run = createdRun(entities, from, count);
    if (run < 0) {
      for (int i = from; i < to; i++) {
        checkHandle(entities[i], "copy");
      }
    }
    reserveRange(count, false);
    final int change = stage(COPY, Entity.NULL, source.type(), source);
    rangeCounts[change] = count;
    if (run >= 0) {
      rangeStarts[change] = -1 - run;
    } else {
      System.arraycopy(entities, from, rangeTargets, rangeSize, count);
      rangeStarts[change] = rangeSize;
      rangeSize += count;
    }
    sources[change] = sourceEntity;
    maps[change] = references;
  }

  /**
   * Stages a copy of {@code sourceEntity}'s element of {@code source} for each of {@code count}
   * consecutive creations of this set, the first named by {@code first}: the handles one {@link
   * #create(long[], int, int)} wrote, or their tail. The form of {@link #copy(long[], int, int,
   * Storage, long, References)} for a prefab's instances: it stages in constant time whatever the
   * count, and the commit copies into page runs of the created entities. {@code references} is
   * called with each creation's offset from {@code first} as the copy's index.
   *
   * @param first a staged handle of this set
   * @param count how many creations, from {@code first} on, get a copy
   * @param source any storage
   * @param sourceEntity the entity whose element is copied
   * @param references maps each copy's references, or {@code null} to keep them
   * @throws IllegalArgumentException if {@code first} is no staged handle of this set, {@code
   *     count} is negative, or fewer than {@code count} creations are staged from {@code first} on
   * @throws IllegalStateException while this set commits
   */
  public void copyToCreations(
      final long first,
      final int count,
      final Storage<?> source,
      final long sourceEntity,
      final References references) {
    Objects.requireNonNull(source, "source");
    checkIdle("copy");
    if (!isStagedHere(first) || count < 0 || count > staged - (Entity.version(first) - base)) {
      throw ChangeRefusals.noCreationRun(this, first, count);
    }
    final int change = stage(COPY, Entity.NULL, source.type(), source);
    rangeCounts[change] = count;
    rangeStarts[change] = -1 - (Entity.version(first) - base);
    sources[change] = sourceEntity;
    maps[change] = references;
  }

  /**
   * Stages a write of {@code value} over {@code entity}'s component of {@code type}, announced as
   * an update.
   *
   * @param <T> the component class
   * @param entity a live entity that has the component
   * @param type the component type
   * @param value the new component
   * @throws IllegalStateException while this set commits
   */
  public <T> void replace(final long entity, final ComponentType<T, ?> type, final T value) {
    stage(REPLACE, entity, checkValue(type, value, "replace"), value);
  }

  /**
   * Stages the insertion of {@code entity}'s component of {@code type}, its fields written by
   * {@code writer} at the element's position during the commit's apply step ({@link RowWriter}),
   * with {@code row} passed along. Checked and announced as {@link #emplace(long, ComponentType,
   * Object)} is (construct, group entries); a tracked storage stamps the element with the current
   * change tick. An {@code @EntityRef} field the writer sets to a staged handle of this set is then
   * rewritten to the entity created for it. Stores the writer and the row; allocates nothing once
   * the set's arrays have grown.
   *
   * @param entity a live entity or a staged handle of this set
   * @param type the component type
   * @param writer writes the element's fields
   * @param row handed to {@code writer}: which of its rows this element is
   * @throws NullPointerException if {@code type} or {@code writer} is null
   * @throws IllegalArgumentException if {@code entity} is a staged handle of another set
   * @throws IllegalStateException while this set commits
   */
  public void emplace(
      final long entity, final ComponentType<?, ?> type, final RowWriter writer, final int row) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(writer, "writer");
    // Staged first: it may grow the arrays.
    final int change = stage(EMPLACE_ROW, entity, type, writer);
    sources[change] = row;
  }

  /**
   * Stages a write of {@code entity}'s component of {@code type} in place, its fields written by
   * {@code writer} at the element's position during the commit's apply step ({@link RowWriter}),
   * with {@code row} passed along. Checked and announced as {@link #replace} is (the target must
   * have the component; an update is published); a tracked storage stamps the element with the
   * current change tick. An {@code @EntityRef} field the writer sets to a staged handle of this set
   * is then rewritten to the entity created for it. The element is looked up now (its caller has
   * usually just looked at it, so the lookup is cheap), and writes of one type by one writer staged
   * one after another are kept as one run: the commit checks them in one loop and hands their
   * positions to {@link RowWriter#writeAll} at once, looking them up again only if an element of
   * the storage moved or left since. Stores the writer and the row; allocates nothing once the
   * set's arrays have grown.
   *
   * @param entity a live entity that has the component
   * @param type the component type
   * @param writer writes the element's fields
   * @param row handed to {@code writer}: which of its rows this element is
   * @throws NullPointerException if {@code type} or {@code writer} is null
   * @throws IllegalArgumentException if {@code entity} is a staged handle of another set
   * @throws IllegalStateException while this set commits
   */
  public void write(
      final long entity, final ComponentType<?, ?> type, final RowWriter writer, final int row) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(writer, "writer");
    checkIdle("write");
    checkHandle(entity, "write");
    final int run = writeRun(type, writer, 1);
    rangeTargets[rangeSize] = entity;
    rangeRows[rangeSize] = row;
    joinWrites(run, 1);
  }

  /**
   * Stages a write in place of each entity of {@code entities[from, to)}'s component of {@code
   * type}, the fields of {@code entities[i]}'s element written by {@code writer} with row {@code
   * rows[i]}: the bulk form of {@link #write(long, ComponentType, RowWriter, int)}, the same as
   * that many single writes staged one after another (an empty range stages nothing). Copies the
   * range; allocates nothing once the set's arrays have grown.
   *
   * @param entities live entities that have the component, each listed once
   * @param from the first offset in {@code entities} and {@code rows}
   * @param to the end of the range, exclusive
   * @param type the component type
   * @param writer writes the elements' fields
   * @param rows handed to {@code writer}: {@code rows[i]} for {@code entities[i]}
   * @throws NullPointerException if {@code type} or {@code writer} is null
   * @throws IndexOutOfBoundsException if the range does not fit {@code entities} or {@code rows}
   * @throws IllegalArgumentException if an entity is a staged handle of another set
   * @throws IllegalStateException while this set commits
   */
  public void write(
      final long[] entities,
      final int from,
      final int to,
      final ComponentType<?, ?> type,
      final RowWriter writer,
      final int[] rows) {
    Objects.checkFromToIndex(from, to, entities.length);
    Objects.checkFromToIndex(from, to, rows.length);
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(writer, "writer");
    checkIdle("write");
    for (int i = from; i < to; i++) {
      checkHandle(entities[i], "write");
    }
    final int count = to - from;
    if (0 == count) {
      return;
    }
    final int run = writeRun(type, writer, count);
    System.arraycopy(entities, from, rangeTargets, rangeSize, count);
    System.arraycopy(rows, from, rangeRows, rangeSize, count);
    joinWrites(run, count);
  }

  /**
   * {@return the run of writes that the next {@code count} writes of {@code type} by {@code writer}
   * join}: the last change, if it is such a run, else a new run. The last change's targets always
   * end the range arrays: only a ranged copy or a run adds to them, each as the last change. Makes
   * room for {@code count} more targets.
   */
  private int writeRun(final ComponentType<?, ?> type, final RowWriter writer, final int count) {
    reserveRange(count, true);
    final int last = size - 1;
    if (size > 0 && WRITE_RUN == kinds[last] && types[last] == type && values[last] == writer) {
      return last;
    }
    final int run = stage(WRITE_RUN, Entity.NULL, type, writer);
    rangeStarts[run] = rangeSize;
    rangeCounts[run] = 0;
    check.startWriteRun(run, registry.findStorage(type));
    return run;
  }

  /**
   * Adds the {@code count} writes placed at the end of the range arrays to run {@code run}, their
   * elements looked up in one loop (the caller has just touched them).
   */
  private void joinWrites(final int run, final int count) {
    check.noteWrites(registry.findStorage(types[run]), rangeSize, count);
    joinedWrites += 0 == rangeCounts[run] ? count - 1 : count;
    rangeCounts[run] += count;
    rangeSize += count;
  }

  /** Makes room for {@code count} more range targets, and their rows and positions if asked. */
  private void reserveRange(final int count, final boolean rows) {
    if (rangeTargets.length - rangeSize < count) {
      rangeTargets =
          Arrays.copyOf(rangeTargets, Math.max(rangeSize + count, rangeTargets.length * 2));
    }
    if (rows && rangeRows.length < rangeTargets.length) {
      rangeRows = Arrays.copyOf(rangeRows, rangeTargets.length);
      rangePositions = Arrays.copyOf(rangePositions, rangeTargets.length);
    }
  }

  /**
   * Stages the removal of {@code entity}'s component of {@code type}; nothing happens if the entity
   * lacks it when the removal runs.
   *
   * @param entity a live entity or a staged handle of this set
   * @param type the component type
   * @throws IllegalStateException while this set commits
   */
  public void remove(final long entity, final ComponentType<?, ?> type) {
    stage(REMOVE, entity, Objects.requireNonNull(type, "type"), null);
  }

  /**
   * Stages the destruction of {@code entity}, with every component it has then.
   *
   * @param entity a live entity or a staged handle of this set
   * @throws IllegalStateException while this set commits
   */
  public void destroy(final long entity) {
    stage(DESTROY, entity, null, null);
  }

  /**
   * Forgets every staged change and creation; the arrays are kept for reuse. Handles staged before
   * are refused afterwards.
   *
   * @throws IllegalStateException while this set commits
   */
  public void clear() {
    checkIdle("clear");
    forget();
    nextNumbers();
  }

  /**
   * {@return the entity the last commit created for {@code handle}, or {@link Entity#NULL}} The
   * entity may have been destroyed since: check {@link Registry#valid}. During a commit, from its
   * apply step on (in its listeners, say), it answers for that commit's handles; a refused commit
   * creates nothing and changes what it answers in no way.
   *
   * @param handle a staged handle of this set's last commit
   */
  public long entityOf(final long handle) {
    if (!isStaged(handle) || (Entity.index(handle) & SERIAL_MASK) != createdSerial) {
      return Entity.NULL;
    }
    final int n = Entity.version(handle) - createdBase;
    return n >= 0 && n < createdCount ? created[n] : Entity.NULL;
  }

  /**
   * Returns {@code n} if {@code entities[from, from + count)} are this set's staged creations
   * {@code n, n + 1, ...} in order (a prefab's instances), else -1: such a run is kept as its first
   * number, and its entities are read from the created ones, neither copied nor resolved one by
   * one.
   */
  private int createdRun(final long[] entities, final int from, final int count) {
    if (0 == count || !isStagedHere(entities[from])) {
      return -1;
    }
    final int n = Entity.version(entities[from]) - base;
    return count <= staged - n && isRun(entities, from, count) ? n : -1;
  }

  /**
   * Whether {@code handles[from, from + count)} are consecutive handles of one set, each the one
   * after its predecessor. Branch-free, so it runs at memory speed: a prefab's runs are long.
   */
  private static boolean isRun(final long[] handles, final int from, final int count) {
    long expected = handles[from];
    long mismatch = 0;
    for (int i = from; i < from + count; i++) {
      mismatch |= handles[i] ^ expected;
      expected += NEXT_HANDLE;
    }
    return 0 == mismatch;
  }

  /**
   * Replaces each staged handle of the last commit in {@code handles[from, from + count)} by the
   * entity created for it, as {@link #entityOf} does one by one ({@link Entity#NULL} for any other
   * handle).
   *
   * @param handles staged handles, replaced in place
   * @param from the first offset
   * @param count how many
   * @throws IndexOutOfBoundsException if the range does not fit {@code handles}
   */
  public void entitiesOf(final long[] handles, final int from, final int count) {
    Objects.checkFromIndexSize(from, count, handles.length);
    final int run = lastCreatedRun(handles, from, count);
    if (run >= 0) {
      System.arraycopy(created, run, handles, from, count);
      return;
    }
    for (int i = from; i < from + count; i++) {
      handles[i] = entityOf(handles[i]);
    }
  }

  /** As {@link #createdRun}, for the last commit's creations. */
  private int lastCreatedRun(final long[] handles, final int from, final int count) {
    if (0 == count || Entity.isNull(entityOf(handles[from]))) {
      return -1;
    }
    final int n = Entity.version(handles[from]) - createdBase;
    return count <= createdCount - n && isRun(handles, from, count) ? n : -1;
  }

  /** {@return the staged handle of this set's creation {@code n} (from 0) of the staging} */
  long handle(final int n) {
    return Entity.of(STAGED_BITS | serial, base + n);
  }

  private int stage(
      final byte kind, final long entity, final ComponentType<?, ?> type, final Object value) {
    checkIdle(OPERATIONS[kind]);
    // A range's null target is no handle: the check passes it.
    checkHandle(entity, OPERATIONS[kind]);
    if (size == kinds.length) {
      grow();
    }
    final int change = size++;
    kinds[change] = kind;
    targets[change] = entity;
    types[change] = type;
    values[change] = value;
    return change;
  }

  private void grow() {
    final int grown = size * 2;
    kinds = Arrays.copyOf(kinds, grown);
    targets = Arrays.copyOf(targets, grown);
    types = Arrays.copyOf(types, grown);
    values = Arrays.copyOf(values, grown);
    sources = Arrays.copyOf(sources, grown);
    maps = Arrays.copyOf(maps, grown);
    rangeStarts = Arrays.copyOf(rangeStarts, grown);
    rangeCounts = Arrays.copyOf(rangeCounts, grown);
    check.grow(grown);
  }

  private void checkIdle(final String operation) {
    if (committing) {
      throw ChangeRefusals.committing(this, operation);
    }
  }

  private void checkHandle(final long entity, final String operation) {
    if (isStaged(entity) && !isStagedHere(entity)) {
      throw ChangeRefusals.foreignHandle(this, entity, operation);
    }
  }

  /** {@return whether {@code handle} is one of the creations staged in this set now} */
  boolean isStagedHere(final long handle) {
    if (!isStaged(handle) || (Entity.index(handle) & SERIAL_MASK) != serial) {
      return false;
    }
    final int n = Entity.version(handle) - base;
    return n >= 0 && n < staged;
  }

  private static ComponentType<?, ?> checkValue(
      final ComponentType<?, ?> type, final Object value, final String operation) {
    Objects.requireNonNull(type, "type");
    if (null == value && !type.traits().empty()) {
      throw ChangeRefusals.nullValue(type, operation);
    }
    return type;
  }

  // ---------------------------------------------------------------------------------------------
  // Committing: ChangeCheck checks and records, the set creates the staged entities, ChangeApply
  // applies and announces. Both steps read the staged changes through the set.
  // ---------------------------------------------------------------------------------------------

  /**
   * Checks every staged change, then applies them all and announces them; see the class comment.
   *
   * @throws IllegalArgumentException if a change's target is not valid, lacks or already has the
   *     component it needs, or is changed twice; nothing changes
   * @throws IllegalStateException if the registry is being cleared, a target is being destroyed,
   *     the identifiers would run out, or this set is committing already; nothing changes
   * @throws java.util.ConcurrentModificationException if a change would break an iteration or a
   *     lock; nothing changes
   * @throws RuntimeException the first exception a listener (or a {@link RowWriter}) threw, once
   *     every change is made; the set is then empty
   */
  public void commit() {
    checkIdle("commit");
    committing = true;
    try {
      check.run();
    } catch (final RuntimeException | Error refused) {
      check.forgetMarks();
      committing = false;
      throw refused;
    }
    Throwable failure;
    try {
      materialize();
      failure = apply.run();
    } finally {
      forget();
      nextNumbers();
      committing = false;
    }
    Failures.rethrow(failure);
  }

  /** Creates the staged entities, unannounced. */
  private void materialize() {
    if (created.length < staged) {
      created = new long[Math.max(staged, created.length * 2)];
    }
    if (staged > 0) {
      // Nothing to create asks nothing of the registry: an empty commit is a no-op, even while
      // the registry is being cleared (the check skips that refusal for an empty set too).
      registry.createUnannounced(created, 0, staged);
    }
    createdSerial = serial;
    createdBase = base;
    createdCount = staged;
  }

  /**
   * {@return the end of the run of destroys staged one after another from change {@code from}} The
   * commit checks and applies each run as one batch, as {@link Registry#destroy(long[], int, int)}
   * does: a rule that allows entities going together ({@code REFUSE}) sees the whole run.
   */
  int destroyRunEnd(final int from) {
    int end = from + 1;
    while (end < size && DESTROY == kinds[end]) {
      end++;
    }
    return end;
  }

  /** {@return the entity {@code entity} names in the commit: created for a staged handle} */
  long resolve(final long entity) {
    return isStaged(entity) ? created[Entity.version(entity) - base] : entity;
  }

  /** Maps a reference a copy or value holds to what the commit writes. */
  long written(final long reference) {
    return isStagedHere(reference) ? created[Entity.version(reference) - base] : reference;
  }

  /**
   * Forgets the staged changes (not the last commit's creations). The values and mappings are the
   * caller's, let go; the types are not: {@link ComponentType} holds every type it defines for the
   * JVM's life.
   */
  private void forget() {
    Arrays.fill(values, 0, size, null);
    Arrays.fill(maps, 0, size, null);
    check.forgetMarks();
    size = 0;
    rangeSize = 0;
    joinedWrites = 0;
  }

  /** Retires the staged numbers: handles staged so far are refused from now on. */
  private void nextNumbers() {
    if (staged > Integer.MAX_VALUE - (1 << 20) - base) {
      serial = SERIALS.getAndIncrement() & SERIAL_MASK;
      base = 0;
    } else {
      base += staged;
    }
    staged = 0;
  }
}

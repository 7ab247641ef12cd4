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
import static dev.phalanx.ecs.command.CommandStream.QUEUE;
import static dev.phalanx.ecs.command.CommandStream.REMOVE;
import static dev.phalanx.ecs.command.CommandStream.REMOVE_ALL;
import static dev.phalanx.ecs.command.CommandStream.REPLACE;
import static dev.phalanx.ecs.command.CommandStream.TYPE_MASK;
import static dev.phalanx.ecs.command.CommandStream.op;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Entity;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import dev.phalanx.ecs.internal.Failures;
import java.util.ConcurrentModificationException;
import java.util.function.Consumer;

/**
 * The replay of one buffer's {@link CommandStream} onto its registry: what {@link
 * CommandBuffer#apply()} does once the reserved entities exist. Commands run in recording order,
 * those recorded meanwhile (by listeners, queued actions) included, each on its own:
 *
 * <ul>
 *   <li>a command whose target is dead, or that has nothing to act on, is skipped and counted
 *       ({@link #skipped()}), its payload passed over, so the read cursors always stand at the next
 *       command's payload;
 *   <li>a command that throws is skipped, and its exception collected (the first one returned, the
 *       later ones suppressed in it): no exception stops the replay half-way;
 *   <li>a run of consecutive destroys that nothing can observe is applied as one batch, with the
 *       result one by one would give.
 * </ul>
 *
 * <p>Reserved handles are resolved through the buffer (and its set's siblings), which creates the
 * reservations made during the apply when one is named first. Per command the replay allocates
 * nothing, and a typed command's fields go from the stream to the generated storage unboxed.
 */
final class CommandReplay {

  // What apply does, in the message of an apply refused outside a sync point.
  private static final String SYNC_POINT = "apply commands while an iteration or a lock holds";

  private final CommandBuffer buffer;
  private final Registry registry;
  private final CommandStream stream;
  // The set the buffer belongs to while it is applied, to resolve reserved handles of its
  // siblings; null for a standalone buffer, or between applies.
  private CommandBuffers siblingsInApply;
  // The commands the current (or last) apply skipped: dead or missing targets.
  private int skipped;

  CommandReplay(final CommandBuffer buffer, final Registry registry, final CommandStream stream) {
    this.buffer = buffer;
    this.registry = registry;
    this.stream = stream;
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

  /** {@return the number of commands the current or last apply skipped} */
  int skipped() {
    return skipped;
  }

  /** Starts an apply's count of skipped commands. */
  void startCounting() {
    skipped = 0;
  }

  /** Forgets the set of the last apply. */
  void forgetSiblings() {
    siblingsInApply = null;
  }

  /**
   * Applies every command not applied yet, those recorded meanwhile included; reserved handles are
   * resolved in the buffer or, when {@code siblings} is given, in the sibling buffer of their slot.
   * Returns {@code failure} or the first exception a command threw.
   */
  Throwable applyAll(Throwable failure, final CommandBuffers siblings) {
    siblingsInApply = siblings;
    // The end of a run of destroys found observed: its commands apply one by one, and the run is
    // not measured again at each of them (which would make a long run quadratic).
    int oneByOneUntil = 0;
    // count is read at each step: commands recorded meanwhile are applied too.
    while (stream.applied < stream.count) {
      final int i = stream.applied;
      final int code = stream.codes[i];
      if (FIELDS == op(code)) {
        // The common case, kept tight: a typed emplace recorded by a generated storage.
        failure = applyFields(i, code, siblings, failure);
        continue;
      }
      if (i >= oneByOneUntil && DESTROY == op(code)) {
        final int end = destroyRunEnd(i);
        if (end - i > 1 && registry.destroysInBulk() && !createsLate(i, end, siblings)) {
          failure = applyDestroyRun(i, end, siblings, failure);
          continue;
        }
        oneByOneUntil = end;
      }
      failure = applyAt(i, siblings, failure);
    }
    return failure;
  }

  /** Applies the typed emplace {@code i}; returns {@code failure} or the exception it threw. */
  private Throwable applyFields(
      final int i, final int code, final CommandBuffers siblings, Throwable failure) {
    stream.applied = i + 1;
    final int firstWord = stream.readWord;
    final int firstRef = stream.readRef;
    try {
      final long target = buffer.resolve(stream.targets[i], siblings);
      if (Entity.isNull(target) || !registry.valid(target)) {
        skipped++;
        stream.skipPayload(code, firstWord, firstRef);
      } else {
        stream.types.storage(registry, code & TYPE_MASK).replayRecorded(target, stream);
      }
    } catch (final RuntimeException | Error thrown) {
      failure = Failures.add(failure, thrown);
      stream.skipPayload(code, firstWord, firstRef);
    }
    return failure;
  }

  /** Applies command {@code i}; returns {@code failure} or the exception it threw. */
  private Throwable applyAt(final int i, final CommandBuffers siblings, Throwable failure) {
    final int firstWord = stream.readWord;
    final int firstRef = stream.readRef;
    final int code = stream.codes[i];
    stream.applied = i + 1;
    try {
      final byte op = op(code);
      if (QUEUE == op) {
        applyQueued();
        return failure;
      }
      final long target = buffer.resolve(stream.targets[i], siblings);
      if (Entity.isNull(target) || !registry.valid(target)) {
        skipped++;
        stream.skipPayload(code, firstWord, firstRef);
        return failure;
      }
      final int typeId = code & TYPE_MASK;
      if (FIELDS_IF_ABSENT == op) {
        final Storage<?> storage = stream.types.storage(registry, typeId);
        if (storage.contains(target)) {
          stream.skipPayload(code, firstWord, firstRef);
        } else {
          storage.replayRecorded(target, stream);
        }
      } else {
        failure =
            applyOne(op, target, NO_TYPE == typeId ? null : stream.types.type(typeId), failure);
      }
    } catch (final RuntimeException | Error thrown) {
      failure = Failures.add(failure, thrown);
      stream.skipPayload(code, firstWord, firstRef);
    }
    return failure;
  }

  @SuppressWarnings("unchecked") // recorded by queue(Consumer<? super Registry>)
  private void applyQueued() {
    final Consumer<? super Registry> action = (Consumer<? super Registry>) stream.nextRef();
    action.accept(registry);
  }

  /** Returns the end of the run of destroy commands that starts at {@code from}. */
  private int destroyRunEnd(final int from) {
    int end = from + 1;
    while (end < stream.count && DESTROY == op(stream.codes[end])) {
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
      if (buffer.createsLate(stream.targets[i], siblings)) {
        return true;
      }
    }
    return false;
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
      final long target = buffer.resolve(stream.targets[i], siblings);
      if (Entity.isNull(target) || !registry.valid(target)) {
        skipped++;
      } else {
        stream.targets[live++] = target;
      }
    }
    stream.applied = to;
    // No user code runs in a bulk destroy: the fall in live entities is the number destroyed, a
    // target named twice in the run counted once (the second is skipped, as one by one).
    final int alive = registry.alive();
    registry.destroy(stream.targets, from, live);
    skipped += (live - from) - (alive - registry.alive());
    return failure;
  }

  @SuppressWarnings({"unchecked", "rawtypes"}) // each value was recorded with its type
  private Throwable applyOne(
      final byte op, final long target, final ComponentType type, Throwable failure) {
    switch (op) {
      case EMPLACE -> registry.storage(type).emplaceOrReplace(target, stream.nextRef());
      case EMPLACE_IF_ABSENT -> {
        final Object value = stream.nextRef();
        final Storage storage = registry.storage(type);
        if (!storage.contains(target)) {
          storage.emplace(target, value);
        }
      }
      case REPLACE -> {
        final Object value = stream.nextRef();
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
        final long parent = buffer.resolve(stream.nextWord(), siblingsInApply);
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
}

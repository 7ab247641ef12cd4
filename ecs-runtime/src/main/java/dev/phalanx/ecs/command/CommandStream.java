package dev.phalanx.ecs.command;

import dev.phalanx.ecs.internal.RecordedFields;
import java.util.Arrays;

/**
 * One buffer's encoded commands: the op stream a {@link CommandBuffer} records into and replays
 * from. Command {@code i} is {@code codes[i]} (its operation in the top 8 bits, its type id in the
 * low 24, {@link #NO_TYPE} for none) and {@code targets[i]} (an entity or a reserved handle); its
 * payload, if any, follows in {@code words} (primitive fields, the parent of an attach) and {@code
 * refs} (component objects, queued actions, reference fields), in recording order.
 *
 * <p>Invariants kept here:
 *
 * <ul>
 *   <li>{@code [0, count)} are the recorded commands, {@code [0, applied)} those replayed; {@code
 *       applied <= count}.
 *   <li>{@code words[0, wordCount)} and {@code refs[0, refCount)} are the recorded payloads; the
 *       read cursors {@code readWord} and {@code readRef} sit at the start of the payload of
 *       command {@code applied}: replaying a command reads its payload whole, or {@link
 *       #skipPayload} passes over it.
 *   <li>Recording is all or nothing: {@link #ensureCapacity} grows every array a command needs
 *       before anything of it is written, so the writes that follow ({@link #append}, {@link
 *       #addWord}, {@link #addRef}) cannot fail.
 *   <li>A payload's size follows from its code alone (see {@link #skipPayload}): typed recordings
 *       take the sizes {@link CommandTypes} keeps for their type, every other operation a fixed
 *       size.
 * </ul>
 *
 * <p>The stream is also what a generated storage's {@code applyRecorded} reads a typed command's
 * fields through ({@link RecordedFields}): the buffer's own read cursor, so that the stream is not
 * part of the buffer's API. The arrays are package-visible for the buffer's recording fast paths
 * and its replay, which read and write them in place; nothing else touches them.
 */
final class CommandStream implements RecordedFields {

  static final byte EMPLACE = 0;
  static final byte REPLACE = 1;
  static final byte REMOVE = 2;
  static final byte ERASE = 3;
  static final byte DESTROY = 4;
  static final byte DESTROY_TREE = 5;
  static final byte FIELDS = 6;
  static final byte ATTACH = 7;
  static final byte EMPLACE_IF_ABSENT = 8;
  static final byte FIELDS_IF_ABSENT = 9;
  static final byte DETACH = 10;
  static final byte REMOVE_ALL = 11;
  static final byte QUEUE = 12;
  // Each operation's name in messages, by op.
  static final String[] OPERATIONS = {
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
  static final int OP_SHIFT = 24;
  static final int TYPE_MASK = (1 << OP_SHIFT) - 1;
  static final int NO_TYPE = TYPE_MASK;

  // The types the commands name, by dense id (codes store ids), with their typed sizes.
  final CommandTypes types = new CommandTypes(NO_TYPE);
  // Each command's operation (top 8 bits) and type id (low 24 bits; NO_TYPE for none), in one int.
  int[] codes = new int[16];
  long[] targets = new long[16];
  int count;
  long[] words = new long[64];
  int wordCount;
  Object[] refs = new Object[16];
  int refCount;
  // Replay's cursors: the next command, and the payload read so far.
  int applied;
  int readWord;
  int readRef;

  /** {@return the operation of the command of {@code code}} */
  static byte op(final int code) {
    return (byte) (code >>> OP_SHIFT);
  }

  /** {@return the code of a command of {@code op} on the type of dense id {@code typeId}} */
  static int code(final byte op, final int typeId) {
    return op << OP_SHIFT | typeId;
  }

  /**
   * {@return whether one more command with a payload of {@code wordCount} words and {@code
   * refCount} references fits without growing any array}
   */
  boolean hasRoom(final int wordCount, final int refCount) {
    return count < codes.length
        && (0 == wordCount || wordCount <= words.length - this.wordCount)
        && (0 == refCount || refCount <= refs.length - this.refCount);
  }

  /**
   * Grows every array one more command with the given payload needs, before anything is written.
   */
  void ensureCapacity(final int wordCount, final int refCount) {
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

  /** Appends a command, room for which {@link #ensureCapacity} or {@link #hasRoom} ensured. */
  void append(final long target, final int code) {
    final int at = count;
    targets[at] = target;
    codes[at] = code;
    count = at + 1;
  }

  /** Appends a command without payload if it fits; returns whether it did. */
  boolean tryAppend(final long target, final int code) {
    final int at = count;
    if (at >= codes.length) {
      return false;
    }
    targets[at] = target;
    codes[at] = code;
    count = at + 1;
    return true;
  }

  /** Appends a payload word, room for which was ensured. */
  void addWord(final long bits) {
    words[wordCount++] = bits;
  }

  /** Appends a payload reference, room for which was ensured. */
  void addRef(final Object value) {
    refs[refCount++] = value;
  }

  /** Appends a payload word if it fits; returns whether it did. */
  boolean tryAddWord(final long bits) {
    if (wordCount == words.length) {
      return false;
    }
    words[wordCount++] = bits;
    return true;
  }

  /** Appends a payload reference if it fits; returns whether it did. */
  boolean tryAddRef(final Object value) {
    if (refCount == refs.length) {
      return false;
    }
    refs[refCount++] = value;
    return true;
  }

  /** Reads back the next primitive field of the command being applied. */
  @Override
  public long nextWord() {
    return words[readWord++];
  }

  /** Reads back the next reference field of the command being applied. */
  @Override
  public Object nextRef() {
    return refs[readRef++];
  }

  /**
   * Moves the read cursors past the payload of the command of {@code code}, which starts at {@code
   * firstWord} and {@code firstRef}.
   */
  void skipPayload(final int code, final int firstWord, final int firstRef) {
    switch (op(code)) {
      case FIELDS, FIELDS_IF_ABSENT -> {
        readWord = firstWord + types.words(code & TYPE_MASK);
        readRef = firstRef + types.refs(code & TYPE_MASK);
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

  /** Forgets every command and payload (dropping the references); keeps the arrays. */
  void clear() {
    Arrays.fill(refs, 0, refCount, null);
    count = 0;
    applied = 0;
    wordCount = 0;
    refCount = 0;
    readWord = 0;
    readRef = 0;
  }
}

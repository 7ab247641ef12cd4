package dev.phalanx.ecs.command;

import static dev.phalanx.ecs.GroupTypes.TA;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.ComponentTraits;
import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.FreshClasses;
import dev.phalanx.ecs.GroupTypes.A;
import dev.phalanx.ecs.ObjectStorage;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.hierarchy.Hierarchy;
import dev.phalanx.ecs.internal.RecordedFields;
import dev.phalanx.ecs.internal.TypedRecording;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.ConcurrentModificationException;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Typed recording: the {@code emplace(commands, entity, fields...)} of generated storages, which
 * records fields as words and references, and its playback through {@code applyRecorded}.
 */
public class CommandBufferTypedRecordingTest {

  /** JUnit makes one instance per test; other packages' tests use only the static members. */
  public CommandBufferTypedRecordingTest() {}

  /** The component of {@link CellStorage}: one primitive and one reference field. */
  public record Cell(long word, String text) {}

  /** A marker class loaded afresh for each new type (see {@link FreshClasses}). */
  public static final class Marker {
    private Marker() {}
  }

  /**
   * A storage shaped as the processor generates them: paged columns, a typed {@code emplace} that
   * records its fields through {@link TypedRecording} (as generated code does), an {@code
   * applyRecorded} that reads them back in the same order.
   */
  public static final class CellStorage extends Storage<Cell> {
    private long[][] words = new long[0][];
    private String[][] texts = new String[0][];
    private Cell staged;

    CellStorage(final ComponentType<Cell, ?> type) {
      super(type);
    }

    /** Records a typed emplace: one word, one reference. */
    public void emplace(
        final CommandBuffer commands, final long entity, final long word, final String text) {
      TypedRecording.beginFields(commands, entity, this, 1, 1);
      TypedRecording.putWord(commands, word);
      TypedRecording.putRef(commands, text);
    }

    /** Records a typed emplace applied only if the entity has no cell by then. */
    public void emplaceIfAbsent(
        final CommandBuffer commands, final long entity, final long word, final String text) {
      TypedRecording.beginFieldsIfAbsent(commands, entity, this, 1, 1);
      TypedRecording.putWord(commands, word);
      TypedRecording.putRef(commands, text);
    }

    @Override
    protected void applyRecorded(final long entity, final RecordedFields fields) {
      final long word = fields.nextWord();
      final String text = (String) fields.nextRef();
      final int at = prepareRecorded(entity);
      final int position = at >= 0 ? at : -2 - at;
      words[position >>> pageShift()][position & (pageSize() - 1)] = word;
      texts[position >>> pageShift()][position & (pageSize() - 1)] = text;
      if (at >= 0) {
        notifyUpdate(entity);
      } else {
        commitInsert(entity, position);
      }
    }

    @Override
    protected void allocatePage(final int page) {
      if (page >= words.length) {
        words = Arrays.copyOf(words, Math.max(page + 1, words.length * 2));
        texts = Arrays.copyOf(texts, words.length);
      }
      words[page] = new long[pageSize()];
      texts[page] = new String[pageSize()];
    }

    @Override
    protected Cell getAt(final int position) {
      return new Cell(
          words[position >>> pageShift()][position & (pageSize() - 1)],
          texts[position >>> pageShift()][position & (pageSize() - 1)]);
    }

    @Override
    protected void setAt(final int position, final Cell value) {
      stage(value);
      writeStaged(position);
    }

    @Override
    protected void stage(final Cell value) {
      staged = value;
    }

    @Override
    protected void writeStaged(final int position) {
      words[position >>> pageShift()][position & (pageSize() - 1)] = staged.word();
      texts[position >>> pageShift()][position & (pageSize() - 1)] = staged.text();
    }

    @Override
    protected void moveElement(final int from, final int to) {
      setAt(to, getAt(from));
    }

    @Override
    protected void swapElements(final int left, final int right) {
      final Cell kept = getAt(left);
      setAt(left, getAt(right));
      setAt(right, kept);
    }
  }

  /** Defines a new cell type (a fresh class each time), so its id is above every earlier one. */
  @SuppressWarnings("unchecked") // the fresh marker class stands for Cell
  static ComponentType<Cell, CellStorage> freshType() {
    final Class<Cell> fresh = (Class<Cell>) FreshClasses.load(Marker.class);
    return ComponentType.define(
        fresh, ComponentTraits.DEFAULT.withPageSize(4), type -> new CellStorage(type));
  }

  /** Defines cell types until one has an id of at least {@code minimum}. */
  public static ComponentType<Cell, CellStorage> typeWithIdAtLeast(final int minimum) {
    ComponentType<Cell, CellStorage> type = freshType();
    while (type.id() < minimum) {
      type = freshType();
    }
    return type;
  }

  private final Registry registry = new Registry();

  @Test
  void typedEmplaceAddsOrReplacesWithTheRecordedFields() {
    // Rule: a typed emplace adds the component with the recorded fields, or replaces the one the
    // entity has by then (publishing an update), as emplace(entity, type, value) does.
    final ComponentType<Cell, CellStorage> type = freshType();
    final CellStorage cells = registry.storage(type);
    final List<Long> updated = new ArrayList<>();
    cells.onUpdate().connect((r, e) -> updated.add(e));
    final long fresh = registry.create();
    final long had = registry.create();
    cells.emplace(had, new Cell(1, "old"));
    final CommandBuffer commands = new CommandBuffer(registry);
    cells.emplace(commands, fresh, 10, "ten");
    cells.emplace(commands, had, 20, "twenty");
    final long spawned = commands.create();
    cells.emplace(commands, spawned, 30, "thirty");
    assertEquals(3, commands.size());
    assertFalse(commands.isEmpty());
    assertEquals(1, cells.size(), "nothing happens before apply");
    commands.apply();
    assertEquals(new Cell(10, "ten"), cells.get(fresh));
    assertEquals(new Cell(20, "twenty"), cells.get(had));
    assertEquals(List.of(had), updated);
    assertEquals(3, cells.size());
    assertEquals(0, commands.skipped());
    assertTrue(commands.isEmpty());
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aSkippedTypedCommandLeavesTheNextCommandsTheirOwnFields() {
    // Rule: a typed command whose target is dead is skipped and counted, and its fields are
    // passed over, whatever the commands around it record (words, references, values).
    final ComponentType<Cell, CellStorage> type = freshType();
    final CellStorage cells = registry.storage(type);
    final long a = registry.create();
    final long b = registry.create();
    final long dead = registry.create();
    final long parent = registry.create();
    registry.destroy(dead);
    final CommandBuffer commands = new CommandBuffer(registry);
    // The first recording of the type, before the buffer knows its size.
    cells.emplace(commands, dead, 1, "dead-1");
    cells.emplace(commands, a, 2, "a");
    cells.emplace(commands, dead, 3, "dead-3");
    commands.attach(b, parent);
    cells.emplace(commands, dead, 4, "dead-4");
    commands.emplace(a, TA, new A(5));
    cells.emplace(commands, b, 6, "b");
    commands.apply();
    assertEquals(3, commands.skipped());
    assertEquals(new Cell(2, "a"), cells.get(a));
    assertEquals(new Cell(6, "b"), cells.get(b));
    assertEquals(5, registry.get(a, TA).value());
    assertEquals(parent, Hierarchy.of(registry).parent(b));
    assertEquals(2, cells.size());
  }

  @Test
  void theSizeOfATypeIsKnownAcrossAppliesAndBuffersReused() {
    // Rule: a buffer applied and reused keeps playing typed commands back correctly, skipped ones
    // included, for a type it has recorded before.
    final ComponentType<Cell, CellStorage> type = freshType();
    final CellStorage cells = registry.storage(type);
    final CommandBuffer commands = new CommandBuffer(registry);
    final long dead = registry.create();
    registry.destroy(dead);
    for (int round = 0; round < 3; round++) {
      final long e = registry.create();
      cells.emplace(commands, dead, -round, "skipped");
      cells.emplace(commands, e, round, "round " + round);
      commands.apply();
      assertEquals(1, commands.skipped());
      assertEquals(new Cell(round, "round " + round), cells.get(e));
    }
  }

  @Test
  void typesWithHighIdsRecordAndSkipLikeTheOthers() {
    // Rule: typed recording works for every type id, however many types the JVM has defined: one
    // buffer records types of ever higher ids (crossing every array boundary on the way), each
    // with a skipped command in between, and every command reads its own fields.
    final ComponentType<Cell, CellStorage> low = freshType();
    final CellStorage lowCells = registry.storage(low);
    final CommandBuffer commands = new CommandBuffer(registry);
    final long dead = registry.create();
    registry.destroy(dead);
    final long first = registry.create();
    lowCells.emplace(commands, dead, -1, "skipped");
    lowCells.emplace(commands, first, 1, "low");
    final List<ComponentType<Cell, CellStorage>> types = new ArrayList<>();
    final List<Long> targets = new ArrayList<>();
    ComponentType<Cell, CellStorage> type = low;
    // Ids are consecutive, so the recorded ids meet each array length the buffer grows to.
    while (type.id() < Math.max(low.id() * 2, 40) + 2) {
      type = freshType();
      final CellStorage cells = registry.storage(type);
      final long e = registry.create();
      cells.emplace(commands, e, type.id(), "first");
      cells.emplace(commands, dead, -1, "skipped");
      cells.emplace(commands, e, type.id(), "second");
      types.add(type);
      targets.add(e);
    }
    // The low type once more, after the buffer grew: its size is still known.
    final long last = registry.create();
    lowCells.emplace(commands, dead, -2, "skipped");
    lowCells.emplace(commands, last, 2, "low again");
    commands.apply();
    assertEquals(2 + types.size(), commands.skipped());
    assertEquals(new Cell(1, "low"), lowCells.get(first));
    assertEquals(new Cell(2, "low again"), lowCells.get(last));
    for (int i = 0; i < types.size(); i++) {
      final ComponentType<Cell, CellStorage> t = types.get(i);
      assertEquals(new Cell(t.id(), "second"), registry.get(targets.get(i), t), t.name());
    }
    assertEquals(List.of(), registry.verify());
  }

  @Test
  void aTypeFarAboveTheFirstRecordedInAFreshBuffer() {
    // Rule: a fresh buffer whose first typed command is of a type with a high id records and skips
    // it like any other.
    final ComponentType<Cell, CellStorage> type = typeWithIdAtLeast(40);
    final CellStorage cells = registry.storage(type);
    final long dead = registry.create();
    registry.destroy(dead);
    final long e = registry.create();
    final CommandBuffer commands = new CommandBuffer(registry);
    cells.emplace(commands, dead, 0, "skipped");
    cells.emplace(commands, e, 7, "seven");
    commands.apply();
    assertEquals(1, commands.skipped());
    assertEquals(new Cell(7, "seven"), cells.get(e));
  }

  @Test
  void typesWithHighIdsApplyOneByOne() {
    // Rule: a buffer applied after each typed command finds the storage of every type, whatever
    // its id (the storages the buffer caches by id grow as the ids do).
    final CommandBuffer commands = new CommandBuffer(registry);
    final ComponentType<Cell, CellStorage> start = freshType();
    ComponentType<Cell, CellStorage> type = start;
    while (type.id() < Math.max(start.id() * 2, 40) + 2) {
      final long e = registry.create();
      final CellStorage cells = registry.storage(type);
      cells.emplace(commands, e, type.id(), type.name());
      commands.apply();
      assertEquals(new Cell(type.id(), type.name()), cells.get(e));
      type = freshType();
    }
  }

  @Test
  void manyFieldsInOneBufferAreAllKept() {
    // Rule: recording has no limit on the number of fields one buffer holds.
    final ComponentType<Cell, CellStorage> type = freshType();
    final CellStorage cells = registry.storage(type);
    final long[] entities = new long[300];
    registry.create(entities);
    final CommandBuffer commands = new CommandBuffer(registry);
    for (int i = 0; i < entities.length; i++) {
      cells.emplace(commands, entities[i], i * 3L, "cell " + i);
    }
    commands.apply();
    for (int i = 0; i < entities.length; i++) {
      assertEquals(new Cell(i * 3L, "cell " + i), cells.get(entities[i]));
    }
  }

  @Test
  void aStorageWithoutTypedRecordingRefusesTheCommandAndTheRestApply() {
    // Rule: a typed command for a storage that cannot play it back fails; the other commands
    // still apply, with their own values, and the failure is rethrown at the end.
    final ObjectStorage<A> as = registry.storage(TA);
    final long e = registry.create();
    final long other = registry.create();
    final CommandBuffer commands = new CommandBuffer(registry);
    commands.beginFields(e, as, 1, 1);
    commands.putWord(99);
    commands.putRef("stray");
    commands.emplace(other, TA, new A(4));
    final IllegalStateException error = assertThrows(IllegalStateException.class, commands::apply);
    assertTrue(error.getMessage().contains("has no typed recording"), error.getMessage());
    assertFalse(registry.has(e, TA));
    assertEquals(4, registry.get(other, TA).value());
    assertTrue(commands.isEmpty());
  }

  @Test
  void aStorageThatCannotBeCreatedFailsItsCommandOnly() {
    // Rule: when a command fails before it reads its value (here the type's storage cannot be
    // created), the next commands still read their own values.
    final Class<?> fresh = FreshClasses.load(Marker.class);
    final IllegalStateException boom = new IllegalStateException("no storage");
    @SuppressWarnings({"unchecked", "rawtypes"})
    final ComponentType<Object, ObjectStorage<Object>> broken =
        ComponentType.define(
            (Class) fresh,
            ComponentTraits.DEFAULT,
            type -> {
              throw boom;
            });
    final long e = registry.create();
    final CommandBuffer commands = new CommandBuffer(registry);
    commands.emplace(e, broken, "lost");
    commands.emplace(e, TA, new A(1));
    commands.replace(e, TA, new A(2));
    assertSame(boom, assertThrows(IllegalStateException.class, commands::apply));
    assertEquals(2, registry.get(e, TA).value());
  }

  @Test
  void aTypedRecordingWhenTheCommandArrayIsFullGrowsIt() {
    // Rule: a typed recording that finds the command array exactly full grows it, like any other.
    final CellStorage cells = registry.storage(freshType());
    final long first = registry.create();
    final long last = registry.create();
    final long dead = deadEntity();
    final CommandBuffer commands = new CommandBuffer(registry);
    cells.emplace(commands, first, 1, "first");
    for (int i = 1; i < 16; i++) {
      commands.destroy(dead);
    }
    assertEquals(16, commands.size());
    cells.emplace(commands, last, 2, "last");
    assertEquals(17, commands.size());
    commands.apply();
    assertEquals(new Cell(1, "first"), cells.get(first));
    assertEquals(new Cell(2, "last"), cells.get(last));
    assertEquals(15, commands.skipped());
  }

  @Test
  void aTypedRecordingWhenTheWordArrayIsFullGrowsIt() {
    // Rule: a typed recording whose words do not fit grows the word array first, though the
    // command and reference arrays have room.
    final CellStorage cells = registry.storage(freshType());
    final long first = registry.create();
    final long last = registry.create();
    final long dead = deadEntity();
    final CommandBuffer commands = roomyBuffer(dead);
    cells.emplace(commands, first, 1, "first");
    for (int i = 1; i < 64; i++) {
      commands.attach(dead, dead); // one word each
    }
    cells.emplace(commands, last, 2, "last");
    commands.apply();
    assertEquals(new Cell(1, "first"), cells.get(first));
    assertEquals(new Cell(2, "last"), cells.get(last));
    assertEquals(63, commands.skipped());
  }

  @Test
  void aTypedRecordingWhenTheReferenceArrayIsFullGrowsIt() {
    // Rule: a typed recording whose references do not fit grows the reference array first, though
    // the command and word arrays have room.
    final CellStorage cells = registry.storage(freshType());
    final long first = registry.create();
    final long last = registry.create();
    final CommandBuffer commands = roomyBuffer(deadEntity());
    final int[] ran = {0};
    cells.emplace(commands, first, 1, "first");
    for (int i = 1; i < 16; i++) {
      commands.queue(r -> ran[0]++); // one reference each
    }
    cells.emplace(commands, last, 2, "last");
    commands.apply();
    assertEquals(new Cell(1, "first"), cells.get(first));
    assertEquals(new Cell(2, "last"), cells.get(last));
    assertEquals(15, ran[0]);
  }

  @Test
  void typedRecordingsOfOtherSizesThanTheTypesAreRefusedInTheSameBuffer() {
    // Rule: every typed recording of a type takes the same numbers of words and references; one
    // that differs in either is refused, even right after a recording of the type in that buffer.
    final CellStorage cells = registry.storage(freshType());
    final long e = registry.create();
    final CommandBuffer commands = new CommandBuffer(registry);
    cells.emplace(commands, e, 1, "one");
    final IllegalArgumentException moreWords =
        assertThrows(IllegalArgumentException.class, () -> commands.beginFields(e, cells, 2, 1));
    assertTrue(moreWords.getMessage().contains("take 1 and 1"), moreWords.getMessage());
    final IllegalArgumentException moreRefs =
        assertThrows(IllegalArgumentException.class, () -> commands.beginFields(e, cells, 1, 2));
    assertTrue(moreRefs.getMessage().contains("take 1 and 1"), moreRefs.getMessage());
    assertEquals(1, commands.size());
    commands.apply();
    assertEquals(new Cell(1, "one"), cells.get(e));
  }

  @Test
  void negativeSizesAreRefusedForATypeTheBufferKnowsUntyped() {
    // Rule: a typed recording of negative sizes is refused, also for a type the buffer has seen
    // (untyped) but never recorded typed.
    final ComponentType<Cell, CellStorage> type = freshType();
    final CellStorage cells = registry.storage(type);
    final long e = registry.create();
    final CommandBuffer commands = new CommandBuffer(registry);
    commands.emplace(e, type, new Cell(3, "untyped"));
    final IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> commands.beginFields(e, cells, -1, -1));
    assertTrue(refused.getMessage().contains("cannot be negative"), refused.getMessage());
    assertEquals(1, commands.size());
    commands.apply();
    assertEquals(new Cell(3, "untyped"), cells.get(e));
  }

  @Test
  void typesWithoutWordsOrWithoutReferencesRecordAndKeepTheirSizes() {
    // Rule: a typed recording may take no words or no references; the sizes, zero included, are
    // the type's from then on.
    final CellStorage noWords = registry.storage(freshType());
    final CellStorage noRefs = registry.storage(freshType());
    final long e = registry.create();
    final CommandBuffer commands = new CommandBuffer(registry);
    commands.beginFields(e, noWords, 0, 1);
    commands.putRef("ref");
    commands.beginFields(e, noRefs, 1, 0);
    commands.putWord(7);
    assertEquals(2, commands.size());
    final IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> commands.beginFields(e, noWords, 0, 2));
    assertTrue(refused.getMessage().contains("take 0 and 1"), refused.getMessage());
    assertEquals(2, commands.size());
    commands.clear();
  }

  @Test
  void puttingMoreFieldsThanAnnouncedIsRefused() {
    // Rule: putWord and putRef past what beginFields announced, at the end of the arrays, throw
    // IllegalStateException naming what overflowed.
    final CellStorage wide = registry.storage(freshType());
    final CellStorage referring = registry.storage(freshType());
    final long e = registry.create();
    final CommandBuffer commands = new CommandBuffer(registry);
    commands.beginFields(e, wide, 64, 0);
    for (int i = 0; i < 64; i++) {
      commands.putWord(i);
    }
    final IllegalStateException words =
        assertThrows(IllegalStateException.class, () -> commands.putWord(64));
    assertTrue(words.getMessage().contains("more words put"), words.getMessage());
    commands.beginFields(e, referring, 0, 16);
    for (int i = 0; i < 16; i++) {
      commands.putRef(i);
    }
    final IllegalStateException refs =
        assertThrows(IllegalStateException.class, () -> commands.putRef(16));
    assertTrue(refs.getMessage().contains("more references put"), refs.getMessage());
    commands.clear();
  }

  @Test
  void aTypedRecordingOfMoreReferencesThanTwiceTheArrayHasRoomForAllOfThem() {
    // Rule: beginFields grows the buffer for the whole payload, however large, before any put.
    final CellStorage many = registry.storage(freshType());
    final long e = registry.create();
    final CommandBuffer commands = new CommandBuffer(registry);
    commands.beginFields(e, many, 0, 40);
    for (int i = 0; i < 40; i++) {
      commands.putRef("ref " + i);
    }
    assertEquals(1, commands.size());
    commands.clear();
  }

  @Test
  void aTypedRecordingOfAKnownTypeRefusesAStaleHandle() {
    // Rule: a handle of an earlier apply is refused by a typed recording too, once the type's
    // sizes are known and the buffer owned, naming the buffer that reserved it.
    final CellStorage cells = registry.storage(freshType());
    final CommandBuffer commands = new CommandBuffer(registry);
    final long stale = commands.create();
    cells.emplace(commands, stale, 1, "created");
    commands.apply();
    final long created = commands.entityOf(stale);
    final long e = registry.create();
    cells.emplace(commands, e, 2, "live");
    final IllegalArgumentException refused =
        assertThrows(IllegalArgumentException.class, () -> cells.emplace(commands, stale, 3, "x"));
    assertTrue(
        refused.getMessage().contains("was reserved by " + commands + " before its last apply"),
        refused.getMessage());
    assertEquals(1, commands.size());
    commands.apply();
    assertEquals(new Cell(1, "created"), cells.get(created));
    assertEquals(new Cell(2, "live"), cells.get(e));
  }

  @Test
  void aTypedRecordingTakesTheBufferFromOtherThreads() {
    // Rule: after a sync point, the thread whose typed recording comes first owns the buffer:
    // another thread's recording is refused until the next sync point.
    final CellStorage cells = registry.storage(freshType());
    final long e = registry.create();
    final CommandBuffer commands = new CommandBuffer(registry);
    cells.emplace(commands, e, 1, "before");
    commands.apply(); // releases the buffer; the type's sizes stay known
    cells.emplace(commands, e, 2, "owner");
    final AtomicReference<Throwable> other = new AtomicReference<>();
    final Thread thread =
        new Thread(
            () -> {
              try {
                commands.destroy(e);
              } catch (final RuntimeException thrown) {
                other.set(thrown);
              }
            },
            "intruder");
    thread.start();
    try {
      thread.join();
    } catch (final InterruptedException interrupted) {
      throw new AssertionError(interrupted);
    }
    assertTrue(other.get() instanceof ConcurrentModificationException, String.valueOf(other.get()));
    assertEquals(1, commands.size());
    commands.apply();
    assertEquals(new Cell(2, "owner"), cells.get(e));
  }

  /** Returns an entity destroyed already. */
  private long deadEntity() {
    final long dead = registry.create();
    registry.destroy(dead);
    return dead;
  }

  /** Returns an empty buffer whose command array has grown to 128 (clear keeps the arrays). */
  private CommandBuffer roomyBuffer(final long dead) {
    final CommandBuffer commands = new CommandBuffer(registry);
    for (int i = 0; i < 65; i++) {
      commands.destroy(dead);
    }
    commands.clear();
    return commands;
  }
}

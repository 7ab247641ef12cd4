package dev.phalanx.ecs;

import dev.phalanx.ecs.internal.Failures;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.ConcurrentModificationException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A registry's whole content staged outside any registry: every identifier with its version and the
 * recycling order, and for each storage its elements at their positions (holes included) and its
 * field values; installed into a registry with no live entity by {@link
 * Registry#restore(RegistryImage)}. It is what a whole snapshot load is made of (EnTT's loader
 * restores the entity storage, then each storage), open to any loader: a level read from a file in
 * the game's own format, a world built by a tool.
 *
 * <h2>Checked as it is built</h2>
 *
 * <p>Each call checks what it is given and throws {@link ImageException} naming the position and
 * the rule broken, before keeping anything:
 *
 * <ul>
 *   <li>{@link #RegistryImage(long[], int, int) the identifiers}: exactly the indices {@code [0,
 *       count)}, none twice, no tombstone; the first {@code alive} are live;
 *   <li>{@link #elements the elements} of a storage: each a live entity of the image, none twice;
 *       the holes (tombstones, in-place storages only) form one free list from the first hole
 *       through every hole;
 *   <li>{@link #column the values} of a field: an array of the field's own type, long enough; a
 *       reference field's values of its class.
 * </ul>
 *
 * <p>So {@link Registry#restore} only checks the target (no live entity, nothing locked or
 * iterated) and then changes it by steps that run no user code and cannot fail half-way. The image
 * builds, while it checks, the index of each storage (its sparse pages) that the storage then
 * adopts; storages that share their front elements (the owned storages of an owning group, or any
 * storage filled in creation order) are checked by one vectorized comparison instead of a lookup
 * per element.
 *
 * <h2>Ownership and cost</h2>
 *
 * <p>The image takes the arrays it is given: the registry adopts them at restore (no copy of a
 * million identifiers), so the caller must not use them afterwards. An image restores once.
 * Building costs O(identifiers + elements); restoring O(storages + pages), plus O(elements) for
 * tracked storages (each element is stamped as written now) and for groups (rebuilt from their
 * storages).
 *
 * <p>Not thread-safe: build it on one thread (any thread: it touches no registry until restore).
 */
public final class RegistryImage {

  /** Thrown when what an image is given breaks one of its rules; nothing was kept. */
  public static final class ImageException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** The rule broken. */
    public enum Rule {
      /** An identifier is out of range, repeated or a tombstone. */
      IDENTIFIER,
      /** An element is not a live entity of the image. */
      NOT_LIVE,
      /** An element appears twice in one storage. */
      REPEATED,
      /** The holes do not form one free list through every hole, or a swap-and-pop set has one. */
      FREE_LIST,
      /** A storage, or a field, is given twice, or values do not fit the field. */
      VALUES
    }

    /** The rule broken. */
    private final transient Rule rule;

    /** The offset in the array given where the rule broke, or -1. */
    private final int position;

    ImageException(final Rule rule, final int position, final String message) {
      super(message);
      this.rule = rule;
      this.position = position;
    }

    /** {@return the rule broken} */
    public Rule rule() {
      return rule;
    }

    /** {@return the offset in the array given where the rule broke, or -1 if no one offset} */
    public int position() {
      return position;
    }
  }

  /** One storage of the image. */
  static final class StorageImage {
    final ComponentType<?, ?> type;
    final long[] packed;
    final int size;
    final int firstHole;
    final int holes;
    // The sparse pages of packed[0, size), built by the checks; null when the set builds its own.
    final int[][] sparse;
    // Field values by name: flat arrays, or whole pages of the storage's page size.
    final Map<String, Object> columns = new LinkedHashMap<>();
    boolean paged;
    // Each field's element type by name, read from a storage of the type on first use.
    Map<String, Class<?>> fields;
    // Whether a storage of the type adopts pages (see adoptsPages); null until asked.
    Boolean adoptsPages;

    StorageImage(
        final ComponentType<?, ?> type,
        final long[] packed,
        final int size,
        final int firstHole,
        final int holes,
        final int[][] sparse) {
      this.type = type;
      this.packed = packed;
      this.size = size;
      this.firstHole = firstHole;
      this.holes = holes;
      this.sparse = sparse;
    }
  }

  final long[] entities;
  final int count;
  final int alive;
  // Each index's position in entities: the entity storage adopts it.
  final int[] positionOf;
  final List<StorageImage> storages = new ArrayList<>();
  // Each index's live entity, complemented (0 for none); built for the first storage that needs it.
  private long[] live;
  private boolean restored;

  /**
   * Starts an image whose registry holds the identifiers {@code entities[0, count)} in that order,
   * the first {@code alive} of them live, the others released (recycled in list order).
   *
   * @param entities the identifiers, with their versions
   * @param count how many identifiers
   * @param alive how many of them, from the front, are live
   * @throws ImageException if an identifier is out of range ({@code [0, count)}), repeated or a
   *     tombstone; its position names the first
   * @throws IllegalArgumentException if the counts do not fit {@code entities}
   */
  public RegistryImage(final long[] entities, final int count, final int alive) {
    if (count < 0 || count > entities.length || alive < 0 || alive > count) {
      throw new IllegalArgumentException(
          "bad counts: " + alive + " live of " + count + " in an array of " + entities.length);
    }
    this.entities = entities;
    this.count = count;
    this.alive = alive;
    this.positionOf = new int[count];
    indexEntities();
  }

  /** {@return how many identifiers the image holds} */
  public int count() {
    return count;
  }

  /** {@return how many of them are live} */
  public int alive() {
    return alive;
  }

  /** {@return whether the image was restored into a registry (an image restores once)} */
  public boolean isRestored() {
    return restored;
  }

  /** Fills {@link #positionOf}, checking the identifiers; each index at its own place first. */
  private void indexEntities() {
    int inPlace = 0;
    while (inPlace < count
        && Entity.index(entities[inPlace]) == inPlace
        && !Entity.isTombstone(entities[inPlace])) {
      positionOf[inPlace] = inPlace;
      inPlace++;
    }
    if (inPlace == count) {
      return;
    }
    Arrays.fill(positionOf, -1);
    for (int at = 0; at < count; at++) {
      final long entity = entities[at];
      final int index = Entity.index(entity);
      if (index < 0 || index >= count || -1 != positionOf[index] || Entity.isTombstone(entity)) {
        throw new ImageException(
            ImageException.Rule.IDENTIFIER,
            at,
            "identifier "
                + Entity.toString(entity)
                + " at "
                + at
                + " is out of range, repeated or a tombstone");
      }
      positionOf[index] = at;
    }
  }

  /**
   * Adds the elements of {@code type}'s storage: {@code packed[0, size)} at those positions,
   * tombstones included for an in-place storage (their index bits link the free list, {@code
   * firstHole} its head, {@link SparseSet#ABSENT} for none). A storage of swap-and-pop type given
   * holes drops them: its elements move up, and the values given to {@link #column} follow that
   * layout (the given one with its holes removed).
   *
   * @param type the component type
   * @param packed the elements; the image takes the array
   * @param size how many
   * @param firstHole the free list's head
   * @return the number of holes given
   * @throws ImageException if an element is not a live entity of the image or appears twice, or the
   *     holes do not form one free list; its position names the element
   * @throws IllegalArgumentException if {@code type} was given before or {@code size} does not fit
   */
  public int elements(
      final ComponentType<?, ?> type, final long[] packed, final int size, final int firstHole) {
    if (null != find(type)) {
      throw new ImageException(
          ImageException.Rule.VALUES, -1, "the elements of " + type.name() + " are given twice");
    }
    if (size < 0 || size > packed.length) {
      throw new IllegalArgumentException("size " + size + " does not fit " + packed.length);
    }
    final int[][] sparse = 0 == size ? null : new int[pageCount()][];
    final int holes = index(packed, size, sparse);
    checkFreeList(packed, size, firstHole, holes);
    if (0 != holes && DeletionPolicy.IN_PLACE != type.traits().policy()) {
      final long[] kept = new long[size - holes];
      for (int p = 0, k = 0; p < size; p++) {
        if (!Entity.isTombstone(packed[p])) {
          kept[k++] = packed[p];
        }
      }
      final int[][] keptSparse = 0 == kept.length ? null : new int[pageCount()][];
      index(kept, kept.length, keptSparse);
      storages.add(new StorageImage(type, kept, kept.length, SparseSet.ABSENT, holes, keptSparse));
    } else {
      storages.add(new StorageImage(type, packed, size, firstHole, holes, sparse));
    }
    return holes;
  }

  private int pageCount() {
    return (count + SparseSet.SPARSE_MASK) >>> SparseSet.SPARSE_SHIFT;
  }

  /**
   * Checks {@code packed[0, size)} against the image's live entities and fills {@code sparse};
   * returns the number of holes.
   */
  private int index(final long[] packed, final int size, final int[][] sparse) {
    if (inListOrder(packed, size)) {
      sparseFromPositions(size, sparse);
      return 0;
    }
    if (null == live) {
      live = liveByIndex();
    }
    int from = 0;
    final StorageImage twin = longestSharedPrefix(packed, size);
    if (null != twin) {
      from = sharedPrefix(twin, packed, size);
      sparseFromTwin(twin, from, sparse);
    }
    return checkElements(packed, from, size, sparse);
  }

  /**
   * Whether the storage holds the first live entities in list order (filled in creation order,
   * never rearranged), enough of them for {@link #sparseFromPositions} to pay: then its elements
   * are live and distinct, and its index is the list's cut at {@code size}.
   */
  private boolean inListOrder(final long[] packed, final int size) {
    return size <= alive
        && 2L * size >= count
        && Arrays.mismatch(packed, 0, size, entities, 0, size) < 0;
  }

  /** Fills {@code sparse} for a storage holding the first {@code size} entities of the list. */
  private void sparseFromPositions(final int size, final int[][] sparse) {
    for (int page = 0, from = 0; from < count; page++, from += SparseSet.SPARSE_PAGE_SIZE) {
      final int[] entries = new int[SparseSet.SPARSE_PAGE_SIZE];
      final int copied = Math.min(SparseSet.SPARSE_PAGE_SIZE, count - from);
      for (int slot = 0; slot < copied; slot++) {
        entries[slot] = ~positionOf[from + slot];
      }
      sparse[page] = entries;
    }
    for (int at = size; at < count; at++) {
      final int index = Entity.index(entities[at]);
      sparse[index >>> SparseSet.SPARSE_SHIFT][index & SparseSet.SPARSE_MASK] = SparseSet.NO_ENTRY;
    }
  }

  /** Each index's live entity, complemented; 0 (a tombstone's complement) where none is live. */
  private long[] liveByIndex() {
    final long[] byIndex = new long[count];
    for (int at = 0; at < alive; at++) {
      final long entity = entities[at];
      byIndex[Entity.index(entity)] = ~entity;
    }
    return byIndex;
  }

  /**
   * The storage added before, checked without holes, that shares the longest prefix with {@code
   * packed[0, size)} if that prefix covers more than half of it; else null. The owned storages of
   * an owning group share their members' prefix.
   */
  private StorageImage longestSharedPrefix(final long[] packed, final int size) {
    StorageImage best = null;
    int longest = size / 2;
    for (final StorageImage twin : storages) {
      if (null != twin.sparse && 0 == twin.holes && twin.size > longest) {
        final int shared = sharedPrefix(twin, packed, size);
        if (shared > longest) {
          best = twin;
          longest = shared;
        }
      }
    }
    return best;
  }

  private static int sharedPrefix(final StorageImage twin, final long[] packed, final int size) {
    final int length = Math.min(size, twin.size);
    final int mismatch = Arrays.mismatch(packed, 0, length, twin.packed, 0, length);
    return mismatch < 0 ? length : mismatch;
  }

  /** Copies the twin's index, then clears the entries of its elements past the shared prefix. */
  private static void sparseFromTwin(
      final StorageImage twin, final int shared, final int[][] sparse) {
    for (int page = 0; page < twin.sparse.length; page++) {
      if (null != twin.sparse[page]) {
        sparse[page] = twin.sparse[page].clone();
      }
    }
    for (int p = shared; p < twin.size; p++) {
      final int index = Entity.index(twin.packed[p]);
      sparse[index >>> SparseSet.SPARSE_SHIFT][index & SparseSet.SPARSE_MASK] = SparseSet.NO_ENTRY;
    }
  }

  /**
   * Checks {@code packed[from, size)}: each a live entity of the image, none twice (a repeat finds
   * its entry set); fills {@code sparse}. Returns the number of holes.
   */
  private int checkElements(
      final long[] packed, final int from, final int size, final int[][] sparse) {
    int holes = 0;
    for (int p = from; p < size; p++) {
      final long entity = packed[p];
      if (Entity.isTombstone(entity)) {
        holes++;
        continue;
      }
      final int index = Entity.index(entity);
      if (index < 0 || index >= count || live[index] != ~entity) {
        throw new ImageException(
            ImageException.Rule.NOT_LIVE,
            p,
            Entity.toString(entity) + " at " + p + " is not a live entity of the image");
      }
      int[] page = sparse[index >>> SparseSet.SPARSE_SHIFT];
      if (null == page) {
        // Zeroed: every entry reads NO_ENTRY.
        page = new int[SparseSet.SPARSE_PAGE_SIZE];
        sparse[index >>> SparseSet.SPARSE_SHIFT] = page;
      }
      if (SparseSet.NO_ENTRY != page[index & SparseSet.SPARSE_MASK]) {
        throw new ImageException(
            ImageException.Rule.REPEATED,
            p,
            Entity.toString(entity) + " at " + p + " appears twice");
      }
      page[index & SparseSet.SPARSE_MASK] = ~p;
    }
    return holes;
  }

  /** Checks that the holes form one free list from {@code firstHole} through every tombstone. */
  private static void checkFreeList(
      final long[] packed, final int size, final int firstHole, final int holes) {
    int walked = 0;
    for (int hole = firstHole; SparseSet.ABSENT != hole; hole = Entity.index(packed[hole])) {
      if (hole < 0 || hole >= size || !Entity.isTombstone(packed[hole]) || ++walked > holes) {
        throw new ImageException(
            ImageException.Rule.FREE_LIST,
            hole,
            "free list link " + hole + " is not a hole, or the list loops");
      }
    }
    if (walked != holes) {
      throw new ImageException(
          ImageException.Rule.FREE_LIST,
          -1,
          "the free list reaches " + walked + " of " + holes + " holes");
    }
  }

  /**
   * Gives the values of {@code type}'s field {@code field} at positions {@code [0, size)} of its
   * elements, in one flat array of the field's type ({@code float[]} for a {@code float} field; an
   * {@code Object[]} whose elements are of the field's class, or null, for a reference field). A
   * field given no values gets its default ({@code 0}, {@code false}, {@code null}, {@link
   * Entity#NULL} for an {@code @EntityRef}). Values are copied into the storage's pages at restore.
   *
   * @param type a component type whose elements were given
   * @param field the field's name, as {@link Storage#columns} names it
   * @param values the values; the image takes the array
   * @throws ImageException if the field was given before, the type has no such field, the values do
   *     not fit it, or the type's other fields were given as pages
   * @throws IllegalArgumentException if no elements of {@code type} were given
   */
  public void column(final ComponentType<?, ?> type, final String field, final Object values) {
    final StorageImage storage = require(type);
    final Class<?> element = elementType(storage, field);
    checkLayout(storage, false);
    final int length = values.getClass().isArray() ? java.lang.reflect.Array.getLength(values) : -1;
    if (length < storage.size || !fits(element, values, storage.size)) {
      throw badValues(
          type,
          field,
          "values of class "
              + values.getClass().getSimpleName()
              + " and length "
              + length
              + " do not fit "
              + storage.size
              + " elements of "
              + element.getSimpleName());
    }
    storage.columns.put(field, values);
  }

  /**
   * Gives the values of {@code type}'s primitive field {@code field} as whole pages that the
   * storage adopts at restore, without a copy: {@code pages[0, n)} each of the storage's page size
   * ({@link ComponentTraits#pageSize()}), {@code n} the pages {@code size} elements fill (the last
   * one's tail unused). Only for storages that keep pages installed before allocation ({@link
   * #adoptsPages}); every field of the storage is then given as pages or not at all.
   *
   * @param type a component type whose elements were given
   * @param field the field's name
   * @param pages the pages ({@code float[][]} for a {@code float} field); the image takes them
   * @throws ImageException if the field was given before, the type has no such primitive field, its
   *     storage does not adopt pages, the pages do not fit, or other fields were given flat
   * @throws IllegalArgumentException if no elements of {@code type} were given
   */
  public void pages(final ComponentType<?, ?> type, final String field, final Object[] pages) {
    final StorageImage storage = require(type);
    final Class<?> element = elementType(storage, field);
    if (!element.isPrimitive() || !adopts(storage)) {
      throw badValues(type, field, "its storage does not adopt pages of this field");
    }
    checkLayout(storage, true);
    final int pageSize = type.traits().pageSize();
    final int needed = (storage.size + pageSize - 1) / pageSize;
    boolean fits =
        pages.getClass().getComponentType().getComponentType() == element && pages.length >= needed;
    for (int p = 0; fits && p < needed; p++) {
      fits = null != pages[p] && java.lang.reflect.Array.getLength(pages[p]) == pageSize;
    }
    if (!fits) {
      throw badValues(type, field, needed + " pages of " + pageSize + " elements are needed");
    }
    storage.paged = true;
    storage.columns.put(field, pages);
  }

  /**
   * {@return whether a storage of {@code type} keeps pages installed into its tables before it
   * allocates them}: storages of the runtime and those the processor generates do; a custom storage
   * that replaces them is given values by copy ({@link #column}).
   *
   * @param type a component type
   */
  public static boolean adoptsPages(final ComponentType<?, ?> type) {
    return PageProbe.keepsInstalledPages(type);
  }

  private static boolean adopts(final StorageImage storage) {
    if (null == storage.adoptsPages) {
      storage.adoptsPages = adoptsPages(storage.type);
    }
    return storage.adoptsPages;
  }

  private Class<?> elementType(final StorageImage storage, final String field) {
    if (null == storage.fields) {
      storage.fields = FieldClasses.of(storage.type.createStorage());
    }
    final Class<?> element = storage.fields.get(field);
    if (null == element) {
      throw badValues(storage.type, field, "the type has no such field");
    }
    if (storage.columns.containsKey(field)) {
      throw badValues(storage.type, field, "its values are given twice");
    }
    return element;
  }

  private static void checkLayout(final StorageImage storage, final boolean paged) {
    if (!storage.columns.isEmpty() && storage.paged != paged) {
      throw new ImageException(
          ImageException.Rule.VALUES,
          -1,
          "the fields of "
              + storage.type.name()
              + " are given both as pages and flat: give all of them one way");
    }
  }

  /** Whether flat {@code values} fit a field of element type {@code element}. */
  private static boolean fits(final Class<?> element, final Object values, final int size) {
    if (element.isPrimitive()) {
      return values.getClass().getComponentType() == element;
    }
    if (!(values instanceof Object[] references)) {
      return false;
    }
    for (int p = 0; p < size; p++) {
      if (null != references[p] && !element.isInstance(references[p])) {
        return false;
      }
    }
    return true;
  }

  private static ImageException badValues(
      final ComponentType<?, ?> type, final String field, final String why) {
    return new ImageException(
        ImageException.Rule.VALUES, -1, "field '" + field + "' of " + type.name() + ": " + why);
  }

  // ---------------------------------------------------------------------------------------------
  // Restoring.
  // ---------------------------------------------------------------------------------------------

  /** What {@link Registry#restore} does: check the target, install, announce. */
  void restoreInto(final Registry registry) {
    checkTarget(registry);
    restored = true;
    install(registry);
    Failures.rethrow(announce(registry));
  }

  private void checkTarget(final Registry registry) {
    if (restored) {
      throw new IllegalStateException("cannot restore an image twice: it gave its arrays away");
    }
    if (0 != registry.alive()) {
      throw new IllegalStateException(
          "cannot restore an image into a registry that has live entities ("
              + registry.alive()
              + "): restore into a new or cleared registry");
    }
    if (registry.isClearing()) {
      throw new IllegalStateException("cannot restore an image while the registry clears");
    }
    if (count > registry.entities().limit()) {
      throw new IllegalArgumentException(
          "the image has "
              + count
              + " identifiers, more than the registry's limit of "
              + registry.entities().limit());
    }
    for (int i = 0; i < registry.storageCount(); i++) {
      final Storage<?> storage = registry.storageAt(i);
      if (storage.isLocked() || storage.isIterated()) {
        throw new ConcurrentModificationException(
            "cannot restore an image: " + storage.describe() + " is locked or iterated");
      }
    }
  }

  /** Changes the registry: every step here was checked, and none runs user code. */
  private void install(final Registry registry) {
    registry.entities().restore(entities, count, alive, positionOf);
    final ImageFiller filler = new ImageFiller();
    for (final StorageImage source : storages) {
      final Storage<?> storage = registry.storage(source.type);
      if (0 != storage.size()) {
        // A cleared registry's in-place storage may keep holes: only holes, as nothing is live.
        storage.removeAll();
      }
      storage.restore(source.packed, source.size, source.firstHole, source.sparse);
      filler.start(source, storage);
      if (source.paged) {
        // Whole pages: the storage adopts them; the pages it does not get are allocated.
        storage.reservePagesFor(source.size);
        storage.columns(filler);
        storage.allocatePagesFor(source.size);
      } else {
        storage.allocatePagesFor(source.size);
        storage.columns(filler);
      }
      if (storage.isTracked()) {
        // A restore is a write made now: a system that saw an earlier tick sees it as changed.
        for (int position = 0; position < source.size; position++) {
          storage.markWritten(position);
        }
      }
    }
    // Every storage is in before any derives state from its values (a relationship's targets).
    for (final StorageImage source : storages) {
      registry.storage(source.type).restored();
    }
    registry.groups().rebuild();
  }

  /**
   * Publishes enter for every member of a group that has enter listeners, group by group in member
   * order, once the whole image is in. Listeners may change the world: a member gone meanwhile is
   * skipped. Returns the first exception a listener threw, later ones suppressed.
   */
  private static Throwable announce(final Registry registry) {
    Throwable failure = null;
    final Groups groups = registry.groups();
    // The groups the restore filled: one a listener creates meanwhile fills itself.
    final int filled = groups.size();
    for (int g = 0; g < filled; g++) {
      final Group group = groups.get(g);
      if (!group.onEnter().isEmpty()) {
        final long[] members = new long[group.size()];
        for (int m = 0; m < members.length; m++) {
          members[m] = group.entityAt(m);
        }
        for (final long entity : members) {
          if (group.contains(entity)) {
            failure = group.onEnter().publish(registry, entity, failure);
          }
        }
      }
    }
    return failure;
  }

  /** Reads each field's element type by name from a storage ({@code float.class}, ...). */
  private static final class FieldClasses implements ColumnVisitor {
    private final Map<String, Class<?>> classes = new LinkedHashMap<>();

    static Map<String, Class<?>> of(final Storage<?> storage) {
      final FieldClasses visitor = new FieldClasses();
      storage.columns(visitor);
      return visitor.classes;
    }

    @Override
    public void column(
        final String name, final Class<?> type, final boolean entityRef, final Object[] pages) {
      classes.put(name, type);
    }
  }

  private StorageImage find(final ComponentType<?, ?> type) {
    for (final StorageImage storage : storages) {
      if (storage.type == type) {
        return storage;
      }
    }
    return null;
  }

  private StorageImage require(final ComponentType<?, ?> type) {
    final StorageImage storage = find(type);
    if (null == storage) {
      throw new IllegalArgumentException("no elements of " + type.name() + " were given");
    }
    return storage;
  }
}

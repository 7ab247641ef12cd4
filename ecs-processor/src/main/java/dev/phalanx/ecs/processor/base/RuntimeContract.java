package dev.phalanx.ecs.processor.base;

import com.palantir.javapoet.ClassName;
import java.util.List;
import java.util.Set;

/**
 * The contract between generated code and the runtime, in one place: every runtime class and member
 * the generated code names, and the members a generated storage or cursor inherits (which a field's
 * accessors must not clash with). Generation names the runtime only through these constants;
 * validation reads the inherited members. {@code RuntimeContractTest} resolves every name here
 * against the runtime by reflection and derives the inherited members from the runtime's public and
 * protected methods, so a rename or a new runtime method fails a test instead of a user's build.
 * The order in which generated code calls these members (the insertion and loop protocols) is
 * emitted by {@code generation.RuntimeProtocols}.
 *
 * <p>Each class is named once, with its package: moving a runtime class to another package is a
 * change of that one line (and of the goldens, whose imports follow).
 */
public final class RuntimeContract {

  /** The runtime's core package. */
  public static final String PACKAGE = "dev.phalanx.ecs";

  /** The package of deferred commands ({@code CommandBuffer}, {@code CommandBuffers}). */
  public static final String COMMAND_PACKAGE = PACKAGE + ".command";

  /** What only generated code uses ({@code LoopCopies}): no compatibility promise to users. */
  public static final String INTERNAL_PACKAGE = PACKAGE + ".internal";

  /** {@code Registry}. */
  public static final ClassName REGISTRY = ClassName.get(PACKAGE, "Registry");

  /** {@code SparseSet}, the base of every storage. */
  public static final ClassName SPARSE_SET = ClassName.get(PACKAGE, "SparseSet");

  /** {@code Storage}, the base of generated struct-of-arrays storages. */
  public static final ClassName STORAGE = ClassName.get(PACKAGE, "Storage");

  /** {@code Query}, the base of generated queries: the loop protocol's protected helpers. */
  public static final ClassName QUERY = ClassName.get(PACKAGE, "Query");

  /**
   * {@code Query.Alignment}, which a generated loop keeps per cursor to remember how far a storage
   * agrees with the lead across passes.
   */
  public static final ClassName ALIGNMENT = ClassName.get(PACKAGE, "Query", "Alignment");

  /** {@code AccessSource}, which every generated query implements to declare its access. */
  public static final ClassName ACCESS_SOURCE =
      ClassName.get(PACKAGE + ".schedule", "AccessSource");

  /** {@code Access.Builder}, what a generated query declares its access to. */
  public static final ClassName ACCESS_BUILDER =
      ClassName.get(PACKAGE + ".schedule", "Access", "Builder");

  /** {@code TypedRecording}, what a generated storage records a typed command's fields through. */
  public static final ClassName TYPED_RECORDING = ClassName.get(INTERNAL_PACKAGE, "TypedRecording");

  /** {@code LoopCopies}, which gives each visitor class a copy of a generated loop. */
  public static final ClassName LOOP_COPIES = ClassName.get(INTERNAL_PACKAGE, "LoopCopies");

  /** {@code EmptyStorage}, the base of generated tag storages. */
  public static final ClassName EMPTY_STORAGE = ClassName.get(PACKAGE, "EmptyStorage");

  /** {@code ObjectStorage}, the base of generated instance-keeping storages. */
  public static final ClassName OBJECT_STORAGE = ClassName.get(PACKAGE, "ObjectStorage");

  /** {@code ComponentType}, the key of a storage. */
  public static final ClassName COMPONENT_TYPE = ClassName.get(PACKAGE, "ComponentType");

  /** {@code ComponentTraits}. */
  public static final ClassName COMPONENT_TRAITS = ClassName.get(PACKAGE, "ComponentTraits");

  /** {@code DeletionPolicy}. */
  public static final ClassName DELETION_POLICY = ClassName.get(PACKAGE, "DeletionPolicy");

  /** {@code OwningGroup}. */
  public static final ClassName OWNING_GROUP = ClassName.get(PACKAGE, "OwningGroup");

  /** {@code NonOwningGroup}. */
  public static final ClassName NON_OWNING_GROUP = ClassName.get(PACKAGE, "NonOwningGroup");

  /** {@code View}. */
  public static final ClassName VIEW = ClassName.get(PACKAGE, "View");

  /** {@code RangeConsumer}, the runtime's chunk callback. */
  public static final ClassName RANGE_CONSUMER = ClassName.get(PACKAGE, "RangeConsumer");

  /** {@code EntityRangeConsumer}, the runtime's chunk callback that also hands the entities. */
  public static final ClassName ENTITY_RANGE_CONSUMER =
      ClassName.get(PACKAGE, "EntityRangeConsumer");

  /** {@code Cursor}, the base of generated cursors (it holds the position). */
  public static final ClassName CURSOR = ClassName.get(PACKAGE, "Cursor");

  /** {@code CursorSource}, implemented by generated storages that hand out cursors. */
  public static final ClassName CURSOR_SOURCE = ClassName.get(PACKAGE, "CursorSource");

  /** {@code Entity}, the handle helpers. */
  public static final ClassName ENTITY = ClassName.get(PACKAGE, "Entity");

  /** {@code EntityComparator}, the order of a sort by entity. */
  public static final ClassName ENTITY_COMPARATOR = ClassName.get(PACKAGE, "EntityComparator");

  /** {@code EntityLongKey}, the key of a sort by {@code long} key. */
  public static final ClassName ENTITY_LONG_KEY = ClassName.get(PACKAGE, "EntityLongKey");

  /** {@code EntityFloatKey}, the key of a sort by {@code float} key. */
  public static final ClassName ENTITY_FLOAT_KEY = ClassName.get(PACKAGE, "EntityFloatKey");

  /** {@code PositionComparator}, the order of a sort by position. */
  public static final ClassName POSITION_COMPARATOR = ClassName.get(PACKAGE, "PositionComparator");

  /** {@code Signal}, what queries' enter and leave signals are. */
  public static final ClassName SIGNAL = ClassName.get(PACKAGE, "Signal");

  /** {@code CommandBuffer}, which generated storages record typed fields into. */
  public static final ClassName COMMAND_BUFFER = ClassName.get(COMMAND_PACKAGE, "CommandBuffer");

  /** {@code CommandBuffers}, whose buffers the generated command chunk form hands each run. */
  public static final ClassName COMMAND_BUFFERS = ClassName.get(COMMAND_PACKAGE, "CommandBuffers");

  /** {@code RecordedFields}, what a generated storage reads a typed command's fields from. */
  public static final ClassName RECORDED_FIELDS = ClassName.get(INTERNAL_PACKAGE, "RecordedFields");

  /** {@code EntityRefVisitor}, what {@code eachEntityRef} hands references to. */
  public static final ClassName ENTITY_REF_VISITOR = ClassName.get(PACKAGE, "EntityRefVisitor");

  /** The package of relationship kinds. */
  public static final String RELATION_PACKAGE = PACKAGE + ".relation";

  /** {@code RelationshipStorage}, the base of generated storages of relationship kinds. */
  public static final ClassName RELATIONSHIP_STORAGE =
      ClassName.get(RELATION_PACKAGE, "RelationshipStorage");

  /** {@code PairStorage}, the base of generated storages of pair kinds (tags). */
  public static final ClassName PAIR_STORAGE = ClassName.get(RELATION_PACKAGE, "PairStorage");

  /** {@code OnTargetDestroyed}, a relationship kind's policy. */
  public static final ClassName ON_TARGET_DESTROYED =
      ClassName.get(RELATION_PACKAGE, "OnTargetDestroyed");

  /** {@code ColumnVisitor}, what {@code eachColumn} hands each field's pages to (snapshots). */
  public static final ClassName COLUMN_VISITOR = ClassName.get(PACKAGE, "ColumnVisitor");

  /** Every runtime class generated code names. */
  public static final List<ClassName> CLASSES =
      List.of(
          REGISTRY,
          SPARSE_SET,
          STORAGE,
          EMPTY_STORAGE,
          OBJECT_STORAGE,
          COMPONENT_TYPE,
          COMPONENT_TRAITS,
          DELETION_POLICY,
          OWNING_GROUP,
          NON_OWNING_GROUP,
          VIEW,
          RANGE_CONSUMER,
          ENTITY_RANGE_CONSUMER,
          CURSOR,
          CURSOR_SOURCE,
          ENTITY,
          ENTITY_REF_VISITOR,
          COMMAND_BUFFER,
          COMMAND_BUFFERS,
          RECORDED_FIELDS,
          TYPED_RECORDING,
          QUERY,
          ALIGNMENT,
          LOOP_COPIES,
          SIGNAL,
          ENTITY_COMPARATOR,
          ENTITY_LONG_KEY,
          ENTITY_FLOAT_KEY,
          POSITION_COMPARATOR,
          // Relationships.
          RELATIONSHIP_STORAGE,
          PAIR_STORAGE,
          ON_TARGET_DESTROYED,
          // Snapshots.
          COLUMN_VISITOR);

  /**
   * A runtime member generated code calls, overrides or reads.
   *
   * @param owner the class declaring or inheriting it
   * @param name the method or field name ({@code <init>} for a constructor)
   * @param arity the parameter count ({@code -1} for a field or enum constant)
   */
  public record Member(ClassName owner, String name, int arity) {}

  /** Every runtime member generated code uses; each must be public or protected. */
  public static final List<Member> MEMBERS =
      List.of(
          new Member(STORAGE, "<init>", 1),
          new Member(STORAGE, "prepareInsert", 1),
          new Member(STORAGE, "commitInsert", 2),
          new Member(STORAGE, "prepareInsertAll", 3),
          new Member(STORAGE, "commitInsertAll", 4),
          new Member(STORAGE, "notifyUpdate", 1),
          new Member(STORAGE, "positionFor", 2),
          new Member(STORAGE, "pageShift", 0),
          new Member(STORAGE, "pageSize", 0),
          new Member(STORAGE, "pageCount", 0),
          new Member(STORAGE, "allocatePage", 1),
          new Member(STORAGE, "getAt", 1),
          new Member(STORAGE, "setAt", 2),
          new Member(STORAGE, "patch", 1),
          new Member(STORAGE, "get", 1),
          new Member(STORAGE, "remove", 1),
          new Member(STORAGE, "erase", 1),
          new Member(STORAGE, "compact", 0),
          new Member(STORAGE, "clear", 0),
          new Member(STORAGE, "replace", 2),
          new Member(STORAGE, "emplace", 2),
          new Member(STORAGE, "checkStaged", 2),
          new Member(STORAGE, "stagedTarget", 0),
          new Member(STORAGE, "bound", 0),
          new Member(STORAGE, "restored", 0),
          new Member(RELATIONSHIP_STORAGE, "<init>", 3),
          new Member(RELATIONSHIP_STORAGE, "checkTarget", 3),
          new Member(RELATIONSHIP_STORAGE, "markWritten", 1),
          new Member(STORAGE, "eachEntityRef", 1),
          new Member(ENTITY_REF_VISITOR, "visit", 3),
          new Member(STORAGE, "applyRecorded", 2),
          new Member(STORAGE, "prepareRecorded", 1),
          new Member(OWNING_GROUP, "sort", 1),
          new Member(OWNING_GROUP, "sortByPosition", 1),
          new Member(OWNING_GROUP, "eachInOrder", 1),
          new Member(NON_OWNING_GROUP, "eachInOrder", 1),
          new Member(NON_OWNING_GROUP, "sort", 1),
          new Member(NON_OWNING_GROUP, "insertionSort", 1),
          new Member(NON_OWNING_GROUP, "sortByLongKey", 1),
          new Member(NON_OWNING_GROUP, "sortByFloatKey", 1),
          new Member(NON_OWNING_GROUP, "insertionSortByLongKey", 1),
          new Member(NON_OWNING_GROUP, "insertionSortByFloatKey", 1),
          new Member(OWNING_GROUP, "onEnter", 0),
          new Member(OWNING_GROUP, "onLeave", 0),
          new Member(NON_OWNING_GROUP, "onEnter", 0),
          new Member(NON_OWNING_GROUP, "onLeave", 0),
          new Member(VIEW, "onEnter", 0),
          new Member(VIEW, "onLeave", 0),
          new Member(STORAGE, "stage", 1),
          new Member(STORAGE, "writeStaged", 1),
          new Member(STORAGE, "writeStaged", 2),
          new Member(STORAGE, "stageFrom", 2),
          new Member(STORAGE, "isTracked", 0),
          new Member(STORAGE, "changeTickAt", 1),
          new Member(STORAGE, "changeTickPages", 0),
          new Member(STORAGE, "markWritten", 1),
          new Member(STORAGE, "changeTick", 0),
          new Member(STORAGE, "logsWrites", 0),
          new Member(STORAGE, "isWriteLogged", 0),
          new Member(STORAGE, "logWritten", 1),
          new Member(STORAGE, "contains", 1),
          new Member(TYPED_RECORDING, "beginFields", 5),
          new Member(TYPED_RECORDING, "beginFieldsIfAbsent", 5),
          new Member(TYPED_RECORDING, "putWord", 2),
          new Member(TYPED_RECORDING, "putRef", 2),
          new Member(RECORDED_FIELDS, "nextWord", 0),
          new Member(RECORDED_FIELDS, "nextRef", 0),
          // Protected for hand-written custom storages (the hierarchy's nodes); generated code
          // does not call them.
          new Member(STORAGE, "checkInsertable", 1),
          new Member(STORAGE, "commitUnannounced", 2),
          new Member(STORAGE, "announceInsert", 3),
          new Member(SPARSE_SET, "checkUnlocked", 3),
          new Member(SPARSE_SET, "structureStamp", 0),
          new Member(SPARSE_SET, "moveElement", 2),
          new Member(SPARSE_SET, "swapElements", 2),
          new Member(SPARSE_SET, "releaseElement", 1),
          new Member(SPARSE_SET, "announceRemovals", 0),
          new Member(SPARSE_SET, "elementRemoving", 2),
          new Member(SPARSE_SET, "size", 0),
          new Member(SPARSE_SET, "packed", 0),
          new Member(SPARSE_SET, "index", 1),
          new Member(SPARSE_SET, "indexOf", 1),
          new Member(SPARSE_SET, "contains", 1),
          new Member(SPARSE_SET, "policy", 0),
          new Member(QUERY, "<init>", 0),
          new Member(QUERY, "beginIteration", 1),
          new Member(QUERY, "visit", 2),
          new Member(QUERY, "endIteration", 1),
          new Member(EMPTY_STORAGE, "<init>", 2),
          new Member(PAIR_STORAGE, "<init>", 4),
          new Member(OBJECT_STORAGE, "<init>", 1),
          new Member(OBJECT_STORAGE, "valueAt", 1),
          new Member(COMPONENT_TYPE, "define", 3),
          new Member(COMPONENT_TRAITS, "<init>", 3),
          new Member(DELETION_POLICY, "IN_PLACE", -1),
          new Member(DELETION_POLICY, "SWAP_AND_POP", -1),
          new Member(REGISTRY, "storage", 1),
          new Member(REGISTRY, "owningGroup", 3),
          new Member(REGISTRY, "nonOwningGroup", 2),
          new Member(REGISTRY, "view", 2),
          new Member(OWNING_GROUP, "size", 0),
          new Member(OWNING_GROUP, "contains", 1),
          new Member(OWNING_GROUP, "eachChunk", 1),
          new Member(OWNING_GROUP, "parallelEachChunk", 2),
          new Member(OWNING_GROUP, "parallelEachChunk", 3),
          new Member(COMMAND_BUFFERS, "parallelEachChunk", 3),
          new Member(COMMAND_BUFFERS, "parallelEachChunk", 4),
          new Member(COMMAND_BUFFERS, "forRun", 1),
          new Member(NON_OWNING_GROUP, "size", 0),
          new Member(NON_OWNING_GROUP, "contains", 1),
          new Member(NON_OWNING_GROUP, "members", 0),
          new Member(VIEW, "leader", 0),
          new Member(VIEW, "sizeHint", 0),
          new Member(VIEW, "contains", 1),
          new Member(RANGE_CONSUMER, "accept", 2),
          new Member(ENTITY_RANGE_CONSUMER, "accept", 3),
          new Member(CURSOR, "position", -1),
          new Member(CURSOR, "pageShift", -1),
          new Member(CURSOR, "pageMask", -1),
          new Member(CURSOR, "<init>", 1),
          new Member(CURSOR, "point", 1),
          new Member(CURSOR, "moveToPage", 1),
          new Member(CURSOR, "moveWithinPage", 1),
          new Member(CURSOR, "moveToElement", 2),
          new Member(QUERY, "moveToPage", 2),
          new Member(QUERY, "moveWithinPage", 2),
          new Member(QUERY, "moveToElement", 3),
          new Member(QUERY, "holdsAt", 3),
          new Member(QUERY, "samePositions", 4),
          new Member(QUERY, "structureStamp", 1),
          new Member(ALIGNMENT, "<init>", 1),
          new Member(ALIGNMENT, "refresh", 1),
          new Member(ALIGNMENT, "holds", 2),
          new Member(LOOP_COPIES, "<init>", 1),
          new Member(LOOP_COPIES, "copyOf", 1),
          new Member(CURSOR_SOURCE, "cursor", 0),
          new Member(ENTITY, "isTombstone", 1),
          // Snapshots.
          new Member(STORAGE, "eachColumn", 1),
          new Member(COLUMN_VISITOR, "booleans", 2),
          new Member(COLUMN_VISITOR, "bytes", 2),
          new Member(COLUMN_VISITOR, "shorts", 2),
          new Member(COLUMN_VISITOR, "chars", 2),
          new Member(COLUMN_VISITOR, "ints", 2),
          new Member(COLUMN_VISITOR, "longs", 3),
          new Member(COLUMN_VISITOR, "floats", 2),
          new Member(COLUMN_VISITOR, "doubles", 2),
          new Member(COLUMN_VISITOR, "objects", 3));

  /**
   * The public and protected methods a generated struct-of-arrays storage inherits from {@code
   * Storage}, {@code SparseSet} and {@code Object}, as {@code name/arity}. A field accessor with
   * the same name and parameter count would fail to compile (a final method) or be an error-prone
   * overload ({@code at(int)} beside {@code at(long)}), so the validator refuses it. {@code
   * RuntimeContractTest} derives this set from the runtime and checks it is equal.
   */
  public static final Set<String> STORAGE_INHERITED =
      Set.of(
          // Object
          "getClass/0",
          "hashCode/0",
          "equals/1",
          "clone/0",
          "toString/0",
          "notify/0",
          "notifyAll/0",
          "wait/0",
          "wait/1",
          "wait/2",
          "finalize/0",
          // SparseSet
          "policy/0",
          "size/0",
          "isEmpty/0",
          "packed/0",
          "firstHole/0",
          "hasTombstones/0",
          "contains/1",
          "indexOf/1",
          "index/1",
          "entityWithIndex/1",
          "at/1",
          "describe/0",
          "isLocked/0",
          "isFrozen/0",
          "isIterated/0",
          "lockDescription/0",
          "lock/2",
          "unlock/0",
          "checkUnlocked/3",
          "structureStamp/0",
          "permit/1",
          "reserve/1",
          "compact/0",
          "moveElement/2",
          "swapElements/2",
          "releaseElement/1",
          "announceRemovals/0",
          "elementRemoving/2",
          "sort/1",
          "sortByPosition/1",
          "insertionSortByPosition/1",
          "insertionSort/1",
          "sortByLongKey/1",
          "sortByFloatKey/1",
          "insertionSortByLongKey/1",
          "insertionSortByFloatKey/1",
          "sortAs/1",
          // Storage
          "type/0",
          "pageSize/0",
          "pageShift/0",
          "pageCount/0",
          "registry/0",
          "owner/0",
          "onConstruct/0",
          "onUpdate/0",
          "onDestroy/0",
          "afterInsert/0",
          "afterRemove/0",
          "emplace/2",
          "replace/2",
          "emplaceOrReplace/2",
          "patch/1",
          "patch/2",
          "get/1",
          "tryGet/1",
          "remove/1",
          "erase/1",
          "checkRemove/1",
          "clear/0",
          "eachEntityRef/1",
          "isRelationship/0",
          "applyRecorded/2",
          "replayRecorded/2",
          "prepareRecorded/1",
          "isTracked/0",
          "changeTickAt/1",
          "changeTickPages/0",
          "changedSince/2",
          "markWritten/1",
          "checkStaged/2",
          "stagedTarget/0",
          "entityLinks/0",
          "bound/0",
          "restored/0",
          "changeTick/0",
          "logsWrites/0",
          "logWritten/1",
          "readWrites/0",
          "isWriteLogged/0",
          "stage/1",
          "stageFrom/2",
          "writeStaged/1",
          "writeStaged/2",
          "prepareInsert/1",
          "checkInsertable/1",
          "commitInsert/2",
          "commitUnannounced/2",
          "announceInsert/3",
          "insert/4",
          "prepareInsertAll/3",
          "commitInsertAll/4",
          "positionFor/2",
          "notifyUpdate/1",
          "allocatePage/1",
          "getAt/1",
          "setAt/2",
          // Storage: snapshots
          "eachColumn/1",
          "columns/1");

  /**
   * The public and protected methods a generated cursor inherits from {@code Cursor} and {@code
   * Object}, as {@code name/arity}. {@code RuntimeContractTest} derives this set from the runtime
   * and checks it is equal.
   */
  public static final Set<String> CURSOR_INHERITED =
      Set.of(
          // Cursor
          "currentPosition/0",
          "point/1",
          "moveToPage/1",
          "moveWithinPage/1",
          "moveToElement/2",
          // Object
          "getClass/0",
          "hashCode/0",
          "equals/1",
          "clone/0",
          "toString/0",
          "notify/0",
          "notifyAll/0",
          "wait/0",
          "wait/1",
          "wait/2",
          "finalize/0");

  private RuntimeContract() {}
}

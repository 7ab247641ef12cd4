/**
 * The core of Phalanx, an EnTT-style sparse-set Entity-Component-System: entities, sparse sets,
 * storages, the registry, signals, views and groups.
 *
 * <p>A {@link dev.phalanx.ecs.Registry} creates entities ({@code long} handles with an index and a
 * version, see {@link dev.phalanx.ecs.Entity}) and owns one {@link dev.phalanx.ecs.Storage} per
 * component type, found by a {@link dev.phalanx.ecs.ComponentType} key. A storage is a {@link
 * dev.phalanx.ecs.SparseSet} (a sparse array of pages from entity index to position, a packed array
 * of entities) plus the components' fields in pages, one array per field for generated storages.
 * Views ({@link dev.phalanx.ecs.View}) iterate the entities that have a set of components, driven
 * by the smallest set; groups ({@link dev.phalanx.ecs.Group}) keep such entities packed together,
 * for the fastest iteration.
 *
 * <h2>Costs</h2>
 *
 * <p>Lookups, insertions and removals are O(1): two array reads for a lookup; an insertion or a
 * removal also updates every group that observes the storage, O(groups of that storage). A view
 * iterates O(size of its smallest set) and tests the other sets per entity; an owning group
 * iterates exactly its members, page run by page run, with no test. Nothing on these paths
 * allocates, boxes or reflects once pages exist. Every structural change is checked before it
 * changes anything, then applied, then announced; listeners may throw, and the first exception is
 * rethrown once the change is complete.
 *
 * <h2>Files</h2>
 *
 * <ul>
 *   <li>Entities: {@code Entity} (the handle's bits), {@code EntityStorage} (creation, versions,
 *       recycling).
 *   <li>Sets and storages: {@code SparseSet} (positions and the mutation path's checks), {@code
 *       SetSorter} (a set's sorts: the order computed on a permutation, then applied to the set and
 *       to a group's owned storages), {@code DeletionPolicy}, {@code Storage} (paged payload,
 *       signals, change ticks, the hooks generated storages override), {@code ObjectStorage},
 *       {@code EmptyStorage} (tags), {@code VoidStorage} (named, typeless), {@code Reactive}
 *       (filled by rules), {@code ComponentType}, {@code ComponentTraits}, {@code StorageFactory},
 *       {@code ColumnVisitor} and {@code EntityRefVisitor} (a storage's fields and references, for
 *       features). Package-private parts of a storage: {@code BulkInsertion} (EnTT's range insert),
 *       {@code ElementRemoval} and {@code PendingRemovals} (a checked removal and the removals
 *       being announced), {@code SparseSetVerifier}, {@code SetRefusals} and {@code
 *       StorageRefusals} (the messages of refused changes).
 *   <li>The registry: {@code Registry} (entities, storages, destroy, clear, {@code verify()}),
 *       {@code Context} (singletons); package-private {@code Destruction} (guarded and batch
 *       destroys, clearing), {@code RegistryVerifier} and {@code RegistryRefusals}.
 *   <li>Changing the world as a whole: {@code ChangeSet} (staged changes, checked, then applied,
 *       then announced) with its package-private steps {@code ChangeCheck}, {@code ChangeApply} and
 *       {@code ChangeRefusals}, {@code ReferenceRewriter} (staged handles in written references),
 *       {@code RegistryImage} with {@code ImageFiller} and {@code PageProbe} (a whole world
 *       restored at once).
 *   <li>Signals: {@code Signal}, {@code ComponentListener}.
 *   <li>Views: {@code View} (any arity), {@code TypedView} and {@code View1} to {@code View4}
 *       (typed, fixed arity), {@code ViewLoop}, {@code RuntimeView} (sets chosen at run time),
 *       {@code EntityIterator}.
 *   <li>Groups: {@code Group}, {@code OwningGroup}, {@code NonOwningGroup}, {@code Groups} (the
 *       registry's groups and their upkeep), {@code DirectUpkeep} (which owning group a storage's
 *       insertion, removal or destroy may update directly, skipping the planned upkeep), {@code
 *       RangeConsumer} and {@code EntityRangeConsumer} (chunk bodies), {@code EntityComparator},
 *       {@code PositionComparator}, {@code EntityLongKey} and {@code EntityFloatKey} (sorting: by
 *       comparator, or by a key computed once per element).
 *   <li>Cursors: {@code Cursor}, {@code CursorSource} (the base of generated cursors).
 *   <li>{@code Query}: the base class of generated queries: protected static helpers for the
 *       iteration-guard and cursor protocol that generated loops follow (for generated code).
 * </ul>
 *
 * <p>The core depends on no feature package: commands ({@code dev.phalanx.ecs.command}), the
 * hierarchy ({@code dev.phalanx.ecs.hierarchy}), snapshots ({@code dev.phalanx.ecs.snapshot}),
 * cloning ({@code dev.phalanx.ecs.clone}) and schedules ({@code dev.phalanx.ecs.schedule}) are
 * clients of its public API, as any user's code is: they stage changes in a {@code ChangeSet},
 * restore whole worlds from a {@code RegistryImage}, and listen to storages' signals.
 */
package dev.phalanx.ecs;

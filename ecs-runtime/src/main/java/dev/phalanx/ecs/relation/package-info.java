/**
 * Relationships: components whose value names another entity, with the reverse side kept for you.
 *
 * <p>A relationship kind is a component declared with {@code @Relationship} whose one
 * {@code @EntityRef} field names the target; each entity holding it (a source) has one target of
 * that kind (an exclusive kind, like a {@code ChildOf}). The processor generates its storage on
 * {@link dev.phalanx.ecs.relation.RelationshipStorage}; the registry gives it a {@link
 * dev.phalanx.ecs.relation.Relation} that keeps each target's sources in step with the storage, so
 * that "who names this entity" is O(result), and applies the kind's {@link
 * dev.phalanx.ecs.relation.OnTargetDestroyed policy} when a target is destroyed: remove the
 * relationship, destroy the sources (linked destroys, breadth first), or refuse the destroy before
 * anything changes. An acyclic kind refuses a target whose chain comes back to the source.
 *
 * <p>A non-exclusive kind ({@link dev.phalanx.ecs.relation.Pairs}, flecs's pairs) gives a source
 * any number of targets: a tag component declared per registry (by {@link
 * dev.phalanx.ecs.relation.Pairs#declare}, or by {@code @Relationship} on the tag, whose generated
 * storage, a {@link dev.phalanx.ecs.relation.PairStorage}, declares it), whose storage holds the
 * sources that have a pair, and a pool of pair records, each in its source's list of targets and
 * its target's list of sources. The same destroy policies and acyclic rule apply, per pair.
 *
 * <h2>Costs</h2>
 *
 * <p>The reverse side is kept in pages of flat arrays indexed by entity index: a lookup is two
 * array reads; a link or cut is O(1). Adding and replacing a relationship publish the storage's
 * construct and update signals (the relation listens first); removing one cuts the source through
 * the storage's removal hook, so a kind without destroy listeners of its own keeps the storage's
 * quiet removal path. Destroying a target is O(its sources). {@link
 * dev.phalanx.ecs.Registry#verify()} checks both sides of every kind, O(relationships). A pair is
 * found by a hash lookup, O(1) expected; adding or removing one is O(1) expected list surgery, and
 * a source's first and last pair publish the tag's signals.
 *
 * <h2>Files</h2>
 *
 * <ul>
 *   <li>{@code RelationshipStorage}: the base of generated relationship storages; checks targets.
 *   <li>{@code Relation}: one kind in one registry: queries and upkeep.
 *   <li>{@code Cascade}: propagation down a kind's forest, as runs over one storage of values.
 *   <li>{@code Relations}: every kind of a registry: the destroy policies and the refusing rule.
 *   <li>{@code SourceLists}: the reverse side, on the list kernel the hierarchy shares ({@code
 *       dev.phalanx.ecs.internal.IntrusiveLists}), at entity indices.
 *   <li>{@code Pairs}: one non-exclusive kind in one registry: its pairs, queries and upkeep.
 *   <li>{@code PairStorage}: the base of generated pair kinds' tag storages; declares the kind.
 *   <li>{@code PairLinks}: the pair records, their two lists per entity and the lookup map.
 *   <li>{@code PairCheck}: the check of a pair kind behind {@code verify()}.
 *   <li>{@code TargetedKind}: what the destroy policies need of a kind of either sort.
 *   <li>{@code EntityQueue}: the worklists of linked destroys and of the refusing rule.
 *   <li>{@code RelationCheck}: the check behind {@code verify()}.
 * </ul>
 */
package dev.phalanx.ecs.relation;

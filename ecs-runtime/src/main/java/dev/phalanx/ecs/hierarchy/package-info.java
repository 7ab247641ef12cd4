/**
 * Parent and child links between entities: scene graphs, attachments, inventories.
 *
 * <p>A {@link dev.phalanx.ecs.hierarchy.Hierarchy} keeps one node per linked entity in an in-place
 * storage ({@code NodeStorage}): the parent, the first child and the previous and next siblings,
 * plus a child count, all as flat arrays. Every change (attach, reparent, detach, destroy a tree)
 * is checked in full (no cycle, live entities, no lock) before anything changes, and a node's links
 * are kept when the node storage is sorted or compacted. The hierarchy registers its invariants
 * with {@link dev.phalanx.ecs.Registry#verify()}.
 *
 * <h2>Costs</h2>
 *
 * <p>Attach, detach and reparent are O(1) plus the cycle check, O(depth of the new parent); {@code
 * depth()} is O(depth); traversals are O(nodes visited) and allocate nothing once their scratch
 * arrays have grown; clearing and destroying every node are O(nodes).
 *
 * <h2>Files</h2>
 *
 * <ul>
 *   <li>{@code Hierarchy}: the public API: queries, changes, traversals, checks and the raw-write
 *       batches of loaders; its nested {@code Node} (a read snapshot of one node) and {@code
 *       NodeStorage} (the links' arrays, kept and edited by the list kernel relationship kinds
 *       share, {@code dev.phalanx.ecs.internal.IntrusiveLists}, at node positions).
 *   <li>{@code LinkEdits}: the rules a link change is checked against, and its all-or-nothing
 *       sequence (insert nodes unannounced, edit the lists, announce).
 *   <li>{@code Traversals}: the walks, without recursion, failing fast on a change.
 *   <li>{@code HierarchyCheck}: the consistency check behind {@code verify()}.
 *   <li>{@code ListRebuild}: the rebuild of the lists from the parent links after raw writes.
 * </ul>
 */
package dev.phalanx.ecs.hierarchy;

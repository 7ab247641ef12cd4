/**
 * Cloning and prefabs: copying an entity (or a subtree) with all its components to a new or
 * existing entity, in the same registry or another, and instantiating a captured template in bulk.
 *
 * <p>An {@link dev.phalanx.ecs.clone.EntityCloner} copies one entity ({@code clone}, {@code
 * cloneInto}) or one subtree of a {@link dev.phalanx.ecs.hierarchy.Hierarchy} ({@code cloneTree}).
 * A {@link dev.phalanx.ecs.clone.Prefab} captures a template once and creates {@code n} instances
 * per call, with an optional per-instance {@link dev.phalanx.ecs.clone.Prefab.Initializer}. Both
 * copy through one core hook, {@code Storage.stageFrom}: generated struct-of-arrays storages read
 * the source's pages field by field (no reflection, no boxing, no allocation), object storages copy
 * the reference (shallow), tags are just added. The copies then go through the storages' checked
 * insertion path, so signals, groups and iteration guards behave as for any emplace.
 * {@code @EntityRef} fields naming an entity of the copied set are remapped to its copy; other
 * references are kept within one registry and cleared across registries.
 *
 * <p>Both are all or nothing: everything is checked first, every element is inserted before any
 * listener runs, the whole change is announced at once, and if anything throws (a listener
 * included) the change is undone, leaving {@code registry.verify()} empty.
 *
 * <h2>Costs</h2>
 *
 * <p>A clone costs O(p) per copied entity to find its components among the registry's p storages,
 * then one checked insertion per component. A prefab instance costs its share of one bulk {@code
 * create} plus one checked insertion and one page-to-page copy per component (no search: the
 * template is captured once); the guide gives the measured ratio to bulk creation plus typed
 * emplaces. A warm clone of a struct-of-arrays entity allocates nothing.
 *
 * <h2>Files</h2>
 *
 * <ul>
 *   <li>{@code EntityCloner}: clone, cloneInto, cloneTree, within or between registries.
 *   <li>{@code Prefab}: capture (an entity or a tree) and bulk instantiation.
 *   <li>{@code Copier}: the shared engine (unannounced insertions, reference remapping,
 *       announcement, rollback).
 * </ul>
 */
package dev.phalanx.ecs.clone;

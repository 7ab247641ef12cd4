/**
 * The core's hooks for Phalanx's feature packages, not exported by the module: {@code CoreHooks}
 * reaches the few package-private members of {@code dev.phalanx.ecs} that commands, the hierarchy
 * and snapshots need (the checked mutation path's steps, page allocation, restore), so that none of
 * them has to be public. {@code Lookups} resolves them (and the snapshot package's hooks into the
 * hierarchy) through private lookups, once, at class initialisation. The dependency runs one way,
 * from here to the core. Each hook costs a direct call once compiled.
 */
package dev.phalanx.ecs.bridge;

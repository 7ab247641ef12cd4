/**
 * Groups: sets of entities kept up to date by signals. Owning groups pack their members at the front
 * of every owned storage in the same order ("perfect SoA"), nested groups share owned storages as
 * nested prefixes, non-owning groups keep a member set. {@link dev.phalanx.ecs.group.Groups} states the
 * maintenance order and the conflict rules.
 */
package dev.phalanx.ecs.group;

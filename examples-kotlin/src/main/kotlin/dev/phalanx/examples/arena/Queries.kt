package dev.phalanx.examples.arena

import dev.phalanx.ecs.annotations.GroupQuery
import dev.phalanx.ecs.annotations.ViewQuery

/**
 * Everything that moves and is awake, as an owning group: both storages keep the members packed at
 * their front, so that the movement system runs over plain arrays. Generates `MovingQuery`.
 */
@GroupQuery(owned = [Position::class, Velocity::class], exclude = [Asleep::class])
interface Moving

/**
 * Every entity with a position and hit points, the position read only. Generates `TargetsQuery`.
 */
@ViewQuery(include = [Position::class, Health::class], readOnly = [Position::class])
interface Targets

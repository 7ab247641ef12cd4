/**
 * Deferred commands: changes recorded while the world cannot change (during an iteration, from
 * parallel tasks) and applied later, at a sync point, in a fixed order.
 *
 * <p>A {@link dev.phalanx.ecs.command.CommandBuffer} records creations (reserved handles usable at
 * once), destructions, emplaces, removals and hierarchy changes into flat arrays; {@code apply()}
 * replays them through the core's checked API, skipping commands whose target died meanwhile, and
 * always ends with the buffer empty. {@link dev.phalanx.ecs.command.CommandBuffers} gives each run
 * of a parallel pass its own buffer and applies them in run order, so that the world after a pass
 * is the same with 1 or 16 threads.
 *
 * <h2>Costs</h2>
 *
 * <p>Recording is a few array writes and two compares (the owner-thread check), no allocation once
 * the arrays have grown; typed emplaces generated for {@code @Component} types record raw field
 * words. Applying costs what the direct calls cost, plus one read per recorded word.
 *
 * <h2>Files</h2>
 *
 * <ul>
 *   <li>{@code CommandBuffer}: one thread's buffer; the recording API, reservations, the owner
 *       thread's claim, apply.
 *   <li>{@code CommandStream}: a buffer's encoded commands (op codes, targets, payloads) and the
 *       read cursors a replay and generated storages read them through.
 *   <li>{@code CommandReplay}: a buffer's apply onto the registry, command by command, tolerant of
 *       dead targets and failures; the sync-point check.
 *   <li>{@code CommandTypes}: a buffer's component types by dense id, with their typed payload
 *       sizes and storages.
 *   <li>{@code ReservationSlots}: the table of slots (one JVM-wide) that keeps reserved handles
 *       unique.
 *   <li>{@code CommandBuffers}: one buffer per run of a parallel pass, applied in run order.
 *   <li>{@code CommandRangeConsumer}: the body of a parallel pass that records commands.
 * </ul>
 */
package dev.phalanx.ecs.command;

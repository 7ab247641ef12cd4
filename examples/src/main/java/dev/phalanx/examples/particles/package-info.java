/**
 * The flagship example: a 2D particle world of a million entities, built the way a Phalanx user
 * builds one.
 *
 * <ul>
 *   <li>Components are records annotated with {@code @Component}; the processor generates their
 *       struct-of-arrays storages ({@code Position_Storage}...) and keys ({@code
 *       Position_Traits.TYPE}).
 *   <li>{@link dev.phalanx.examples.particles.MovementSystem}, the hot loop, walks an owning group
 *       chunk by chunk over raw {@code float[]} pages, optionally on several threads.
 *   <li>{@link dev.phalanx.examples.particles.DensityGrid} is the O(n) neighbourhood step.
 *   <li>{@link dev.phalanx.examples.particles.FollowSystem} walks a view over the comet tails,
 *       whose links to their comet are a relationship kind ({@code @Relationship}, destroying the
 *       tail with its comet) stored in an in-place ({@code inPlaceDelete}) component.
 *   <li>{@link dev.phalanx.examples.particles.LifetimeSystem} and {@link
 *       dev.phalanx.examples.particles.Spawner} destroy and create thousands of entities per frame.
 *   <li>{@link dev.phalanx.examples.particles.Replication} is a game server's replication: each
 *       {@link dev.phalanx.examples.particles.RemoteClient} is sent acknowledged deltas of what its
 *       {@link dev.phalanx.examples.particles.Viewpoint} sees, over loopback UDP through a {@link
 *       dev.phalanx.examples.particles.LossyLink} that drops and reorders datagrams.
 *   <li>{@link dev.phalanx.examples.particles.World} ties them together and fingerprints the state;
 *       {@link dev.phalanx.examples.Simulation} is the command-line entry point.
 * </ul>
 */
package dev.phalanx.examples.particles;

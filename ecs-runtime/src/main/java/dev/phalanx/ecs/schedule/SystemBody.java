package dev.phalanx.ecs.schedule;

/**
 * The code of a system: what a {@link Schedule} runs once per frame (or per fixed step) for it.
 * Ordinary Java: a lambda, a method reference or a small class holding the system's queries and
 * state. It may throw; the schedule then stops the frame (see {@link Schedule#run()}).
 */
@FunctionalInterface
public interface SystemBody {

  /**
   * Runs the system once.
   *
   * @param context the system's view of the frame: its command buffer, its declared storages and
   *     resources, the frame number
   */
  void run(SystemContext context);
}

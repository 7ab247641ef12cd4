/**
 * Phalanx's annotations: {@code @Component}, {@code @EntityRef}, {@code @GroupQuery} and
 * {@code @ViewQuery}. Class retention: needed at compile time only, by the annotation processor.
 */
module dev.phalanx.ecs.annotations {
  exports dev.phalanx.ecs.annotations;
}

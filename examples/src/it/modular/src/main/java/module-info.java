/** A user's application as a named module: Phalanx's runtime is a module it requires. */
module app {
  requires dev.phalanx.ecs;
  // Compile time only: the annotations, and java.compiler for the @Generated on generated code.
  requires static dev.phalanx.ecs.annotations;
  requires static java.compiler;
}

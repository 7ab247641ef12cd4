package dev.phalanx.ecs.processor.model;

/** How generated code builds an instance of a component from its fields. */
public enum Construction {
  /** A constructor taking every field in declaration order: a record's canonical constructor. */
  ALL_FIELDS,
  /** The no-argument constructor, then each field is written (directly or through its setter). */
  NO_ARG,
  /** No accessible constructor: only tags may lack one ({@code get} then returns {@code null}). */
  NONE
}

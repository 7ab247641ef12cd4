/**
 * The annotations a user puts on component classes. {@link dev.phalanx.ecs.annotations.Component}
 * makes the Phalanx annotation processor generate a struct-of-arrays storage, a cursor and the
 * traits of the class; {@link dev.phalanx.ecs.annotations.EntityRef} marks a field that holds an
 * entity handle. Both are read at compile time only ({@code CLASS} retention).
 */
package dev.phalanx.ecs.annotations;

/**
 * For generated code and Phalanx's own packages; no compatibility promise to users, left out of the
 * user guide and of the published Javadoc (ecs-runtime's pom excludes it). It is exported because
 * code generated into users' packages must reach it (Dagger's {@code dagger.internal}). A leaf: it
 * names no other Phalanx package.
 *
 * <ul>
 *   <li>{@code LoopCopies}: gives each loop body class its own copy of a generated loop.
 *   <li>{@code RecordedFields}: a typed command's fields, as a generated storage reads them back.
 *   <li>{@code FieldRecorder}: the writing side, the protected members a command buffer overrides.
 *   <li>{@code TypedRecording}: the static calls a generated storage records a typed command with.
 *   <li>{@code Guards}: the count of active locks and iterations one registry's sets share.
 *   <li>{@code Failures}: collects listener exceptions, rethrows the first.
 *   <li>{@code LongLongMap}: a primitive open-addressing map for entity handles.
 *   <li>{@code IntrusiveLists}: the one kernel of ordered intrusive lists over paged arrays: a
 *       relationship kind's sources per target, the hierarchy's children per parent.
 *   <li>{@code ParentCycles}: the cycles of parent links, for the hierarchy's check and the
 *       snapshot loader's.
 * </ul>
 */
package dev.phalanx.ecs.internal;

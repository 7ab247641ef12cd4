package dev.phalanx.ecs.schedule;

import dev.phalanx.ecs.Context;
import dev.phalanx.ecs.snapshot.SnapshotFormatException;
import dev.phalanx.ecs.snapshot.SnapshotLoader;
import dev.phalanx.ecs.snapshot.SnapshotWriter;
import dev.phalanx.ecs.snapshot.ValueCodec;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a snapshot of the world leaves out and a restored game needs to continue identically: the
 * {@link Schedule}'s frame counter and fixed-step time, and the resources of the registry's {@link
 * Context} declared saved, each with a {@link ValueCodec} (as Bevy saves the resources a scene
 * registers for reflection). It travels as extra blocks of a snapshot, through the snapshot
 * package's public API only:
 *
 * <pre>{@code
 * ScheduleState state = ScheduleState.of(schedule).resource(Score.class, new ScoreCodec());
 * state.writeTo(new SnapshotWriter(registry)).write(out); // world, then schedule and resources
 * // a new server: same systems, same declarations
 * Map<String, byte[]> extras = new SnapshotLoader(registry2).types(...).load(in);
 * ScheduleState.of(schedule2).resource(Score.class, new ScoreCodec()).restore(extras);
 * }</pre>
 *
 * <h2>What is saved</h2>
 *
 * <ul>
 *   <li>Always, as block {@value #SCHEDULE_ENTRY}: {@link Schedule#frame()} (so {@link
 *       SystemContext#frame()} goes on from it), and for every fixed-timestep stage its name, its
 *       step and the time it carries over to the next frame (so {@link Schedule#run(long)} runs the
 *       same steps).
 *   <li>Each resource declared with {@link #resource}, as block {@value #RESOURCE_PREFIX} followed
 *       by its name: whether the context holds it and, if so, its codec's bytes. A resource absent
 *       when saved is removed from the context when restored.
 *   <li>Not saved: resources not declared; stepping and debugging state ({@linkplain
 *       Schedule#pause() paused}, {@linkplain Schedule#disable disabled} systems); timings; change
 *       detection ({@link RunCondition#resourceChanged}, {@link SystemContext#componentsChanged}),
 *       which starts again as after any replacement between frames: each restored resource counts
 *       as changed once, and a new schedule sees what exists as changed before each system's first
 *       run.
 * </ul>
 *
 * <h2>Restoring is checked before anything changes</h2>
 *
 * <p>{@link #restore} reads every block first: the schedule's block and one per declared resource
 * must be there, be well formed and match this schedule (the same fixed-timestep stages with the
 * same steps), each codec must read exactly its bytes and return a value of the resource's class,
 * and no block under {@value #RESOURCE_PREFIX} may name a resource this state does not declare. Any
 * broken rule, or a codec that throws, throws {@link SnapshotFormatException} naming the block (the
 * resource) and the rule, and leaves the schedule and the context exactly as they were. Only then
 * are the resources put in the context and the counters set; that step runs no user code and cannot
 * fail.
 *
 * <h2>When</h2>
 *
 * <p>Save and restore between frames, from the thread that runs the schedule: both throw {@link
 * IllegalStateException} while {@link Schedule#run()} runs (from a system or a run condition), and
 * while a {@link Schedule#stepSystem()} has stopped inside a frame (finish it with {@link
 * Schedule#stepFrame()} and a {@code run()}). A codec that calls {@link #save}, {@link #writeTo} or
 * {@link #restore} of the same state is refused the same way. Not thread-safe.
 *
 * <h2>Costs</h2>
 *
 * <p>Nothing per frame: the schedule pays nothing for being saveable. A save or a restore makes one
 * codec call per declared resource and copies each block a few times (a few dozen bytes for the
 * schedule's block, plus each resource's own size): made for saves and restores, not per frame.
 */
public final class ScheduleState {

  /** The name of the extra block holding the schedule's frame counter and fixed-step time. */
  public static final String SCHEDULE_ENTRY = "phalanx.schedule";

  /** The start of the name of a resource's extra block; the resource's name follows. */
  public static final String RESOURCE_PREFIX = "phalanx.resource:";

  // The layout version of both kinds of block; a reader refuses any other.
  private static final int VERSION = 1;
  private static final int ABSENT = 0;
  private static final int PRESENT = 1;

  private final Schedule schedule;
  private final List<Saved<?>> resources = new ArrayList<>();
  // Set while a save or a restore runs: a codec that calls back in is refused.
  private boolean busy;

  /** One resource declared saved. */
  private record Saved<T>(Class<T> type, String name, String entry, ValueCodec<T> codec) {}

  /** A resource read back, to put in the context once everything is read. */
  private record Restored<T>(Class<T> type, T value) {}

  private ScheduleState(final Schedule schedule) {
    this.schedule = schedule;
  }

  /**
   * {@return a state of {@code schedule} that saves its frame counter and fixed-step time and no
   * resource yet}
   *
   * @param schedule the schedule, whose registry's context holds the resources
   */
  public static ScheduleState of(final Schedule schedule) {
    return new ScheduleState(Objects.requireNonNull(schedule, "schedule"));
  }

  /** {@return the schedule whose state this is} */
  public Schedule schedule() {
    return schedule;
  }

  /**
   * Declares resource {@code type} of the registry's context saved, under its class's name ({@link
   * Class#getName()}): a renamed class then no longer finds its saves; {@link #resource(Class,
   * String, ValueCodec)} gives a name that outlives renames.
   *
   * @param <T> the resource type
   * @param type the resource's class, its key in the context
   * @param codec writes and reads its values
   * @return this state
   * @throws IllegalArgumentException if {@code type} or its name is declared already
   */
  public <T> ScheduleState resource(final Class<T> type, final ValueCodec<T> codec) {
    return resource(type, Objects.requireNonNull(type, "type").getName(), codec);
  }

  /**
   * Declares resource {@code type} of the registry's context saved, as block {@value
   * #RESOURCE_PREFIX}{@code name}.
   *
   * @param <T> the resource type
   * @param type the resource's class, its key in the context
   * @param name the name the saves use, not empty
   * @param codec writes and reads its values
   * @return this state
   * @throws IllegalArgumentException if {@code type} or {@code name} is declared already, or {@code
   *     name} is empty
   */
  public <T> ScheduleState resource(
      final Class<T> type, final String name, final ValueCodec<T> codec) {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(codec, "codec");
    if (name.isEmpty()) {
      throw new IllegalArgumentException(
          "resource " + type.getName() + ": the name its saves use must not be empty");
    }
    for (final Saved<?> saved : resources) {
      if (saved.type() == type || saved.name().equals(name)) {
        throw new IllegalArgumentException(
            "resource "
                + type.getName()
                + " as '"
                + name
                + "': resource "
                + saved.type().getName()
                + " is declared already as '"
                + saved.name()
                + "'; declare each resource once, each under its own name");
      }
    }
    resources.add(new Saved<>(type, name, RESOURCE_PREFIX + name, codec));
    return this;
  }

  /**
   * {@return the names of the blocks a save writes, in order: {@value #SCHEDULE_ENTRY}, then one
   * per declared resource, in declaration order}
   */
  public List<String> entries() {
    final List<String> names = new ArrayList<>();
    names.add(SCHEDULE_ENTRY);
    for (final Saved<?> saved : resources) {
      names.add(saved.entry());
    }
    return Collections.unmodifiableList(names);
  }

  /**
   * {@return the blocks of the schedule's state, by name in the order of {@link #entries()}}: for a
   * transport of the caller's own; {@link #writeTo} hands them to a snapshot. Reads the schedule
   * and the context, changes nothing.
   *
   * @throws IOException if a codec fails (the message names the resource, the codec's exception is
   *     the cause); nothing is returned
   * @throws IllegalStateException if the schedule is running a frame, or a step stopped inside one,
   *     or a codec of this state calls back into it
   */
  public Map<String, byte[]> save() throws IOException {
    enter("save");
    try {
      final Map<String, byte[]> blocks = new LinkedHashMap<>();
      blocks.put(SCHEDULE_ENTRY, scheduleBlock());
      final Context context = schedule.registry().context();
      for (final Saved<?> saved : resources) {
        blocks.put(saved.entry(), resourceBlock(saved, context));
      }
      return Collections.unmodifiableMap(blocks);
    } finally {
      busy = false;
    }
  }

  /**
   * Adds the blocks of {@link #save()} to {@code writer}'s extra blocks ({@link
   * SnapshotWriter#extra}), replacing blocks of the same names: all of them, or none if a codec
   * fails. Call it before each snapshot the writer writes: it keeps the blocks it was given.
   *
   * @param writer the writer of the world's snapshot
   * @return {@code writer}, for {@code state.writeTo(writer).write(out)}
   * @throws IOException if a codec fails; {@code writer} is left as it was
   * @throws IllegalStateException if the schedule is running a frame, or a step stopped inside one,
   *     or if {@code writer} is writing (see {@link SnapshotWriter})
   */
  public SnapshotWriter writeTo(final SnapshotWriter writer) throws IOException {
    Objects.requireNonNull(writer, "writer");
    for (final Map.Entry<String, byte[]> block : save().entrySet()) {
      writer.extra(block.getKey(), block.getValue());
    }
    return writer;
  }

  /**
   * Restores the schedule's frame counter and fixed-step time, and every declared resource, from
   * the extra blocks of a snapshot (what {@link SnapshotLoader#load} returns) or from {@link
   * #save()}'s map. Everything is read and checked before anything changes (see the class comment);
   * the context then holds each declared resource saved present (a new object; the one it held is
   * replaced) and no longer holds one saved absent. Blocks of other names are ignored.
   *
   * @param extras the blocks by name
   * @throws SnapshotFormatException if a block is missing or malformed, was saved by a schedule
   *     with other fixed-timestep stages, names a resource this state does not declare, or a codec
   *     fails or returns no value of its class; nothing changed
   * @throws IllegalStateException if the schedule is running a frame, or a step stopped inside one,
   *     or a codec of this state calls back into it; nothing changed
   */
  public void restore(final Map<String, byte[]> extras) throws SnapshotFormatException {
    Objects.requireNonNull(extras, "extras");
    enter("restore");
    try {
      final Schedule.Stage[] stages = schedule.stageList();
      final long[] carried = new long[stages.length];
      final long frame = readScheduleBlock(extras.get(SCHEDULE_ENTRY), stages, carried);
      checkNoUndeclared(extras);
      final List<Restored<?>> values = new ArrayList<>();
      for (final Saved<?> saved : resources) {
        values.add(readResourceBlock(saved, extras.get(saved.entry())));
      }
      // Everything is read and checked: from here on nothing runs user code or can fail.
      final Context context = schedule.registry().context();
      for (final Restored<?> value : values) {
        put(context, value);
      }
      for (int s = 0; s < stages.length; s++) {
        stages[s].accumulated = carried[s];
      }
      schedule.restoreFrame(frame);
    } finally {
      busy = false;
    }
  }

  @Override
  public String toString() {
    return "ScheduleState" + entries();
  }

  // ---------------------------------------------------------------------------------------------
  // Saving.
  // ---------------------------------------------------------------------------------------------

  private void enter(final String what) {
    if (busy) {
      throw new IllegalStateException(
          "a codec called "
              + what
              + "() of the ScheduleState that is saving or restoring: a codec writes or reads its"
              + " value only");
    }
    if (schedule.isRunning()) {
      throw new IllegalStateException(
          "the schedule is running a frame: "
              + what
              + " its state between frames, outside run() (not from a system or a run"
              + " condition)");
    }
    if (schedule.isInsideFrame()) {
      throw new IllegalStateException(
          "a step stopped inside frame "
              + schedule.frame()
              + " (next system: "
              + schedule.nextSystem().orElse("none")
              + "): "
              + what
              + " the state between whole frames; finish this one first (stepFrame(), then"
              + " run())");
    }
    busy = true;
  }

  private byte[] scheduleBlock() throws IOException {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final DataOutputStream out = new DataOutputStream(bytes);
    out.writeByte(VERSION);
    out.writeLong(schedule.frame());
    final Schedule.Stage[] stages = schedule.stageList();
    int fixed = 0;
    for (final Schedule.Stage stage : stages) {
      fixed += 0 == stage.stepNanos ? 0 : 1;
    }
    out.writeInt(fixed);
    for (final Schedule.Stage stage : stages) {
      if (0 != stage.stepNanos) {
        out.writeUTF(stage.name);
        out.writeLong(stage.stepNanos);
        out.writeLong(stage.accumulated);
      }
    }
    out.flush();
    return bytes.toByteArray();
  }

  private static <T> byte[] resourceBlock(final Saved<T> saved, final Context context)
      throws IOException {
    final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    final DataOutputStream out = new DataOutputStream(bytes);
    out.writeByte(VERSION);
    final T value = context.find(saved.type());
    if (null == value) {
      out.writeByte(ABSENT);
    } else {
      out.writeByte(PRESENT);
      try {
        saved.codec().write(value, out);
      } catch (final IOException | RuntimeException thrown) {
        throw new IOException(
            "the codec of resource "
                + describe(saved)
                + " failed to write it: "
                + thrown
                + "; nothing was saved",
            thrown);
      }
    }
    out.flush();
    return bytes.toByteArray();
  }

  // ---------------------------------------------------------------------------------------------
  // Restoring: reading and checking, nothing changed.
  // ---------------------------------------------------------------------------------------------

  /** Reads the schedule's block into {@code carried}, per stage; {@return the frame counter} */
  private static long readScheduleBlock(
      final byte[] block, final Schedule.Stage[] stages, final long[] carried)
      throws SnapshotFormatException {
    final String what = "block '" + SCHEDULE_ENTRY + "' (the schedule's frame counter)";
    if (null == block) {
      throw new SnapshotFormatException(
          -1,
          "the snapshot has no "
              + what
              + ": it was saved without ScheduleState.writeTo (or its blocks were dropped);"
              + " nothing was restored");
    }
    final ByteArrayInputStream bytes = new ByteArrayInputStream(block);
    final DataInputStream in = new DataInputStream(bytes);
    try {
      checkVersion(in.readUnsignedByte(), what);
      final long frame = in.readLong();
      if (frame < 0) {
        throw malformed(what, block, bytes, "a negative frame counter " + frame);
      }
      final int count = in.readInt();
      if (count < 0 || count > block.length) {
        throw malformed(what, block, bytes, "an impossible count of fixed stages " + count);
      }
      final List<String> savedStages = new ArrayList<>();
      final boolean[] seen = new boolean[stages.length];
      for (int i = 0; i < count; i++) {
        final String name = in.readUTF();
        final long step = in.readLong();
        final long time = in.readLong();
        savedStages.add(name + " every " + step + " ns");
        final int s = fixedStage(stages, name, step);
        if (s < 0 || seen[s]) {
          throw otherStages(what, savedStages, stages, i + 1 < count);
        }
        if (time < 0 || time >= step) {
          throw malformed(
              what,
              block,
              bytes,
              "fixed stage '" + name + "' carrying " + time + " ns, not in [0, " + step + ")");
        }
        seen[s] = true;
        carried[s] = time;
      }
      for (int s = 0; s < stages.length; s++) {
        if (0 != stages[s].stepNanos && !seen[s]) {
          throw otherStages(what, savedStages, stages, false);
        }
      }
      if (bytes.available() > 0) {
        throw malformed(what, block, bytes, bytes.available() + " bytes past its end");
      }
      return frame;
    } catch (final EOFException early) {
      throw endsEarly(what, block, early);
    } catch (final SnapshotFormatException refused) {
      throw refused;
    } catch (final IOException malformed) {
      throw new SnapshotFormatException(
          offset(block, bytes),
          "the " + what + " is malformed: " + malformed + "; nothing was restored",
          malformed);
    }
  }

  /** {@return the index of fixed stage {@code name} of step {@code step}, or -1} */
  private static int fixedStage(final Schedule.Stage[] stages, final String name, final long step) {
    for (int s = 0; s < stages.length; s++) {
      if (0 != stages[s].stepNanos && stages[s].name.equals(name) && stages[s].stepNanos == step) {
        return s;
      }
    }
    return -1;
  }

  private static SnapshotFormatException otherStages(
      final String what,
      final List<String> saved,
      final Schedule.Stage[] stages,
      final boolean more) {
    final List<String> own = new ArrayList<>();
    for (final Schedule.Stage stage : stages) {
      if (0 != stage.stepNanos) {
        own.add(stage.name + " every " + stage.stepNanos + " ns");
      }
    }
    return new SnapshotFormatException(
        -1,
        "the "
            + what
            + " was saved by a schedule with fixed-timestep stages "
            + saved
            + (more ? " and more" : "")
            + ", this one has "
            + own
            + ": restore into a schedule built the same way; nothing was restored");
  }

  private void checkNoUndeclared(final Map<String, byte[]> extras) throws SnapshotFormatException {
    for (final String name : extras.keySet()) {
      if (name.startsWith(RESOURCE_PREFIX) && !declares(name)) {
        throw new SnapshotFormatException(
            -1,
            "the snapshot has block '"
                + name
                + "', a saved resource this ScheduleState does not declare (it declares "
                + entries().subList(1, resources.size() + 1)
                + "): declare it with resource(type, \""
                + name.substring(RESOURCE_PREFIX.length())
                + "\", codec), or leave the block out of the map; nothing was restored");
      }
    }
  }

  private boolean declares(final String entry) {
    for (final Saved<?> saved : resources) {
      if (saved.entry().equals(entry)) {
        return true;
      }
    }
    return false;
  }

  private static <T> Restored<T> readResourceBlock(final Saved<T> saved, final byte[] block)
      throws SnapshotFormatException {
    final String what = "block '" + saved.entry() + "' of resource " + saved.type().getName();
    if (null == block) {
      throw new SnapshotFormatException(
          -1,
          "the snapshot has no "
              + what
              + ", which this ScheduleState declares saved: it was saved without that"
              + " declaration; nothing was restored");
    }
    final ByteArrayInputStream bytes = new ByteArrayInputStream(block);
    final DataInputStream in = new DataInputStream(bytes);
    final int presence;
    try {
      checkVersion(in.readUnsignedByte(), what);
      presence = in.readUnsignedByte();
    } catch (final EOFException early) {
      throw endsEarly(what, block, early);
    } catch (final SnapshotFormatException refused) {
      throw refused;
    } catch (final IOException failed) {
      throw new SnapshotFormatException(-1, "the " + what + " is malformed: " + failed, failed);
    }
    if (ABSENT == presence) {
      if (bytes.available() > 0) {
        throw malformed(what, block, bytes, "saved absent, yet " + bytes.available() + " bytes on");
      }
      return new Restored<>(saved.type(), null);
    }
    if (PRESENT != presence) {
      throw malformed(what, block, bytes, "presence flag " + presence + ", neither 0 nor 1");
    }
    final Object value;
    try {
      value = saved.codec().read(in);
    } catch (final IOException | RuntimeException thrown) {
      throw new SnapshotFormatException(
          offset(block, bytes),
          "the codec of resource "
              + describe(saved)
              + " failed to read its block: "
              + thrown
              + "; nothing was restored",
          thrown);
    }
    if (!saved.type().isInstance(value)) {
      throw malformed(
          what,
          block,
          bytes,
          "its codec returned "
              + (null == value ? "null" : "a " + value.getClass().getName())
              + ", not a "
              + saved.type().getName());
    }
    if (bytes.available() > 0) {
      throw malformed(
          what,
          block,
          bytes,
          "its codec read "
              + offset(block, bytes)
              + " of its "
              + block.length
              + " bytes (a codec must read exactly what it wrote)");
    }
    return new Restored<>(saved.type(), saved.type().cast(value));
  }

  private static void checkVersion(final int version, final String what)
      throws SnapshotFormatException {
    if (VERSION != version) {
      throw new SnapshotFormatException(
          0,
          "the "
              + what
              + " has layout version "
              + version
              + ", this runtime reads "
              + VERSION
              + "; nothing was restored");
    }
  }

  /** The refusal of a block shorter than what it declares. */
  private static SnapshotFormatException endsEarly(
      final String what, final byte[] block, final EOFException early) {
    return new SnapshotFormatException(
        block.length,
        "the " + what + " ends early: " + block.length + " bytes; nothing was restored",
        early);
  }

  private static SnapshotFormatException malformed(
      final String what,
      final byte[] block,
      final ByteArrayInputStream bytes,
      final String problem) {
    return new SnapshotFormatException(
        offset(block, bytes),
        "the " + what + " is malformed: " + problem + "; nothing was restored");
  }

  private static long offset(final byte[] block, final ByteArrayInputStream bytes) {
    return (long) block.length - bytes.available();
  }

  private static String describe(final Saved<?> saved) {
    return saved.type().getName() + " (block '" + saved.entry() + "')";
  }

  // ---------------------------------------------------------------------------------------------
  // Restoring: changing.
  // ---------------------------------------------------------------------------------------------

  private static <T> void put(final Context context, final Restored<T> restored) {
    if (null == restored.value()) {
      context.erase(restored.type());
    } else {
      context.insertOrAssign(restored.type(), restored.value());
    }
  }
}

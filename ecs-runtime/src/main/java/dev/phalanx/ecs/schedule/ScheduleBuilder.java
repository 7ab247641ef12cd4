package dev.phalanx.ecs.schedule;

import dev.phalanx.ecs.ComponentType;
import dev.phalanx.ecs.Group;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.SparseSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ForkJoinPool;

/**
 * Declares the stages and systems of a {@link Schedule}, then checks and plans it ({@link
 * #build()}). Starts with three stages, {@link Schedule#PRE_UPDATE}, {@link Schedule#UPDATE} and
 * {@link Schedule#POST_UPDATE}; {@link #stage} and {@link #fixedStage} append more.
 *
 * <h2>What {@link #build()} checks</h2>
 *
 * <ul>
 *   <li>every name in {@code after}, {@code before} and {@code ambiguousWith} is a declared system,
 *       and every system's stage is declared;
 *   <li>a constraint between systems of different stages agrees with the stages' order;
 *   <li>the constraints of a stage have no cycle (the message names one);
 *   <li>no two systems of a stage conflict (see {@link Access}) without an order between them,
 *       unless the pair is {@linkplain SystemDeclaration#ambiguousWith allowed}: the message lists
 *       every such pair with the subject of the conflict.
 * </ul>
 *
 * <p>All problems are reported at once, in one {@link IllegalStateException}: a constraint that
 * names an unknown system or stage is left out of the checks that need it, and the rest of the plan
 * is still checked (a stage with a cycle still has its conflicts reported). Nothing is built, and
 * the registry is left as it was.
 */
public final class ScheduleBuilder {

  private final Registry registry;
  private final Map<String, long[]> stages = new LinkedHashMap<>();
  private final Map<String, SystemDeclaration> systems = new LinkedHashMap<>();
  private final Map<String, SystemSet> sets = new LinkedHashMap<>();
  private final List<String[]> chains = new ArrayList<>();
  private ForkJoinPool pool;
  private int window = 128;
  private boolean timed = true;

  ScheduleBuilder(final Registry registry) {
    this.registry = Objects.requireNonNull(registry, "registry");
    stage(Schedule.PRE_UPDATE);
    stage(Schedule.UPDATE);
    stage(Schedule.POST_UPDATE);
  }

  /**
   * Appends a stage that runs once per frame.
   *
   * @param name the stage's name, unique
   * @return this builder
   * @throws IllegalArgumentException if a stage of that name exists
   */
  public ScheduleBuilder stage(final String name) {
    return addStage(name, 0, 0);
  }

  /**
   * Appends a fixed-timestep stage: per frame it runs as many steps of {@code stepNanos} as the
   * time given to {@link Schedule#run(long)} has accumulated, at most {@code maxSteps} (the rest is
   * dropped, so a slow frame does not make the next one slower); {@link Schedule#run()} runs it
   * exactly once. Each step ends with the stage's sync point.
   *
   * @param name the stage's name, unique
   * @param stepNanos the step, in nanoseconds
   * @param maxSteps the most steps per frame
   * @return this builder
   * @throws IllegalArgumentException if a stage of that name exists, or a number is not positive
   */
  public ScheduleBuilder fixedStage(final String name, final long stepNanos, final int maxSteps) {
    if (stepNanos <= 0 || maxSteps <= 0) {
      throw new IllegalArgumentException(
          "fixed stage '"
              + name
              + "': the step ("
              + stepNanos
              + " ns) and the most steps per frame ("
              + maxSteps
              + ") must be positive");
    }
    return addStage(name, stepNanos, maxSteps);
  }

  private ScheduleBuilder addStage(final String name, final long stepNanos, final int maxSteps) {
    Objects.requireNonNull(name, "name");
    if (stages.containsKey(name)) {
      throw new IllegalArgumentException("stage '" + name + "' is declared already");
    }
    stages.put(name, new long[] {stepNanos, maxSteps});
    return this;
  }

  /**
   * Declares a system in stage {@link Schedule#UPDATE} (see {@link SystemDeclaration#in}).
   *
   * @param name the system's name, unique: messages and timings use it
   * @param body the system's code
   * @return the declaration, to state the system's access and constraints
   * @throws IllegalArgumentException if a system of that name exists
   */
  public SystemDeclaration system(final String name, final SystemBody body) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(body, "body");
    if (systems.containsKey(name)) {
      throw new IllegalArgumentException("system '" + name + "' is declared already");
    }
    if (sets.containsKey(name)) {
      throw new IllegalArgumentException(
          "'" + name + "' names a set: systems and sets share one namespace");
    }
    final SystemDeclaration declaration =
        new SystemDeclaration(name, body, systems.size(), Schedule.UPDATE);
    systems.put(name, declaration);
    return declaration;
  }

  /**
   * {@return the set named {@code name}, declared by the first call} Systems join it with {@link
   * SystemDeclaration#inSet}; see {@link SystemSet}.
   *
   * @param name the set's name; systems and sets share one namespace
   * @throws IllegalArgumentException if a system of that name exists
   */
  public SystemSet set(final String name) {
    Objects.requireNonNull(name, "name");
    if (systems.containsKey(name)) {
      throw new IllegalArgumentException(
          "'" + name + "' names a system: systems and sets share one namespace");
    }
    SystemSet set = sets.get(name);
    if (null == set) {
      set = new SystemSet(name);
      sets.put(name, set);
    }
    return set;
  }

  /**
   * Runs {@code names} one after another, each after the one before it (Bevy's {@code chain()}):
   * systems, or sets, whose every member then runs after every member of the one before.
   *
   * @param names names of declared systems or sets, at least two
   * @return this builder
   */
  public ScheduleBuilder chain(final String... names) {
    for (final String name : names) {
      Objects.requireNonNull(name, "name");
    }
    chains.add(names.clone());
    return this;
  }

  /**
   * Runs systems that do not conflict at the same time on {@code pool} ({@code null}, the default,
   * runs every system on the thread that calls {@link Schedule#run()}). The world after a frame is
   * the same either way.
   *
   * @param pool the pool, or {@code null}
   * @return this builder
   */
  public ScheduleBuilder executor(final ForkJoinPool pool) {
    this.pool = pool;
    return this;
  }

  /**
   * Sets how many of the latest runs each system's timing keeps (default 128).
   *
   * @param runs the window, at least 1
   * @return this builder
   */
  public ScheduleBuilder timingWindow(final int runs) {
    if (runs < 1) {
      throw new IllegalArgumentException("the timing window must hold at least 1 run: " + runs);
    }
    this.window = runs;
    return this;
  }

  /**
   * Turns the per-system clock off or on (on by default). Off, a frame reads the clock twice in all
   * (for {@link Schedule#frameTiming()}) instead of once per system, about 65 ns a read on this
   * project's virtual machines; each system's {@link SystemTiming} then counts its runs and holds
   * no samples.
   *
   * @param on whether to time each system
   * @return this builder
   */
  public ScheduleBuilder timeSystems(final boolean on) {
    this.timed = on;
    return this;
  }

  /**
   * Checks the declarations and plans the schedule (see the class comment). Groups declared after
   * this call do not widen the systems' access: declare groups first. Once the plan is accepted, it
   * creates the storage of every component type a system declares, so that no storage is created
   * while systems run on several threads.
   *
   * @return the schedule
   * @throws IllegalStateException listing every problem found; nothing is built
   */
  public Schedule build() {
    final List<String> problems = new ArrayList<>();
    final List<String> stageNames = new ArrayList<>(stages.keySet());
    final Map<String, List<SystemDeclaration>> byStage = new HashMap<>();
    for (final String stage : stageNames) {
      byStage.put(stage, new ArrayList<>());
    }
    for (final SystemDeclaration system : systems.values()) {
      final List<SystemDeclaration> members = byStage.get(system.stage);
      if (null == members) {
        problems.add(
            "system '"
                + system.name
                + "' is in stage '"
                + system.stage
                + "', which is not declared");
      } else {
        members.add(system);
      }
      checkNames(system, system.after, "after", problems);
      checkNames(system, system.before, "before", problems);
      checkNames(system, system.ambiguousWith, "ambiguousWith", problems);
      for (final String set : system.sets) {
        if (!sets.containsKey(set)) {
          problems.add(
              "system '" + system.name + "' is in set '" + set + "', which is not declared");
        }
      }
    }
    for (final SystemSet set : sets.values()) {
      checkSetNames(set, set.after, "after", problems);
      checkSetNames(set, set.before, "before", problems);
    }
    for (final String[] chain : chains) {
      for (final String name : chain) {
        if (!systems.containsKey(name) && !sets.containsKey(name)) {
          problems.add("a chain names '" + name + "', which is not a declared system or set");
        }
      }
    }
    expandConstraints();
    // Every check runs whatever the others found: a constraint naming an unknown system or stage
    // is left out of the checks that need it, so the rest of the plan is still checked.
    checkStageOrder(stageNames, problems);
    final Schedule.Stage[] planned = new Schedule.Stage[stageNames.size()];
    for (int s = 0; s < planned.length; s++) {
      final String name = stageNames.get(s);
      final long[] fixed = stages.get(name);
      planned[s] = plan(name, fixed[0], (int) fixed[1], byStage.get(name), problems);
    }
    if (!problems.isEmpty()) {
      throw refused(problems);
    }
    // Every storage a system declares exists before the first frame: none is created while
    // systems run on several threads, and each system's permission to change the structure of
    // the storages it declares (see Schedule) names storages that exist.
    for (final Schedule.Stage stage : planned) {
      for (final Schedule.SystemSlot slot : stage.slots) {
        final Access access = slot.context.access;
        for (final ComponentType<?, ?> type : access.types) {
          registry.storage(type);
        }
        if (!access.exclusive) {
          final List<SparseSet> permits = new ArrayList<>();
          for (final ComponentType<?, ?> type : access.types) {
            if (access.changesStructure(type)) {
              permits.add(registry.storage(type));
            }
          }
          slot.permits = permits.toArray(new SparseSet[0]);
        }
      }
    }
    return new Schedule(registry, planned, pool, window, timed);
  }

  private void checkSetNames(
      final SystemSet set,
      final List<String> names,
      final String constraint,
      final List<String> problems) {
    for (final String name : names) {
      if (!systems.containsKey(name) && !sets.containsKey(name)) {
        problems.add(
            "set '"
                + set.name
                + "' is "
                + constraint
                + " '"
                + name
                + "', which is not a declared system or set");
      } else if (name.equals(set.name)) {
        problems.add("set '" + set.name + "' names itself in " + constraint);
      }
    }
  }

  /** {@return the systems {@code name} stands for: itself, a set's members, or none} */
  private List<String> expand(final String name) {
    if (systems.containsKey(name)) {
      return List.of(name);
    }
    final List<String> members = new ArrayList<>();
    if (sets.containsKey(name)) {
      for (final SystemDeclaration system : systems.values()) {
        if (system.sets.contains(name)) {
          members.add(system.name);
        }
      }
    }
    return members;
  }

  /**
   * Works out each system's constraints with sets expanded: its own, its sets', the chains', and
   * its sets' chains of members; a system's constraint on itself (through a set) is left out.
   */
  private void expandConstraints() {
    for (final SystemDeclaration system : systems.values()) {
      system.orderedAfter.clear();
      system.orderedBefore.clear();
      system.allowedWith.clear();
      addExpanded(system, system.after, system.orderedAfter);
      addExpanded(system, system.before, system.orderedBefore);
      addExpanded(system, system.ambiguousWith, system.allowedWith);
      for (final String name : system.sets) {
        final SystemSet set = sets.get(name);
        if (null != set) {
          addExpanded(system, set.after, system.orderedAfter);
          addExpanded(system, set.before, system.orderedBefore);
        }
      }
    }
    for (final String[] chain : chains) {
      for (int k = 1; k < chain.length; k++) {
        for (final String earlier : expand(chain[k - 1])) {
          final SystemDeclaration first = systems.get(earlier);
          addExpanded(first, List.of(chain[k]), first.orderedBefore);
        }
      }
    }
    for (final SystemSet set : sets.values()) {
      if (set.chained) {
        final List<String> members = expand(set.name);
        for (int k = 1; k < members.size(); k++) {
          systems.get(members.get(k - 1)).orderedBefore.add(members.get(k));
        }
      }
    }
  }

  private void addExpanded(
      final SystemDeclaration system, final List<String> names, final List<String> into) {
    for (final String name : names) {
      if (systems.containsKey(name)) {
        into.add(name); // a system naming itself is reported by checkNames
        continue;
      }
      for (final String member : expand(name)) {
        if (!member.equals(system.name)) {
          into.add(member);
        }
      }
    }
  }

  private void checkNames(
      final SystemDeclaration system,
      final List<String> names,
      final String constraint,
      final List<String> problems) {
    for (final String name : names) {
      if (sets.containsKey(name)) {
        continue;
      }
      if (!systems.containsKey(name)) {
        problems.add(
            "system '"
                + system.name
                + "' is "
                + constraint
                + " '"
                + name
                + "', which is not a declared system");
      } else if (name.equals(system.name)) {
        problems.add("system '" + system.name + "' names itself in " + constraint);
      }
    }
  }

  private void checkStageOrder(final List<String> stageNames, final List<String> problems) {
    for (final SystemDeclaration system : systems.values()) {
      final int mine = stageNames.indexOf(system.stage);
      if (mine < 0) {
        continue;
      }
      for (final String name : system.orderedAfter) {
        final SystemDeclaration other = systems.get(name);
        if (null != other && stageNames.indexOf(other.stage) > mine) {
          problems.add(
              "system '"
                  + system.name
                  + "' (stage '"
                  + system.stage
                  + "') is after '"
                  + name
                  + "', which runs in the later stage '"
                  + other.stage
                  + "'");
        }
      }
      for (final String name : system.orderedBefore) {
        final SystemDeclaration other = systems.get(name);
        if (null != other
            && stageNames.indexOf(other.stage) >= 0
            && stageNames.indexOf(other.stage) < mine) {
          problems.add(
              "system '"
                  + system.name
                  + "' (stage '"
                  + system.stage
                  + "') is before '"
                  + name
                  + "', which runs in the earlier stage '"
                  + other.stage
                  + "'");
        }
      }
    }
  }

  /** Orders a stage's systems, finds its conflicts and splits it into waves. */
  private Schedule.Stage plan(
      final String stage,
      final long stepNanos,
      final int maxSteps,
      final List<SystemDeclaration> members,
      final List<String> problems) {
    final int n = members.size();
    final boolean[][] edge = declaredEdges(members);
    int[] order = Schedule.topologicalOrder(edge);
    if (order.length < n) {
      problems.add(
          "stage '" + stage + "': the order constraints make a cycle: " + cycle(edge, members));
      // The systems the cycle holds back follow in declaration order, so that the conflicts of
      // the stage are still checked (the plan itself is not built).
      order = completed(order, n);
    }
    final boolean[][] reach = Schedule.closure(edge);
    final Access[] access = new Access[n];
    for (int i = 0; i < n; i++) {
      access[i] = widen(members.get(i).access.build());
    }
    final boolean[][] runsBefore =
        orderConflicts(stage, members, order, edge, reach, access, problems);
    final Schedule.Wave[] planned = waves(stage, members, order, runsBefore, access);
    final Schedule.SystemSlot[] slots = new Schedule.SystemSlot[n];
    for (int x = 0; x < n; x++) {
      final SystemDeclaration system = members.get(order[x]);
      slots[x] =
          new Schedule.SystemSlot(
              system.name,
              system.body,
              system.condition(setConditions(system)),
              new SystemContext(registry, system.name, stage, access[order[x]]),
              window);
      slots[x].alwaysRun = system.alwaysRun;
      slots[x].sets = List.copyOf(new LinkedHashSet<>(system.sets));
    }
    // Waves name systems by their local index; the stage keeps them in topological order.
    final int[] slotOf = new int[n];
    for (int x = 0; x < n; x++) {
      slotOf[order[x]] = x;
    }
    for (final Schedule.Wave w : planned) {
      for (int k = 0; k < w.systems.length; k++) {
        w.systems[k] = slotOf[w.systems[k]];
      }
      w.slots = slots;
    }
    return new Schedule.Stage(stage, stepNanos, maxSteps, slots, planned);
  }

  /** {@return {@code order} followed by the nodes of {@code [0, n)} it lacks, in index order} */
  private static int[] completed(final int[] order, final int n) {
    final boolean[] placed = new boolean[n];
    for (final int node : order) {
      placed[node] = true;
    }
    final int[] all = Arrays.copyOf(order, n);
    int count = order.length;
    for (int node = 0; node < n; node++) {
      if (!placed[node]) {
        all[count++] = node;
      }
    }
    return all;
  }

  /**
   * The order constraints declared within a stage, by local index: {@code edge[a][b]} means {@code
   * a} runs before {@code b}; a constraint naming a system of another stage is left out.
   */
  private static boolean[][] declaredEdges(final List<SystemDeclaration> members) {
    final int n = members.size();
    final Map<String, Integer> local = new HashMap<>();
    for (int i = 0; i < n; i++) {
      local.put(members.get(i).name, i);
    }
    final boolean[][] edge = new boolean[n][n];
    for (int i = 0; i < n; i++) {
      final SystemDeclaration system = members.get(i);
      // A system naming itself is reported once, as such, not again as a cycle.
      for (final String name : system.orderedAfter) {
        final Integer other = local.get(name);
        if (null != other && other != i) {
          edge[other][i] = true;
        }
      }
      for (final String name : system.orderedBefore) {
        final Integer other = local.get(name);
        if (null != other && other != i) {
          edge[i][other] = true;
        }
      }
    }
    return edge;
  }

  /**
   * Orders every conflicting pair as the topological order does, and reports a conflicting pair
   * with no declared order that is not allowed to run in declaration order.
   *
   * @return the declared edges plus the conflict edges: {@code runsBefore[a][b]} means {@code a}
   *     must finish before {@code b} starts
   */
  private boolean[][] orderConflicts(
      final String stage,
      final List<SystemDeclaration> members,
      final int[] order,
      final boolean[][] edge,
      final boolean[][] reach,
      final Access[] access,
      final List<String> problems) {
    final int n = members.size();
    final boolean[][] runsBefore = new boolean[n][n];
    for (int i = 0; i < n; i++) {
      runsBefore[i] = Arrays.copyOf(edge[i], n);
    }
    for (int x = 0; x < n; x++) {
      for (int y = x + 1; y < n; y++) {
        final int a = order[x];
        final int b = order[y];
        final String why = access[a].conflictWith(access[b]);
        if (null == why) {
          continue;
        }
        runsBefore[a][b] = true;
        if (!reach[a][b] && !reach[b][a] && !allowed(members.get(a), members.get(b))) {
          problems.add(
              "stage '"
                  + stage
                  + "': systems '"
                  + members.get(a).name
                  + "'"
                  + inSets(members.get(a))
                  + " and '"
                  + members.get(b).name
                  + "'"
                  + inSets(members.get(b))
                  + " conflict on "
                  + why
                  + ", and no order is declared between them: add after/before, or"
                  + " ambiguousWith to run them in declaration order");
        }
      }
    }
    return runsBefore;
  }

  /**
   * Splits a stage into waves: a system runs one wave after the latest system that must run before
   * it. The waves name systems by their local index.
   */
  private Schedule.Wave[] waves(
      final String stage,
      final List<SystemDeclaration> members,
      final int[] order,
      final boolean[][] runsBefore,
      final Access[] access) {
    final int n = members.size();
    final int[] wave = new int[n];
    int waves = 0;
    for (int x = 0; x < n; x++) {
      final int b = order[x];
      int level = 0;
      for (int y = 0; y < x; y++) {
        final int a = order[y];
        if (runsBefore[a][b]) {
          level = Math.max(level, wave[a] + 1);
        }
      }
      wave[b] = level;
      waves = Math.max(waves, level + 1);
    }
    final Schedule.Wave[] planned = new Schedule.Wave[waves];
    for (int w = 0; w < waves; w++) {
      final List<Integer> inWave = new ArrayList<>();
      for (int x = 0; x < n; x++) {
        if (wave[order[x]] == w) {
          inWave.add(order[x]);
        }
      }
      planned[w] = wave(stage, inWave, members, access);
    }
    return planned;
  }

  private Schedule.Wave wave(
      final String stage,
      final List<Integer> inWave,
      final List<SystemDeclaration> members,
      final Access[] access) {
    final int[] systemsOfWave = new int[inWave.size()];
    boolean exclusive = false;
    final StringBuilder names = new StringBuilder();
    for (int k = 0; k < systemsOfWave.length; k++) {
      systemsOfWave[k] = inWave.get(k);
      exclusive |= access[systemsOfWave[k]].exclusive;
      names.append(k == 0 ? "" : ", ").append(members.get(systemsOfWave[k]).name);
    }
    return new Schedule.Wave(systemsOfWave, exclusive, stage, names.toString());
  }

  private List<RunCondition> setConditions(final SystemDeclaration system) {
    final List<RunCondition> more = new ArrayList<>();
    for (final String name : system.sets) {
      final SystemSet set = sets.get(name);
      if (null != set) {
        more.addAll(set.conditions);
      }
    }
    return more;
  }

  /** {@return " (in set 'x')" or " (in sets 'x', 'y')" for a system in sets, else ""} */
  private static String inSets(final SystemDeclaration system) {
    if (system.sets.isEmpty()) {
      return "";
    }
    final StringBuilder text =
        new StringBuilder(system.sets.size() == 1 ? " (in set " : " (in sets ");
    for (int k = 0; k < system.sets.size(); k++) {
      text.append(k == 0 ? "'" : ", '").append(system.sets.get(k)).append('\'');
    }
    return text.append(')').toString();
  }

  private boolean allowed(final SystemDeclaration a, final SystemDeclaration b) {
    return a.allowedWith.contains(b.name) || b.allowedWith.contains(a.name);
  }

  /** Adds, for a structural change of any type of an owning group, one of every owned type. */
  private Access widen(final Access declared) {
    Access access = declared;
    boolean changed = true;
    while (changed) {
      changed = false;
      for (int g = 0; g < registry.groups().size(); g++) {
        final Group group = registry.groups().get(g);
        if (0 == group.ownedCount() || !structural(access, group)) {
          continue;
        }
        for (int o = 0; o < group.ownedCount(); o++) {
          final ComponentType<?, ?> owned = group.owned(o).type();
          if (!access.changesStructure(owned)) {
            access = access.withStructure(owned);
            changed = true;
          }
        }
      }
    }
    return access;
  }

  private static boolean structural(final Access access, final Group group) {
    for (int o = 0; o < group.ownedCount(); o++) {
      if (access.changesStructure(group.owned(o).type())) {
        return true;
      }
    }
    for (int o = 0; o < group.getCount(); o++) {
      if (access.changesStructure(group.get(o).type())) {
        return true;
      }
    }
    for (int o = 0; o < group.excludeCount(); o++) {
      if (access.changesStructure(group.exclude(o).type())) {
        return true;
      }
    }
    return false;
  }

  /**
   * Names one cycle among the systems the topological order could not place. There is one, so the
   * search finds it from some start before the last system: the loop needs no other bound. Only the
   * entries of {@code next} on the path the search returns along are read, and each was set.
   */
  private static String cycle(final boolean[][] edge, final List<SystemDeclaration> members) {
    final int n = edge.length;
    final int[] state = new int[n];
    final int[] next = new int[n];
    int found = -1;
    for (int start = 0; found < 0; start++) {
      found = findCycle(start, edge, state, next);
    }
    final StringBuilder text = new StringBuilder("'" + members.get(found).name + "'");
    int at = next[found];
    while (at != found) {
      text.append(" -> '").append(members.get(at).name).append('\'');
      at = next[at];
    }
    return text.append(" -> '").append(members.get(found).name).append('\'').toString();
  }

  // Depth-first search: state 1 on the path, 2 done; returns a node on a cycle, or -1.
  private static int findCycle(
      final int node, final boolean[][] edge, final int[] state, final int[] next) {
    if (2 == state[node]) {
      return -1;
    }
    state[node] = 1;
    for (int to = 0; to < edge.length; to++) {
      if (!edge[node][to]) {
        continue;
      }
      next[node] = to;
      if (1 == state[to]) {
        return to;
      }
      final int found = findCycle(to, edge, state, next);
      if (found >= 0) {
        return found;
      }
    }
    state[node] = 2;
    return -1;
  }

  private static IllegalStateException refused(final List<String> problems) {
    return new IllegalStateException(
        "cannot build the schedule: "
            + problems.size()
            + " problem(s):\n  "
            + String.join("\n  ", problems));
  }
}

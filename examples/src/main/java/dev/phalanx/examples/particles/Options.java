package dev.phalanx.examples.particles;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The command-line options of the simulation: {@code --entities N}, {@code --frames N}, {@code
 * --seed N}, {@code --threads N}, {@code --image N}, {@code --out PATH}, {@code --save FILE},
 * {@code --save-at N}, {@code --load FILE}, {@code --replica}, {@code --clients N}, {@code --loss
 * P}, {@code --reorder P}, {@code --inspect [PORT]} and {@code --help}; those with a value also as
 * {@code --name=value}.
 *
 * @param entities root entities (particles and comets; comet tails come on top)
 * @param frames frames to run
 * @param seed seed of every random draw
 * @param threads threads of the movement system
 * @param imageSize side of the picture, in pixels
 * @param out where to write the picture
 * @param help whether to print the usage and stop
 * @param save where to save a snapshot of the world, or {@code null}
 * @param saveAt after which frame to save it (counted from the start of this run)
 * @param load a snapshot to start from instead of a new world, or {@code null}
 * @param replica whether to replicate the world to clients over a lossy loopback link
 * @param clients how many clients {@code --replica} runs
 * @param loss the share of datagrams the link drops, each way
 * @param reorder the share of datagrams the link holds back one to three frames, each way
 * @param inspect the port of a live inspector to attach (0: any free port), or -1 for none
 */
public record Options(
    int entities,
    int frames,
    long seed,
    int threads,
    int imageSize,
    Path out,
    boolean help,
    Path save,
    int saveAt,
    Path load,
    boolean replica,
    int clients,
    double loss,
    double reorder,
    int inspect) {

  /** The usage text printed by {@code --help}. */
  public static final String USAGE =
      """
      Phalanx particles: a 2D world of particles, frozen dust, sparks and comets pulled by orbiting
      attractors and pushed apart by a density grid; roots die and respawn every frame.

      Options:
        --entities N   root entities (default 1000000; comets add 8 tail particles each)
        --frames N     frames to simulate (default 100)
        --seed N       seed of every random draw (default 42); same seed, same world
        --threads N    threads of the movement system (default: available processors)
        --image N      side of the picture in pixels (default 1024)
        --out PATH     where to write the PNG (default examples/out/particles.png)
        --save FILE    save a snapshot of the world to FILE (after the last frame, or see --save-at)
        --save-at N    save the snapshot after frame N of this run
        --load FILE    start from a snapshot saved with --save instead of a new world
        --replica      replicate the world to clients over loopback UDP through a link that
                       drops, delays and reorders datagrams (seeded); each client holds the part
                       of the world near its viewpoint, is checked against the server's view every
                       frame, and its bytes per frame are printed
        --clients N    clients of --replica (default 2)
        --loss P       share of datagrams the link drops, each way (default 0.1)
        --reorder P    share of datagrams the link holds back 1 to 3 frames (default 0.1)
        --inspect [PORT]
                       attach the live inspector (a web page and JSON-RPC on 127.0.0.1, any free
                       port unless given); prints its address with the token, serves it between
                       frames, and keeps serving after the last frame until Enter is pressed
        --help         print this and exit

      With Maven, from the repository root:
        mvn -q -pl examples exec:java -Dexec.args="--entities 200000 --frames 50\"\
      """;

  /**
   * Parses {@code args}.
   *
   * @throws IllegalArgumentException for an unknown option, a missing or malformed value
   */
  public static Options parse(final String... args) {
    int entities = 1_000_000;
    int frames = 100;
    long seed = 42;
    int threads = Runtime.getRuntime().availableProcessors();
    int imageSize = 1024;
    Path out = defaultOut();
    boolean help = false;
    Path save = null;
    int saveAt = -1;
    Path load = null;
    boolean replica = false;
    int clients = 2;
    double loss = 0.1;
    double reorder = 0.1;
    int inspect = -1;
    for (int i = 0; i < args.length; i++) {
      String name = args[i];
      String value = null;
      final int equals = name.indexOf('=');
      if (equals > 0) {
        value = name.substring(equals + 1);
        name = name.substring(0, equals);
      }
      if ("--help".equals(name) || "-h".equals(name)) {
        help = true;
        continue;
      }
      if ("--replica".equals(name) && null == value) {
        replica = true;
        continue;
      }
      if ("--inspect".equals(name)) {
        // The port is optional: taken only when the next argument is a number.
        if (null == value && i + 1 < args.length && args[i + 1].matches("[0-9]+")) {
          value = args[++i];
        }
        inspect = null == value ? 0 : port(value);
        continue;
      }
      if (null == value) {
        if (i + 1 >= args.length) {
          throw new IllegalArgumentException(name + " needs a value");
        }
        value = args[++i];
      }
      switch (name) {
        case "--entities" -> entities = positive(name, value);
        case "--frames" -> frames = positive(name, value);
        case "--seed" -> seed = number(name, value);
        case "--threads" -> threads = positive(name, value);
        case "--image" -> imageSize = positive(name, value);
        case "--out" -> out = Path.of(value);
        case "--save" -> save = Path.of(value);
        case "--save-at" -> saveAt = positive(name, value);
        case "--load" -> load = Path.of(value);
        case "--clients" -> clients = positive(name, value);
        case "--loss" -> loss = share(name, value, false);
        case "--reorder" -> reorder = share(name, value, true);
        default -> throw new IllegalArgumentException("unknown option " + name + " (try --help)");
      }
    }
    if (saveAt > frames) {
      throw new IllegalArgumentException(
          "--save-at " + saveAt + " is after the last frame, " + frames);
    }
    if (saveAt > 0 && null == save) {
      throw new IllegalArgumentException("--save-at needs --save FILE");
    }
    return new Options(
        entities,
        frames,
        seed,
        threads,
        imageSize,
        out,
        help,
        save,
        saveAt < 0 ? frames : saveAt,
        load,
        replica,
        clients,
        loss,
        reorder,
        inspect);
  }

  /**
   * Returns {@code examples/out/particles.png} when run from the repository root (as {@code mvn -pl
   * examples exec:java} does), else {@code out/particles.png}.
   */
  private static Path defaultOut() {
    return Files.isDirectory(Path.of("examples", "src"))
        ? Path.of("examples", "out", "particles.png")
        : Path.of("out", "particles.png");
  }

  private static int port(final String value) {
    final long parsed = number("--inspect", value);
    if (parsed < 0 || parsed > 65535) {
      throw new IllegalArgumentException("--inspect takes a port in [0, 65535], got " + value);
    }
    return (int) parsed;
  }

  private static int positive(final String name, final String value) {
    final long parsed = number(name, value);
    if (parsed < 1 || parsed > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(name + " must be a positive int, got " + value);
    }
    return (int) parsed;
  }

  /** A share in {@code [0, 1)}, or {@code [0, 1]} if {@code upToOne}. */
  private static double share(final String name, final String value, final boolean upToOne) {
    final double parsed;
    try {
      parsed = Double.parseDouble(value);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " takes a number, got '" + value + "'", e);
    }
    if (!(parsed >= 0 && (upToOne ? parsed <= 1 : parsed < 1))) {
      throw new IllegalArgumentException(
          name + " is a share in [0, 1" + (upToOne ? "]" : ")") + ", got " + value);
    }
    return parsed;
  }

  private static long number(final String name, final String value) {
    try {
      return Long.parseLong(value.replace("_", ""));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " takes a number, got '" + value + "'", e);
    }
  }
}

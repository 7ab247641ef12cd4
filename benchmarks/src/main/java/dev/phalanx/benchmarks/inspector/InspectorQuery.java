package dev.phalanx.benchmarks.inspector;

import dev.phalanx.benchmarks.components.Position_Storage;
import dev.phalanx.benchmarks.components.Position_Traits;
import dev.phalanx.benchmarks.components.Velocity_Storage;
import dev.phalanx.benchmarks.components.Velocity_Traits;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.inspector.Inspector;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A client's wait for {@code world.query} of 1,000 entities with two components, their field values
 * included, in milliseconds per call (the target: within 5 ms): a real {@link HttpClient} on
 * loopback, the server's threads, and a game thread that calls {@link Inspector#serve()} every 0.1
 * ms between frames of no work. The world holds {@code entities} entities with a Position and a
 * Velocity; the query asks for the first 1,000. Sample mode, so the report has the median and the
 * tail (p0.99) as well as the mean.
 */
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class InspectorQuery {

  private static final String TOKEN = "benchmark-token-0123456789";

  private static final String QUERY =
      "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"world.query\", \"params\":"
          + " {\"with\": [\"Position\", \"Velocity\"], \"limit\": 1000, \"values\": true}}";

  /** A served world and a client. */
  @State(Scope.Benchmark)
  public static class Served {
    /** Entities in the world, each with a Position and a Velocity. */
    @Param({"1000000"})
    public int entities;

    Inspector inspector;
    Thread game;
    volatile boolean running;
    HttpClient http;
    HttpRequest request;

    @Setup(Level.Trial)
    public void setup() throws IOException, InterruptedException {
      final Registry registry = new Registry();
      final Position_Storage positions = registry.storage(Position_Traits.TYPE);
      final Velocity_Storage velocities = registry.storage(Velocity_Traits.TYPE);
      for (int i = 0; i < entities; i++) {
        final long e = registry.create();
        positions.emplace(e, i, i);
        velocities.emplace(e, 1, 1);
      }
      inspector = Inspector.builder(registry).port(0).token(TOKEN).announce(line -> {}).start();
      running = true;
      final Inspector served = inspector;
      game =
          new Thread(
              () -> {
                while (running) {
                  served.serve();
                  LockSupport.parkNanos(100_000);
                }
              },
              "game");
      game.start();
      http =
          HttpClient.newBuilder()
              .version(HttpClient.Version.HTTP_1_1)
              .connectTimeout(Duration.ofSeconds(5))
              .build();
      request =
          HttpRequest.newBuilder(inspector.rpcAddress())
              .header("Authorization", "Bearer " + TOKEN)
              .header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofString(QUERY, StandardCharsets.UTF_8))
              .build();
      final HttpResponse<String> answer = http.send(request, HttpResponse.BodyHandlers.ofString());
      if (200 != answer.statusCode() || !answer.body().contains("\"result\"")) {
        throw new IllegalStateException("the query failed: " + answer.body());
      }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws InterruptedException {
      running = false;
      game.join();
      inspector.close();
    }
  }

  /** One call, answered: the bytes of the answer. */
  @Benchmark
  public byte[] query(final Served served) throws IOException, InterruptedException {
    return served.http.send(served.request, HttpResponse.BodyHandlers.ofByteArray()).body();
  }
}

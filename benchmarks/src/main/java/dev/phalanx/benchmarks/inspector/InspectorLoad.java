package dev.phalanx.benchmarks.inspector;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.phalanx.ecs.inspector.Inspector;
import dev.phalanx.examples.particles.Position_Storage;
import dev.phalanx.examples.particles.World;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
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
 * What a busy inspector costs the game thread: one {@link Inspector#serve()}, in microseconds, on
 * the example's world of {@value #ROOTS} roots (about a million entities), which does not change
 * while it is measured.
 *
 * <ul>
 *   <li>{@code watches}: {@value #WATCHES} long polls ({@code world.watch}) of {@value #EACH}
 *       entities each wait for a change that does not come; each {@code serve()} checks as many as
 *       its budget (the default millisecond) allows, round robin. Target: within that budget.
 *   <li>{@code page}: a client asks for a page of {@value #PAGE} entities with their component
 *       values ({@code world.query}, from the middle of the {@code Position} storage), queued
 *       before the measured {@code serve()}, which answers it. Target: under a millisecond.
 * </ul>
 *
 * The HTTP threads parse and answer outside the measured call; the client waits for its answer
 * after each invocation, so they are idle while the next one is measured.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xms4g", "-Xmx4g", "-XX:+AlwaysPreTouch"})
public class InspectorLoad {

  /** Roots of the example world measured. */
  public static final int ROOTS = 1_000_000;

  /** Watches kept waiting in the {@code watches} load. */
  public static final int WATCHES = 200;

  /** Entities each watch names. */
  public static final int EACH = 100;

  /** Entities of the {@code page} load's page. */
  public static final int PAGE = 50;

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The world, its inspector and a client. */
  @State(Scope.Benchmark)
  public static class Busy {
    @Param({"watches", "page"})
    public String load;

    World world;
    Inspector inspector;
    HttpClient http;
    final List<CompletableFuture<HttpResponse<String>>> watches = new ArrayList<>();
    HttpRequest pageRequest;
    CompletableFuture<HttpResponse<String>> page;

    @Setup(Level.Trial)
    public void setup() throws IOException {
      world = new World(ROOTS, 42, 1, 16);
      inspector =
          Inspector.builder(world.registry())
              .schedule(world.schedule())
              .port(0)
              .maxQueuedCalls(WATCHES + 1)
              .maxConnections(WATCHES + 8)
              .announce(line -> {})
              .start();
      http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
      for (int frame = 0; frame < 3; frame++) {
        world.step();
        inspector.serve();
      }
      if ("watches".equals(load)) {
        openWatches();
      } else {
        final ObjectNode params = JSON.createObjectNode();
        params.putArray("with").add("Position");
        params.put("cursor", world.storages().positions.size() / 2);
        params.put("limit", PAGE);
        params.put("values", true);
        pageRequest = request("world.query", params);
        final JsonNode answer = JSON.readTree(call(pageRequest).join().body());
        if (PAGE != answer.path("result").path("entities").size()) {
          throw new IllegalStateException("not a page of " + PAGE + ": " + answer);
        }
      }
    }

    /** Opens the watches: each learns its entities' digests, then waits with them. */
    private void openWatches() throws IOException {
      final Position_Storage positions = world.storages().positions;
      for (int w = 0; w < WATCHES; w++) {
        final ObjectNode params = JSON.createObjectNode();
        final ArrayNode entities = params.putArray("entities");
        for (int i = 0; i < EACH; i++) {
          entities.add(positions.at((w * EACH + i) * (positions.size() / (WATCHES * EACH))));
        }
        final JsonNode now =
            JSON.readTree(call(request("world.watch", params)).join().body())
                .path("result")
                .path("entities");
        if (EACH != now.size()) {
          throw new IllegalStateException("watch " + w + " saw " + now.size() + " entities");
        }
        final ObjectNode digests = params.putObject("digests");
        now.fields().forEachRemaining(e -> digests.put(e.getKey(), e.getValue().get("digest")));
        // Long enough for the whole trial: the watches must still wait when it ends.
        params.put("timeout_ms", 30_000);
        watches.add(http.sendAsync(request("world.watch", params), BODY));
      }
      serveUntil(() -> WATCHES == inspector.pendingCalls());
    }

    /** Sends a call and serves the world until it is answered. */
    private CompletableFuture<HttpResponse<String>> call(final HttpRequest request) {
      final CompletableFuture<HttpResponse<String>> answer = http.sendAsync(request, BODY);
      serveUntil(answer::isDone);
      return answer;
    }

    private void serveUntil(final java.util.function.BooleanSupplier done) {
      final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (!done.getAsBoolean()) {
        inspector.serve();
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("the inspector did not answer within 30 s");
        }
        Thread.onSpinWait();
      }
    }

    private HttpRequest request(final String method, final ObjectNode params) {
      final ObjectNode call = JSON.createObjectNode();
      call.put("jsonrpc", "2.0");
      call.put("id", 1);
      call.put("method", method);
      call.set("params", params);
      return HttpRequest.newBuilder(URI.create(inspector.rpcAddress().toString()))
          .header("Authorization", "Bearer " + inspector.token())
          .header("Content-Type", "application/json")
          .POST(HttpRequest.BodyPublishers.ofString(call.toString()))
          .build();
    }

    /** Queues the page call before the measured {@code serve()}. */
    @Setup(Level.Invocation)
    public void queuePage() {
      if (null != pageRequest) {
        page = http.sendAsync(pageRequest, BODY);
        while (0 == inspector.pendingCalls()) {
          Thread.onSpinWait();
        }
      }
    }

    /** Waits for the page's answer, written by an HTTP thread after the measured call. */
    @TearDown(Level.Invocation)
    public void awaitPage() {
      if (null != page) {
        if (!page.join().body().contains("\"result\"")) {
          throw new IllegalStateException("page refused: " + page.join().body());
        }
        page = null;
      }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
      if ("watches".equals(load) && WATCHES != inspector.pendingCalls()) {
        throw new IllegalStateException(
            "watches answered or expired during the trial: " + inspector.pendingCalls() + " left");
      }
      inspector.close();
      world.close();
    }
  }

  private static final HttpResponse.BodyHandler<String> BODY = HttpResponse.BodyHandlers.ofString();

  /** One {@code serve()} under the chosen load. */
  @Benchmark
  public int serve(final Busy busy) {
    int answered = busy.inspector.serve();
    // A page call counts as pending a moment before it reaches the queue: serve until it is
    // answered (an empty serve costs tens of nanoseconds).
    while (null != busy.page && 0 == answered) {
      answered = busy.inspector.serve();
    }
    return answered;
  }
}

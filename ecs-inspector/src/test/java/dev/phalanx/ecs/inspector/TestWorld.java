package dev.phalanx.ecs.inspector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.snapshot.SnapshotDump;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * A registry with an inspector and a game thread: the thread runs frames (an optional frame body,
 * then {@code serve()}) every {@code frameNanos}, and runs the test's own world accesses ({@link
 * #onGame}) between frames, so that the world is only ever touched by one thread. Calls go through
 * a real {@link HttpClient} to the server on loopback.
 */
final class TestWorld implements AutoCloseable {

  static final ObjectMapper JSON = new ObjectMapper();
  private static final java.lang.management.ThreadMXBean CPU =
      java.lang.management.ManagementFactory.getThreadMXBean();

  final Registry registry;
  final Inspector inspector;
  final HttpClient http =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  private final Thread game;
  private final ConcurrentLinkedQueue<FutureTask<?>> tasks = new ConcurrentLinkedQueue<>();
  private volatile boolean running = true;
  private volatile boolean serving = true;
  private volatile Runnable frame = () -> {};
  private final long frameNanos;
  final AtomicLong frames = new AtomicLong();
  final AtomicLong maxServeNanos = new AtomicLong();
  final AtomicLong maxServeCpuNanos = new AtomicLong();
  final AtomicLong maxCallsPerServe = new AtomicLong();

  TestWorld(
      final Registry registry, final Consumer<Inspector.Builder> settings, final long frameNanos)
      throws IOException {
    this.registry = registry;
    final Inspector.Builder builder = Inspector.builder(registry).announce(line -> {});
    settings.accept(builder);
    this.inspector = builder.start();
    this.frameNanos = frameNanos;
    this.game = new Thread(this::loop, "game");
    game.setDaemon(true);
    game.start();
  }

  TestWorld(final Registry registry) throws IOException {
    this(registry, builder -> {}, 200_000);
  }

  private void loop() {
    while (running) {
      for (FutureTask<?> task = tasks.poll(); null != task; task = tasks.poll()) {
        task.run();
      }
      frame.run();
      frames.incrementAndGet();
      if (serving) {
        final long start = System.nanoTime();
        final long cpu = CPU.getCurrentThreadCpuTime();
        final int calls = inspector.serve();
        maxServeCpuNanos.accumulateAndGet(CPU.getCurrentThreadCpuTime() - cpu, Math::max);
        maxServeNanos.accumulateAndGet(System.nanoTime() - start, Math::max);
        maxCallsPerServe.accumulateAndGet(calls, Math::max);
      }
      LockSupport.parkNanos(frameNanos);
    }
  }

  /** Runs {@code work} on the game thread between frames and returns its result. */
  <T> T onGame(final Callable<T> work) {
    final FutureTask<T> task = new FutureTask<>(work);
    tasks.add(task);
    try {
      return task.get();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** Sets what each frame does before it serves (on the game thread). */
  void frame(final Runnable body) {
    this.frame = body;
  }

  /** Stops or resumes serving (frames go on). */
  void serving(final boolean serve) {
    this.serving = serve;
  }

  /** The world's full dump, for "unchanged" checks. */
  String dump() {
    return onGame(
        () -> {
          final StringBuilder text = new StringBuilder();
          SnapshotDump.write(registry, text);
          return text.toString() + " alive=" + registry.alive();
        });
  }

  void assertConsistent() {
    assertEquals(java.util.List.of(), onGame(registry::verify));
  }

  HttpResponse<String> post(final String body, final String token) {
    final HttpRequest.Builder request =
        HttpRequest.newBuilder(inspector.rpcAddress())
            .timeout(Duration.ofSeconds(60))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    if (null != token) {
      request.header("Authorization", "Bearer " + token);
    }
    return send(request.build());
  }

  HttpResponse<String> send(final HttpRequest request) {
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Posts a call with the token; returns the whole answer. */
  JsonNode call(final String method, final String params) {
    final String body =
        "{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \""
            + method
            + "\""
            + (null == params ? "" : ", \"params\": " + params)
            + "}";
    return parse(post(body, inspector.token()).body());
  }

  /** Posts a call that must succeed; returns its result. */
  JsonNode result(final String method, final String params) {
    final JsonNode answer = call(method, params);
    assertFalse(answer.has("error"), () -> method + " " + params + " failed: " + answer);
    assertEquals("2.0", answer.get("jsonrpc").asText());
    assertEquals(7, answer.get("id").asInt());
    return answer.get("result");
  }

  /** Posts a call that must fail with {@code code}; returns the error's message. */
  String error(final String method, final String params, final int code) {
    final JsonNode answer = call(method, params);
    assertTrue(answer.has("error"), () -> method + " " + params + " did not fail: " + answer);
    assertEquals(code, answer.get("error").get("code").asInt(), answer::toString);
    return answer.get("error").get("message").asText();
  }

  static JsonNode parse(final String text) {
    try {
      return JSON.readTree(text);
    } catch (IOException e) {
      throw new AssertionError("not JSON: " + text, e);
    }
  }

  URI page() {
    return inspector.pageAddress();
  }

  @Override
  public void close() {
    running = false;
    try {
      game.join(5000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    inspector.close();
  }
}

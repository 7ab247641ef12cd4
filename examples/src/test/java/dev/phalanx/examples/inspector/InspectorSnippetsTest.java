package dev.phalanx.examples.inspector;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.inspector.Inspector;
import dev.phalanx.ecs.schedule.Schedule;
import dev.phalanx.ecs.schedule.ScheduleBuilder;
import dev.phalanx.ecs.schedule.SystemFailedException;
import dev.phalanx.examples.components.Label;
import dev.phalanx.examples.components.Label_Storage;
import dev.phalanx.examples.components.Label_Traits;
import dev.phalanx.examples.components.Position;
import dev.phalanx.examples.components.Position_Traits;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The code of docs/inspector.md: attaching the inspector to a registry and a schedule, and serving
 * it once a frame. A client reads the address and token that {@code start()} prints, as a user
 * would, and asks for the world's stats while the loop runs.
 */
class InspectorSnippetsTest {

  private final CompletableFuture<String> answer = new CompletableFuture<>();

  private boolean running() {
    return !answer.isDone();
  }

  @Test
  void attachAndServeOnceAFrame() throws Exception {
    final Registry registry = new Registry();
    registry.emplace(registry.create(), Position_Traits.TYPE, new Position(1, 2));
    final ScheduleBuilder systems = Schedule.builder(registry);
    systems.system("idle", context -> {});
    final Schedule schedule = systems.build();
    final BlockingQueue<String> printed = new LinkedBlockingQueue<>();
    final PrintStream out = System.out;
    System.setOut(
        new PrintStream(out, true) {
          @Override
          public void println(final String line) {
            printed.add(line);
            super.println(line);
          }
        });
    final Thread client = new Thread(() -> ask(printed));
    client.start();
    try {
      final Inspector inspector = Inspector.builder(registry).schedule(schedule).start();
      while (running()) {
        schedule.run();
        inspector.serve(); // queued calls run here, on the game thread
      }
      inspector.close();
    } finally {
      System.setOut(out);
    }
    assertTrue(answer.get().contains("\"alive\":1"), answer.get());
  }

  @Test
  void handSystemFailuresToTheInspector() throws Exception {
    final Registry registry = new Registry();
    final ScheduleBuilder systems = Schedule.builder(registry);
    systems.system(
        "fragile",
        context -> {
          throw new IllegalStateException("a rule of the game was broken");
        });
    final Schedule schedule = systems.build();
    try (Inspector inspector =
        Inspector.builder(registry).schedule(schedule).announce(line -> {}).start()) {
      for (int frame = 0; frame < 3; frame++) {
        try {
          schedule.run();
        } catch (SystemFailedException e) {
          inspector.systemFailed(e); // pauses the schedule and shows the failure; the loop goes on
        }
        inspector.serve();
      }
    }
    assertTrue(schedule.isPaused(), "the first failure paused the schedule");
  }

  @Test
  void nameEntitiesForThePage() throws Exception {
    final Registry registry = new Registry();
    final Label_Storage labels = registry.storage(Label_Traits.TYPE);
    final long player = registry.create();
    labels.emplace(player, new Label("player one", Label.Color.RED, null, null));
    registry.create(); // no label, no name
    final Inspector inspector =
        Inspector.builder(registry)
            .names(entity -> labels.contains(entity) ? labels.text(entity) : null)
            .start();
    try {
      final CompletableFuture<HttpResponse<String>> found =
          HttpClient.newHttpClient()
              .sendAsync(
                  HttpRequest.newBuilder(inspector.rpcAddress())
                      .header("Authorization", "Bearer " + inspector.token())
                      .POST(
                          HttpRequest.BodyPublishers.ofString(
                              "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"world.query\","
                                  + " \"params\": {\"name\": \"PLAYER\"}}"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      while (!found.isDone()) {
        inspector.serve();
        Thread.sleep(1);
      }
      assertTrue(
          found.get().body().contains("\"names\":{\"0:0\":\"player one\"}"), found.get().body());
    } finally {
      inspector.close();
    }
  }

  /** Reads the printed address, calls world.stats with the token from its fragment. */
  private void ask(final BlockingQueue<String> printed) {
    try {
      final String line = printed.poll(30, TimeUnit.SECONDS);
      final URI page = URI.create(line.substring(line.indexOf("http")));
      final String token = page.getFragment().substring("token=".length());
      final HttpResponse<String> response =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(page.resolve("/rpc"))
                      .header("Authorization", "Bearer " + token)
                      .POST(
                          HttpRequest.BodyPublishers.ofString(
                              "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"world.stats\"}"))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      answer.complete(response.body());
    } catch (Exception e) {
      answer.completeExceptionally(e);
    }
  }
}

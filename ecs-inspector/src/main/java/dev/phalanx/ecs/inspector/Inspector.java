package dev.phalanx.ecs.inspector;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.phalanx.ecs.Registry;
import dev.phalanx.ecs.SparseSet;
import dev.phalanx.ecs.Storage;
import dev.phalanx.ecs.View;
import dev.phalanx.ecs.schedule.Schedule;
import dev.phalanx.ecs.schedule.SystemFailedException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongFunction;
import java.util.regex.Pattern;

/**
 * A live inspector attached to a registry: a JSON-RPC 2.0 server over HTTP (methods modelled on the
 * Bevy Remote Protocol, see {@code docs/inspector.md}) and a web page, both served by a small
 * HTTP/1.1 front end on {@code java.nio} channels.
 *
 * <pre>{@code
 * Inspector inspector = Inspector.builder(registry).schedule(schedule).start(); // prints the URL
 * while (running) {
 *   schedule.run();
 *   inspector.serve(); // the calls that arrived run here, on the game thread
 * }
 * inspector.close();
 * }</pre>
 *
 * <h2>Threading</h2>
 *
 * <p>The HTTP threads never touch the world: they check the token, read and parse a bounded body,
 * check the request's shape and queue it. The queued calls run only inside {@link #serve()}, on the
 * thread that calls it, which must be the thread that owns the registry (the game thread), at a
 * point where no iteration runs: no call sees a half-applied frame. {@link #serve()} runs calls and
 * re-checks waiting watches, round robin, until its {@linkplain Builder#budget budget} is spent (at
 * least one of each) and leaves the rest for the next call; each call's work is bounded (at most
 * 1,000 entities listed or dumped, 524,288 membership tests by a query, 100 entities watched), so a
 * frame is delayed by at most the budget plus one watch check and one call: about a millisecond or
 * two on a million-entity world. A system failure the game loop catches is handed to {@link
 * #systemFailed}, which pauses the schedule and reports it. A call that the game thread does not
 * take within the {@linkplain Builder#callTimeout call timeout} is answered with an error and never
 * runs. {@link #serve()}, {@link #close()} and the accessors may be called from any one thread;
 * {@code serve()} from one thread at a time.
 *
 * <h2>Security</h2>
 *
 * <p>The server binds to the loopback address unless {@link Builder#bind} says otherwise. Every
 * request's {@code Host}, and {@code Origin} when present, must name the server's own address and
 * port (DNS rebinding), else HTTP 403. Heads and bodies are read against deadlines ({@link
 * Builder#headerTimeout}, {@link Builder#bodyTimeout}) and open connections are bounded ({@link
 * Builder#maxConnections}, HTTP 503 beyond). Every call must carry the token ({@code Authorization:
 * Bearer <token>}), generated at start (32 random bytes) unless configured, and announced once with
 * the page's address. Bodies are bounded ({@link Builder#maxRequestBytes}), so are results ({@link
 * Builder#maxResultBytes}) and the queue ({@link Builder#maxQueuedCalls}); every malformed,
 * oversized or unauthorised request gets a JSON-RPC error that says what is wrong, and never
 * reaches the world.
 *
 * <h2>Costs</h2>
 *
 * <p>Attached and idle, {@link #serve()} is a poll of an empty queue: a few nanoseconds a frame.
 * The server's threads (4 by default, and one that accepts) sleep until a request arrives; one more
 * wakes every 100 ms to notice clients that left while their watch waits.
 */
public final class Inspector implements AutoCloseable {

  private static final int PENDING = 0;
  private static final int WAITING = 1;
  private static final int RUNNING = 2;
  private static final int DONE = 3;
  private static final int EXPIRED = 4;

  private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9._~-]{16,256}");

  private static final Pattern IP_LITERAL =
      Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}|\\[[0-9a-fA-F:.]+\\]");

  private final Methods methods;
  private final History history;
  private final ObjectMapper json;
  private final Connections server;
  private final ExecutorService threads;
  private final String token;
  private final byte[] tokenBytes;
  private final int maxRequestBytes;
  private final int maxResultBytes;
  private final int maxQueuedCalls;
  private final long budgetNanos;
  private final long callTimeoutMillis;
  private final byte[] page;
  private final ConcurrentLinkedQueue<Call> queue = new ConcurrentLinkedQueue<>();
  private final AtomicInteger queued = new AtomicInteger();
  // Watches waiting for a change, in the order of their next check: the serving thread's only.
  private final ArrayDeque<Call> waiting = new ArrayDeque<>();
  private final AtomicLong served = new AtomicLong();
  // The watch checks the last serve() made: the serving thread's, for tests.
  private int lastChecks;
  // How long the last watch check took: the serving thread's, to keep checks within the budget.
  private long checkNanos;
  private volatile boolean closed;

  private Inspector(final Builder builder) throws IOException {
    this.json = mapper(builder.maxRequestBytes);
    this.history =
        new History(
            builder.registry,
            builder.schedule,
            builder.historyEvery.toNanos(),
            builder.historySamples,
            System.nanoTime());
    this.methods =
        new Methods(
            builder.registry,
            builder.schedule,
            builder.views,
            builder.names,
            builder.resources,
            history,
            json);
    this.token = null != builder.token ? builder.token : newToken();
    this.tokenBytes = token.getBytes(StandardCharsets.US_ASCII);
    this.maxRequestBytes = builder.maxRequestBytes;
    this.maxResultBytes = builder.maxResultBytes;
    this.maxQueuedCalls = builder.maxQueuedCalls;
    this.budgetNanos = builder.budget.toNanos();
    this.callTimeoutMillis = builder.callTimeout.toMillis();
    try (InputStream in = Inspector.class.getResourceAsStream("inspector.html")) {
      if (null == in) {
        throw new IOException("inspector.html is missing from the inspector's jar");
      }
      this.page = in.readAllBytes();
    }
    this.threads =
        Executors.newFixedThreadPool(
            builder.threads,
            task -> {
              final Thread thread = new Thread(task, "phalanx-inspector");
              thread.setDaemon(true);
              return thread;
            });
    this.server =
        new Connections(
            new InetSocketAddress(builder.address, builder.port),
            threads,
            this::handle,
            builder.maxConnections,
            builder.headerTimeout.toNanos(),
            builder.bodyTimeout.toNanos());
    builder.announce.accept("Phalanx inspector: " + pageAddress());
  }

  /**
   * {@return a builder of an inspector of {@code registry}}
   *
   * @param registry the world to inspect
   */
  public static Builder builder(final Registry registry) {
    return new Builder(registry);
  }

  /**
   * Starts an inspector of {@code registry} with the defaults: loopback, a free port, a new token.
   *
   * @param registry the world to inspect
   * @return the started inspector
   * @throws IOException if the server cannot bind
   */
  public static Inspector start(final Registry registry) throws IOException {
    return builder(registry).start();
  }

  /**
   * Runs the calls that arrived, on the calling thread (the game thread, at a safe point): first
   * watches waiting for a change, one check each, round-robin from where the last {@code serve()}
   * stopped, within the budget (half of it when calls are queued; at least one check; a check is
   * left for the next {@code serve()} if it would end past the budget, as long as the last one
   * took); then queued calls until the budget is spent (at least one if any is queued). Calls and
   * checks left over wait for the next {@code serve()}.
   *
   * @return the number of calls answered
   */
  public int serve() {
    final long start = System.nanoTime();
    history.sample(start);
    if (waiting.isEmpty() && queue.isEmpty()) {
      return 0;
    }
    int answered = recheck(start, queue.isEmpty() ? budgetNanos : budgetNanos / 2);
    boolean first = true;
    while (first || System.nanoTime() - start < budgetNanos) {
      final Call call = queue.poll();
      if (null == call) {
        break;
      }
      if (!call.state.compareAndSet(PENDING, RUNNING)) {
        queued.decrementAndGet();
        continue; // expired before the game thread took it: it never runs
      }
      first = false;
      if (run(call, call.deadline > 0 && System.nanoTime() < call.deadline)) {
        answered++;
      } else {
        waiting.add(call); // still counted against maxQueuedCalls
      }
    }
    served.addAndGet(answered);
    return answered;
  }

  /**
   * Checks waiting watches, each at most once, from the head of the round, while {@code budget}
   * lasts (at least one); a watch still waiting goes to the round's end. Drops the watches that
   * expired or whose client left. Returns the number answered.
   */
  private int recheck(final long start, final long budget) {
    int answered = 0;
    int checks = 0;
    boolean first = true;
    for (int left = waiting.size(); left > 0; left--) {
      final Call call = waiting.peek();
      if (!call.abandoned && WAITING == call.state.get()) {
        // A check that would end past the budget (if it costs what the last one did) waits.
        if (!first && System.nanoTime() - start + checkNanos > budget) {
          break;
        }
        first = false;
      }
      waiting.poll();
      if (call.abandoned || !call.state.compareAndSet(WAITING, RUNNING)) {
        queued.decrementAndGet(); // expired meanwhile, or its client left: dropped unanswered
        continue;
      }
      checks++;
      final long checkStart = System.nanoTime();
      final boolean ended = run(call, checkStart < call.deadline);
      checkNanos = System.nanoTime() - checkStart;
      if (ended) {
        answered++;
      } else {
        waiting.add(call);
      }
    }
    lastChecks = checks;
    return answered;
  }

  /**
   * Hands the inspector a failure of the attached schedule, caught by the game loop around {@code
   * schedule.run()} (the world holds every invariant after one, see {@link SystemFailedException}).
   * The inspector pauses the schedule, so that the systems that are not always-run stop failing
   * frame after frame, and reports the failure: {@code world.stats} and {@code schedule.plan} carry
   * it as {@code failure} (the system, its stage, the frame, the message) until {@code
   * schedule.resume}, and the page shows it. Call it on the game thread, between frames, as {@link
   * #serve()}.
   *
   * <pre>{@code
   * try {
   *   schedule.run();
   * } catch (SystemFailedException e) {
   *   inspector.systemFailed(e); // paused and shown; fix the world from the page, then resume
   * }
   * inspector.serve();
   * }</pre>
   *
   * @param failure what the schedule threw
   */
  public void systemFailed(final SystemFailedException failure) {
    methods.systemFailed(Objects.requireNonNull(failure, "failure"));
  }

  /**
   * Runs one call; returns false if it is a watch that waits (its state back to WAITING). A call
   * that ends gives back its place in the queue before its client sees the answer, so a client that
   * calls again at once never finds its own finished call still counted.
   */
  private boolean run(final Call call, final boolean mayWait) {
    JsonNode result;
    try {
      result = methods.run(call.method, call.params, mayWait);
    } catch (RpcError e) {
      finish(call, error(call.id, e));
      return true;
    } catch (RuntimeException e) {
      finish(call, error(call.id, new RpcError(RpcError.INTERNAL_ERROR, "the call failed: " + e)));
      return true;
    }
    if (null == result) {
      call.state.set(WAITING);
      return false;
    }
    final ObjectNode answer = JsonNodeFactory.instance.objectNode();
    answer.put("jsonrpc", "2.0");
    answer.set("result", result);
    answer.set("id", call.id);
    finish(call, answer);
    return true;
  }

  /** Marks a running call done, gives back its place in the queue, then answers its client. */
  private void finish(final Call call, final JsonNode answer) {
    call.state.set(DONE);
    queued.decrementAndGet();
    call.answer.complete(answer);
  }

  /** {@return the token every call must carry} */
  public String token() {
    return token;
  }

  /** {@return the port the server listens on} */
  public int port() {
    return server.address().getPort();
  }

  /** {@return the address of the JSON-RPC endpoint, {@code http://host:port/rpc}} */
  public URI rpcAddress() {
    return URI.create(base() + "/rpc");
  }

  /** {@return the address of the web page, with the token in its fragment (never sent)} */
  public URI pageAddress() {
    return URI.create(base() + "/#token=" + token);
  }

  private String base() {
    final InetAddress address = server.address().getAddress();
    final String host =
        address.isAnyLocalAddress()
            ? InetAddress.getLoopbackAddress().getHostAddress()
            : address.getHostAddress();
    return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port();
  }

  /** {@return the watches waiting for a change} Read on the serving thread (tests). */
  int waitingWatches() {
    return waiting.size();
  }

  /** {@return the watch checks the last {@link #serve()} made} Read on the serving thread. */
  int lastChecks() {
    return lastChecks;
  }

  /**
   * {@return the calls received and not answered yet: queued for the next {@link #serve()}, or
   * watches waiting for a change} Any thread may read it; a game loop may serve more often while it
   * is high.
   */
  public int pendingCalls() {
    return queued.get();
  }

  /** {@return the number of calls answered by {@link #serve()} so far} */
  public long served() {
    return served.get();
  }

  /**
   * Stops the server; calls not yet answered get an error. The world is not touched. Idempotent.
   */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    server.close();
    for (Call call = queue.poll(); null != call; call = queue.poll()) {
      expire(call, "the inspector was closed");
    }
    threads.shutdown();
  }

  // ---------------------------------------------------------------------------------------------
  // HTTP: these run on the server's threads and never touch the world.
  // ---------------------------------------------------------------------------------------------

  /** Routes a request whose head was read: {@code /rpc} to the protocol, the rest to the page. */
  private void handle(final Exchange exchange) {
    final String refusal = foreign(exchange);
    if (null != refusal) {
      respond(exchange, 403, error(null, new RpcError(RpcError.FORBIDDEN, refusal, 403)));
    } else if (exchange.path().startsWith("/rpc")) {
      rpc(exchange);
    } else {
      page(exchange);
    }
  }

  /**
   * Checks the {@code Host} header, and {@code Origin} when present, against the address the server
   * listens on (DNS rebinding: a page of another site whose name now resolves to the loopback
   * address sends its own name). Accepted: {@code localhost} when bound to a loopback address, the
   * bound address itself, any address literal when bound to the wildcard address; always with the
   * server's port. Returns what is wrong, or null.
   */
  private String foreign(final Exchange exchange) {
    final String host = exchange.header("Host");
    if (null == host || !allowedHost(host)) {
      return "the Host header "
          + (null == host ? "is missing" : "\"" + Codec.clip(host) + "\" is not this server")
          + ": call the inspector at "
          + base();
    }
    final String origin = exchange.header("Origin");
    if (null != origin
        && !(origin.startsWith("http://") && allowedHost(origin.substring("http://".length())))) {
      return "calls from the origin \"" + Codec.clip(origin) + "\" are refused: only " + base();
    }
    return null;
  }

  private boolean allowedHost(final String hostAndPort) {
    final int colon = hostAndPort.lastIndexOf(':');
    if (colon < 0 || hostAndPort.indexOf(']', colon) >= 0) {
      return false; // no port
    }
    if (!hostAndPort.substring(colon + 1).equals(Integer.toString(port()))) {
      return false;
    }
    final String host = hostAndPort.substring(0, colon).toLowerCase(Locale.ROOT);
    final InetAddress bound = server.address().getAddress();
    if (bound.isAnyLocalAddress()) {
      return "localhost".equals(host) || IP_LITERAL.matcher(host).matches();
    }
    final String literal = bound.getHostAddress();
    return host.equals(literal.contains(":") ? "[" + literal + "]" : literal)
        || (bound.isLoopbackAddress() && "localhost".equals(host))
        || (IP_LITERAL.matcher(host).matches() && sameAddress(host, bound));
  }

  /** Whether an address literal (IPv6 in brackets) names {@code bound}, however it is spelled. */
  private static boolean sameAddress(final String literal, final InetAddress bound) {
    try {
      final String bare =
          literal.startsWith("[") ? literal.substring(1, literal.length() - 1) : literal;
      return InetAddress.getByName(bare).equals(bound); // a literal: no name is looked up
    } catch (IOException e) {
      return false;
    }
  }

  private void page(final Exchange exchange) {
    final String path = exchange.path();
    if (!"GET".equals(exchange.method()) || !("/".equals(path) || "/index.html".equals(path))) {
      exchange.respondText(404, "not found");
      return;
    }
    exchange.respond(
        200,
        "text/html; charset=utf-8",
        "Cache-Control: no-store\r\n"
            + "Content-Security-Policy: default-src 'none'; script-src 'unsafe-inline';"
            + " style-src 'unsafe-inline'; connect-src 'self'; img-src data:; base-uri 'none';"
            + " frame-ancestors 'none'\r\n",
        page);
  }

  private void rpc(final Exchange exchange) {
    final Call call;
    try {
      call = accept(exchange);
    } catch (RpcError e) {
      respond(exchange, e.httpStatus(), error(null, e));
      return;
    } catch (RuntimeException e) {
      respond(exchange, 500, error(null, new RpcError(RpcError.INTERNAL_ERROR, e.toString())));
      return;
    }
    // Answered on a server thread, never on the game thread that completes the call.
    final CompletableFuture<Void> unused =
        call.answer.thenAcceptAsync(answer -> respond(exchange, 200, answer), threads);
    if (call.deadline > 0) {
      // A long poll: dropped as soon as its client leaves, not at its timeout.
      exchange.onClientGone(
          () -> {
            call.abandoned = true;
            expire(call, "the client closed its connection");
          });
    }
    final long timeout =
        callTimeoutMillis + Math.max(0, call.deadline - System.nanoTime()) / 1000000;
    CompletableFuture.delayedExecutor(timeout, TimeUnit.MILLISECONDS)
        .execute(
            () ->
                expire(
                    call,
                    "the world did not run the call within "
                        + callTimeoutMillis
                        + " ms: is inspector.serve() called every frame?"));
    if (closed) {
      expire(call, "the inspector was closed");
    }
  }

  private void expire(final Call call, final String why) {
    if (call.state.compareAndSet(PENDING, EXPIRED) || call.state.compareAndSet(WAITING, EXPIRED)) {
      call.answer.complete(error(call.id, new RpcError(RpcError.TIMEOUT, why)));
    }
  }

  /** Checks a request and queues its call; throws what is wrong with it. */
  private Call accept(final Exchange exchange) {
    if (!"POST".equals(exchange.method())) {
      throw new RpcError(
          RpcError.INVALID_REQUEST,
          "send calls with POST, not " + Codec.clip(exchange.method()),
          405);
    }
    final String authorization = exchange.header("Authorization");
    if (null == authorization || !authorization.startsWith("Bearer ")) {
      throw new RpcError(
          RpcError.UNAUTHORIZED,
          "missing token: send the header \"Authorization: Bearer <token>\" with the token the"
              + " inspector printed when it started",
          401);
    }
    final byte[] given = authorization.substring(7).trim().getBytes(StandardCharsets.US_ASCII);
    if (!MessageDigest.isEqual(given, tokenBytes)) {
      throw new RpcError(RpcError.UNAUTHORIZED, "wrong token", 401);
    }
    final byte[] body = body(exchange);
    final JsonNode request;
    try {
      request = json.readTree(body);
    } catch (JsonProcessingException e) {
      throw new RpcError(RpcError.PARSE_ERROR, "the body is not JSON: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new RpcError(RpcError.PARSE_ERROR, "the body cannot be read: " + e.getMessage());
    }
    final Call call = call(request);
    if (queued.incrementAndGet() > maxQueuedCalls) {
      queued.decrementAndGet();
      throw new RpcError(
          RpcError.BUSY,
          maxQueuedCalls + " calls are already waiting for the game thread; try again later",
          503);
    }
    queue.add(call);
    return call;
  }

  private byte[] body(final Exchange exchange) {
    final byte[] body;
    try {
      body = exchange.body(maxRequestBytes);
    } catch (Exchange.BadRequest e) {
      throw 413 == e.status
          ? tooLarge(e.getMessage())
          : new RpcError(RpcError.INVALID_REQUEST, e.getMessage(), e.status);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (0 == body.length) {
      throw new RpcError(RpcError.PARSE_ERROR, "the body is empty: send one JSON-RPC request");
    }
    return body;
  }

  private RpcError tooLarge(final String size) {
    return new RpcError(
        RpcError.REQUEST_TOO_LARGE,
        "the body is " + size + "; the limit is " + maxRequestBytes + " bytes",
        413);
  }

  /** Checks the JSON-RPC envelope and makes the call. */
  private Call call(final JsonNode request) {
    if (request.isArray()) {
      throw new RpcError(
          RpcError.INVALID_REQUEST, "batches are not supported: send one call per request");
    }
    if (!request.isObject()) {
      throw new RpcError(
          RpcError.INVALID_REQUEST,
          "a request must be a JSON-RPC 2.0 object, got " + Codec.kind(request));
    }
    for (final Iterator<String> it = request.fieldNames(); it.hasNext(); ) {
      final String name = it.next();
      if (!List.of("jsonrpc", "method", "params", "id").contains(name)) {
        throw new RpcError(
            RpcError.INVALID_REQUEST,
            "a request has no member \"" + Codec.clip(name) + "\" (jsonrpc, method, params, id)");
      }
    }
    final JsonNode id = request.has("id") ? request.get("id") : null;
    if (null != id && !id.isTextual() && !id.isIntegralNumber() && !id.isNull()) {
      throw new RpcError(RpcError.INVALID_REQUEST, "id must be a string or a whole number");
    }
    if (!"2.0".equals(request.path("jsonrpc").textValue())) {
      throw new RpcError(RpcError.INVALID_REQUEST, "jsonrpc must be \"2.0\"", 200).withId(id);
    }
    final JsonNode method = request.get("method");
    if (null == method || !method.isTextual()) {
      throw new RpcError(RpcError.INVALID_REQUEST, "method must be a string").withId(id);
    }
    if (!Methods.exists(method.textValue())) {
      throw new RpcError(
              RpcError.METHOD_NOT_FOUND,
              "no method \""
                  + Codec.clip(method.textValue())
                  + "\" (rpc.discover lists the methods)")
          .withId(id);
    }
    final JsonNode params = request.get("params");
    if (null != params && !params.isNull() && !params.isObject()) {
      throw new RpcError(
              RpcError.INVALID_PARAMS,
              "params must be an object of parameters by name, got " + Codec.kind(params))
          .withId(id);
    }
    final ObjectNode byName =
        null == params || params.isNull()
            ? JsonNodeFactory.instance.objectNode()
            : (ObjectNode) params;
    long deadline = 0;
    if ("world.watch".equals(method.textValue())) {
      final int wait;
      try {
        wait = Methods.intParam(byName, "timeout_ms", 0, 0, (int) Methods.MAX_WATCH_MILLIS);
      } catch (RpcError e) {
        throw e.withId(id);
      }
      deadline = 0 == wait ? 0 : System.nanoTime() + wait * 1_000_000L;
    }
    return new Call(
        method.textValue(),
        byName,
        null == id ? JsonNodeFactory.instance.nullNode() : id,
        deadline);
  }

  private void respond(final Exchange exchange, final int status, final JsonNode answer) {
    byte[] bytes;
    try {
      bytes = json.writeValueAsBytes(answer);
      if (bytes.length > maxResultBytes) {
        bytes =
            json.writeValueAsBytes(
                error(
                    answer.get("id"),
                    new RpcError(
                        RpcError.RESULT_TOO_LARGE,
                        "the result is "
                            + bytes.length
                            + " bytes, over the limit of "
                            + maxResultBytes
                            + " (the call ran; ask for fewer entities or fields)")));
      }
    } catch (JsonProcessingException e) {
      bytes =
          "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32603,\"message\":\"the answer cannot be written\"},\"id\":null}"
              .getBytes(StandardCharsets.UTF_8);
    }
    exchange.respond(
        status,
        "application/json",
        "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n",
        bytes);
  }

  private static ObjectNode error(final JsonNode id, final RpcError error) {
    final ObjectNode answer = JsonNodeFactory.instance.objectNode();
    answer.put("jsonrpc", "2.0");
    answer.putObject("error").put("code", error.code()).put("message", error.getMessage());
    final JsonNode theId = null != error.id() ? error.id() : id;
    answer.set("id", null == theId ? JsonNodeFactory.instance.nullNode() : theId);
    return answer;
  }

  private static ObjectMapper mapper(final int maxRequestBytes) {
    final JsonFactory factory =
        JsonFactory.builder()
            .streamReadConstraints(
                StreamReadConstraints.builder()
                    .maxNestingDepth(32)
                    .maxNumberLength(64)
                    .maxStringLength(maxRequestBytes)
                    .build())
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .build();
    final ObjectMapper mapper = new ObjectMapper(factory);
    mapper.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
    mapper.enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    return mapper;
  }

  private static String newToken() {
    final byte[] bytes = new byte[32];
    new SecureRandom().nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /** A queued call: claimed by the game thread or by its timeout, never both. */
  private static final class Call {
    final String method;
    final ObjectNode params;
    final JsonNode id;
    final long deadline;
    final AtomicInteger state = new AtomicInteger(PENDING);
    // Set when the client closed its connection: a waiting watch is then dropped.
    volatile boolean abandoned;
    final CompletableFuture<JsonNode> answer = new CompletableFuture<>();

    Call(final String method, final ObjectNode params, final JsonNode id, final long deadline) {
      this.method = method;
      this.params = params;
      this.id = id;
      this.deadline = deadline;
    }
  }

  /**
   * Configures an inspector. Every setting has a safe default: loopback, a free port, a new token,
   * 64 KiB bodies, 4 MiB results, 256 queued calls, 1 ms of calls per {@code serve()}, 10 s for the
   * game thread to take a call. Not thread-safe; {@link #start()} may be called more than once.
   */
  public static final class Builder {
    private final Registry registry;
    private Schedule schedule;
    private InetAddress address = InetAddress.getLoopbackAddress();
    private int port;
    private String token;
    private int maxRequestBytes = 64 * 1024;
    private int maxResultBytes = 4 * 1024 * 1024;
    private int maxQueuedCalls = 256;
    private int threads = 4;
    private int maxConnections = 512;
    private Duration headerTimeout = Duration.ofSeconds(2);
    private Duration bodyTimeout = Duration.ofSeconds(5);
    private Duration budget = Duration.ofMillis(1);
    private Duration callTimeout = Duration.ofSeconds(10);
    private Duration historyEvery = Duration.ofSeconds(1);
    private int historySamples = 300;
    private Consumer<String> announce = System.out::println;
    private final Map<String, View> views = new LinkedHashMap<>();
    private LongFunction<String> names;
    private final Map<Class<?>, Boolean> resources = new LinkedHashMap<>();

    private Builder(final Registry registry) {
      this.registry = Objects.requireNonNull(registry, "registry");
    }

    /**
     * Attaches a schedule: {@code world.system_timings} reports its system timings, {@code
     * schedule.plan} its stages, waves and systems, and the other {@code schedule.*} methods pause
     * it, step it and disable its systems (between frames: in {@link Inspector#serve()}, which the
     * game loop calls outside {@code schedule.run()}).
     *
     * @param schedule the schedule that runs the world's systems
     * @return this builder
     */
    public Builder schedule(final Schedule schedule) {
      if (schedule.registry() != registry) {
        throw new IllegalArgumentException("the schedule runs another registry");
      }
      this.schedule = schedule;
      return this;
    }

    /**
     * Names a view for {@code world.list_views}, which reports its sets and how many entities it
     * matches. The registry keeps no list of views (a view is a light object made on the spot), so
     * the ones worth watching are named here; a generated view query hands its view through {@code
     * query.view()}.
     *
     * @param name the name shown by the protocol and the page, unique among this builder's views
     * @param view a view over storages of this builder's registry
     * @return this builder
     * @throws IllegalArgumentException if the name is empty or taken, or a storage of the view
     *     belongs to another registry
     */
    public Builder view(final String name, final View view) {
      Objects.requireNonNull(name, "name");
      Objects.requireNonNull(view, "view");
      if (name.isEmpty()) {
        throw new IllegalArgumentException("a view's name must not be empty");
      }
      if (views.containsKey(name)) {
        throw new IllegalArgumentException("a view is already named " + name);
      }
      for (int n = 0; n < view.includeCount() + view.excludeCount(); n++) {
        final SparseSet set =
            n < view.includeCount() ? view.include(n) : view.exclude(n - view.includeCount());
        if (set instanceof Storage<?> storage && storage.registry() != registry) {
          throw new IllegalArgumentException(
              "view " + name + ": " + storage.describe() + " belongs to another registry");
        }
      }
      views.put(name, view);
      return this;
    }

    /**
     * Gives entities names: the protocol and the page show each entity with the name {@code names}
     * returns for it (wherever it comes from: a component of the game's, a map), and {@code
     * world.query} finds entities by name. The registry has no names of its own.
     *
     * <pre>{@code
     * Inspector.builder(registry)
     *     .names(entity -> names.has(entity) ? names.get(entity).text() : null)
     *     .start();
     * }</pre>
     *
     * <p>The function runs on the game thread, inside {@link Inspector#serve()}, for each entity a
     * call lists (at most 1,000) and, for a search by name, for each entity it scans (at most 4,064
     * a call): it must be cheap and only read the world. It returns null or an empty string for an
     * entity without a name; a name longer than 200 characters is cut; one that throws gives no
     * name (the call goes on).
     *
     * @param names the name of an entity, or null
     * @return this builder
     */
    public Builder names(final LongFunction<String> names) {
      this.names = Objects.requireNonNull(names, "names");
      return this;
    }

    /**
     * Shows a context value ({@code registry.context()}, EnTT's context variables) read-only:
     * {@code world.list_resources} lists its fields and values (a record's components, a class's
     * properties with a getter and a setter), or that the context holds none. The context keeps no
     * list of its types, so the ones worth showing are named here.
     *
     * @param type the value's class, its key in the context
     * @return this builder
     */
    public Builder resource(final Class<?> type) {
      return resource(type, false);
    }

    /**
     * Shows a context value, and with {@code writable} lets {@code world.set_resource} replace it:
     * a new value is built from the fields given and the current value's others (a record through
     * its canonical constructor, which may refuse; a class through its no-argument constructor and
     * setters), then assigned with {@code insertOrAssign}. Systems that fetch the value each run
     * see the new one; one that kept the old instance does not. A type of the runtime's own
     * packages stays read-only.
     *
     * @param type the value's class, its key in the context
     * @param writable whether the inspector may replace it
     * @return this builder
     * @throws IllegalArgumentException if the type is already shown
     */
    public Builder resource(final Class<?> type, final boolean writable) {
      Objects.requireNonNull(type, "type");
      if (resources.containsKey(type)) {
        throw new IllegalArgumentException("resource " + type.getName() + " is already shown");
      }
      resources.put(type, writable);
      return this;
    }

    /**
     * Binds to {@code address} instead of the loopback address: the world becomes reachable by
     * whoever reaches that address and holds the token.
     *
     * @param address the address to listen on
     * @return this builder
     */
    public Builder bind(final InetAddress address) {
      this.address = Objects.requireNonNull(address, "address");
      return this;
    }

    /**
     * Listens on {@code port} (0, the default: any free port).
     *
     * @param port the port, in [0, 65535]
     * @return this builder
     */
    public Builder port(final int port) {
      if (port < 0 || port > 65535) {
        throw new IllegalArgumentException("port " + port + " is outside [0, 65535]");
      }
      this.port = port;
      return this;
    }

    /**
     * Uses {@code token} instead of a random one.
     *
     * @param token 16 to 256 characters among letters, digits and {@code . _ ~ -}
     * @return this builder
     */
    public Builder token(final String token) {
      if (null == token || !TOKEN.matcher(token).matches()) {
        throw new IllegalArgumentException(
            "a token is 16 to 256 characters among letters, digits and . _ ~ -");
      }
      this.token = token;
      return this;
    }

    /**
     * Bounds request bodies.
     *
     * @param bytes the largest body accepted, at least 1,024
     * @return this builder
     */
    public Builder maxRequestBytes(final int bytes) {
      this.maxRequestBytes = atLeast("maxRequestBytes", bytes, 1024);
      return this;
    }

    /**
     * Bounds results.
     *
     * @param bytes the largest answer sent, at least 4,096
     * @return this builder
     */
    public Builder maxResultBytes(final int bytes) {
      this.maxResultBytes = atLeast("maxResultBytes", bytes, 4096);
      return this;
    }

    /**
     * Bounds the calls waiting for the game thread; more are refused as busy.
     *
     * @param calls the most queued calls, at least 1
     * @return this builder
     */
    public Builder maxQueuedCalls(final int calls) {
      this.maxQueuedCalls = atLeast("maxQueuedCalls", calls, 1);
      return this;
    }

    /**
     * Bounds the open connections (each carries one call; a waiting watch keeps its own); a
     * connection over the bound is answered at once with HTTP 503 and error -32004, and closed.
     *
     * @param connections the most open connections, at least 1
     * @return this builder
     */
    public Builder maxConnections(final int connections) {
      this.maxConnections = atLeast("maxConnections", connections, 1);
      return this;
    }

    /**
     * Bounds the time a client has, from its connection's acceptance, to send the request line and
     * headers; a late one is answered with HTTP 408 and closed, so that slow clients hold an HTTP
     * thread at most this long.
     *
     * @param timeout the time, at least a millisecond
     * @return this builder
     */
    public Builder headerTimeout(final Duration timeout) {
      this.headerTimeout = atLeast("headerTimeout", timeout);
      return this;
    }

    /**
     * Bounds the time a client has to send the body once its headers are read; a late one is
     * answered with HTTP 408 and error -32600, and closed.
     *
     * @param timeout the time, at least a millisecond
     * @return this builder
     */
    public Builder bodyTimeout(final Duration timeout) {
      this.bodyTimeout = atLeast("bodyTimeout", timeout);
      return this;
    }

    /**
     * Sets the number of HTTP threads (they parse and answer; the world is not theirs).
     *
     * @param count the thread count, at least 1
     * @return this builder
     */
    public Builder threads(final int count) {
      this.threads = atLeast("threads", count, 1);
      return this;
    }

    /**
     * Bounds the time one {@link Inspector#serve()} spends starting calls; it runs at least one
     * queued call, then starts no other once the budget is spent.
     *
     * @param budget the time per serve, not negative
     * @return this builder
     */
    public Builder budget(final Duration budget) {
      if (budget.isNegative()) {
        throw new IllegalArgumentException("the budget " + budget + " is negative");
      }
      this.budget = budget;
      return this;
    }

    /**
     * Sets how long a call waits for the game thread before it is answered with an error (and then
     * never runs).
     *
     * @param timeout the time, at least a millisecond
     * @return this builder
     */
    public Builder callTimeout(final Duration timeout) {
      if (timeout.toMillis() < 1) {
        throw new IllegalArgumentException("the call timeout " + timeout + " is under 1 ms");
      }
      this.callTimeout = timeout;
      return this;
    }

    /**
     * Sets what {@code world.history} keeps for the page's charts: a sample (the live entity count
     * and, with a schedule, the mean frame and system times) taken in {@link Inspector#serve()} at
     * most once per {@code every}, the last {@code samples} of them. By default one a second for
     * five minutes; 0 samples keeps none. Between samples, {@code serve()} reads the clock only.
     *
     * @param every the least time between samples, at least a millisecond
     * @param samples how many samples are kept, not negative
     * @return this builder
     */
    public Builder history(final Duration every, final int samples) {
      this.historyEvery = atLeast("history interval", every);
      this.historySamples = atLeast("history samples", samples, 0);
      return this;
    }

    /**
     * Sets where the page's address (with the token) is announced once at start; {@code System.out}
     * by default.
     *
     * @param announce receives one line
     * @return this builder
     */
    public Builder announce(final Consumer<String> announce) {
      this.announce = Objects.requireNonNull(announce, "announce");
      return this;
    }

    /**
     * Starts the server and announces the page's address.
     *
     * @return the running inspector; call {@link Inspector#serve()} every frame
     * @throws IOException if the server cannot bind
     */
    public Inspector start() throws IOException {
      return new Inspector(this);
    }

    private static Duration atLeast(final String name, final Duration value) {
      if (value.toMillis() < 1) {
        throw new IllegalArgumentException("the " + name + " " + value + " is under 1 ms");
      }
      return value;
    }

    private static int atLeast(final String name, final int value, final int min) {
      if (value < min) {
        throw new IllegalArgumentException(name + " " + value + " is under " + min);
      }
      return value;
    }
  }
}

package dev.phalanx.ecs.inspector;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The inspector's HTTP/1.1 front end: one request per connection ({@code Connection: close}), read
 * by a fixed pool of threads with a deadline on the head (counted from the connection's acceptance,
 * so a connection that waited for a thread does not get longer) and one on the body, and a bound on
 * open connections: the one over it is answered {@code 503} at once by the thread that accepts, and
 * closed.
 *
 * <p>A connection holds a thread only while its request is read or its answer written: a call
 * waiting for the game thread holds its socket and no thread. A connection waiting for an answer
 * can be {@linkplain Exchange#onClientGone watched}: a probe every {@link #PROBE_MILLIS} ms reads
 * it without blocking and reports the client's end of stream.
 */
final class Connections implements AutoCloseable {

  /** How often connections that wait for an answer are probed for their client's departure. */
  static final long PROBE_MILLIS = 100;

  private final ServerSocketChannel server;
  private final ExecutorService workers;
  private final Consumer<Exchange> handler;
  private final int maxConnections;
  private final long headNanos;
  private final long bodyNanos;
  private final AtomicInteger open = new AtomicInteger();
  // Every open exchange, to close them all at close(); the watched ones are probed.
  private final Set<Exchange> live = ConcurrentHashMap.newKeySet();
  private final Thread acceptor;
  private final Thread prober;
  private volatile boolean closed;

  Connections(
      final InetSocketAddress address,
      final ExecutorService workers,
      final Consumer<Exchange> handler,
      final int maxConnections,
      final long headNanos,
      final long bodyNanos)
      throws IOException {
    this.workers = workers;
    this.handler = handler;
    this.maxConnections = maxConnections;
    this.headNanos = headNanos;
    this.bodyNanos = bodyNanos;
    this.server = ServerSocketChannel.open();
    server.bind(address, Math.max(128, maxConnections));
    this.acceptor = daemon(this::accept, "phalanx-inspector-accept");
    this.prober = daemon(this::probe, "phalanx-inspector-probe");
    acceptor.start();
    prober.start();
  }

  private static Thread daemon(final Runnable body, final String name) {
    final Thread thread = new Thread(body, name);
    thread.setDaemon(true);
    return thread;
  }

  /** {@return the address the server listens on} */
  InetSocketAddress address() {
    try {
      return (InetSocketAddress) server.getLocalAddress();
    } catch (IOException e) {
      throw new IllegalStateException("the inspector's server is closed", e);
    }
  }

  /** {@return the number of connections open now} */
  int open() {
    return open.get();
  }

  private void accept() {
    while (!closed) {
      final SocketChannel channel;
      try {
        channel = server.accept();
      } catch (ClosedChannelException e) {
        return;
      } catch (IOException e) {
        continue; // the client went away before it was accepted
      }
      final long deadline = System.nanoTime() + headNanos;
      if (open.incrementAndGet() > maxConnections) {
        open.decrementAndGet();
        refuse(channel);
        continue;
      }
      final Exchange exchange = new Exchange(channel, this);
      live.add(exchange);
      try {
        workers.execute(() -> read(exchange, deadline));
      } catch (RejectedExecutionException e) {
        exchange.close(); // closing
      }
    }
  }

  /** Answers a connection over the bound with 503, from the accepting thread, and closes it. */
  private void refuse(final SocketChannel channel) {
    try (channel) {
      final byte[] body =
          ("{\"jsonrpc\":\"2.0\",\"error\":{\"code\":"
                  + RpcError.BUSY
                  + ",\"message\":\""
                  + maxConnections
                  + " connections are open, the most the inspector accepts; try again later\"},"
                  + "\"id\":null}")
              .getBytes(StandardCharsets.UTF_8);
      channel.write(ByteBuffer.wrap(Exchange.head(503, "application/json", body.length, "")));
      channel.write(ByteBuffer.wrap(body));
      Exchange.drainNow(channel);
    } catch (IOException e) {
      // The client went away: nothing to answer.
    }
  }

  private void read(final Exchange exchange, final long deadline) {
    try {
      exchange.readHead(deadline);
    } catch (Exchange.BadRequest e) {
      exchange.respondText(e.status, e.getMessage());
      return;
    } catch (IOException e) {
      exchange.close();
      return;
    }
    handler.accept(exchange);
  }

  long bodyNanos() {
    return bodyNanos;
  }

  void closed(final Exchange exchange) {
    if (live.remove(exchange)) {
      open.decrementAndGet();
    }
  }

  private void probe() {
    while (!closed) {
      try {
        Thread.sleep(PROBE_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
      for (final Exchange exchange : live) {
        exchange.probe();
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    try {
      server.close();
    } catch (IOException e) {
      // Closing anyway.
    }
    prober.interrupt();
    for (final Exchange exchange : live) {
      exchange.close();
    }
  }

  /** Sets {@code TCP_NODELAY} on a channel: small answers must not wait for an acknowledgement. */
  static void noDelay(final SocketChannel channel) throws IOException {
    channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
  }
}

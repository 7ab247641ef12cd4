package dev.phalanx.ecs.inspector;

import java.io.IOException;
import java.io.InputStream;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One HTTP/1.1 request on its own connection and its one answer: the head is read within the
 * connection's deadline, the body (by {@code Content-Length} only) within the body timeout, the
 * answer is written once and the connection closed. The head is bounded ({@link #MAX_HEAD} bytes);
 * a second {@code Host}, {@code Content-Length} or {@code Transfer-Encoding} is refused.
 */
final class Exchange {

  /** The largest request line and headers accepted. */
  static final int MAX_HEAD = 16 * 1024;

  /** The most bytes of an unread body read and dropped before closing, so the answer arrives. */
  private static final int MAX_DRAIN = 64 * 1024;

  /** The longest an answer waits for the client to close after an unread body. */
  private static final long DRAIN_MILLIS = 250;

  private final SocketChannel channel;
  private final Connections owner;
  private final AtomicBoolean answered = new AtomicBoolean();
  private final Object writing = new Object();
  private final Map<String, String> headers = new HashMap<>();
  private String method = "";
  private String path = "";
  private byte[] rest = new byte[0];
  private boolean bodyRead;
  // Whether a read was already granted past its deadline.
  private boolean late;
  private volatile Runnable gone;

  /** A request that cannot be read: its HTTP status and what is wrong. */
  static final class BadRequest extends IOException {
    private static final long serialVersionUID = 1L;

    final int status;

    BadRequest(final int status, final String message) {
      super(message);
      this.status = status;
    }
  }

  Exchange(final SocketChannel channel, final Connections owner) {
    this.channel = channel;
    this.owner = owner;
  }

  String method() {
    return method;
  }

  String path() {
    return path;
  }

  /** {@return the header's value, or null} (names are case-insensitive) */
  String header(final String name) {
    return headers.get(name.toLowerCase(Locale.ROOT));
  }

  /** Reads the request line and the headers, before {@code deadline} ({@link System#nanoTime}). */
  void readHead(final long deadline) throws IOException {
    Connections.noDelay(channel);
    final byte[] head = new byte[MAX_HEAD];
    int length = 0;
    int end = -1;
    final InputStream in = channel.socket().getInputStream();
    while (end < 0) {
      if (length == head.length) {
        throw new BadRequest(431, "the request's head is over " + MAX_HEAD + " bytes");
      }
      final int read = readBefore(in, head, length, head.length - length, deadline, "head");
      if (read < 0) {
        throw new IOException("the client closed the connection before its request's head ended");
      }
      length += read;
      end = endOfHead(head, length);
    }
    rest = Arrays.copyOfRange(head, end, length);
    parseHead(new String(head, 0, end, StandardCharsets.ISO_8859_1));
  }

  private int readBefore(
      final InputStream in,
      final byte[] into,
      final int offset,
      final int length,
      final long deadline,
      final String what)
      throws IOException {
    long left = (deadline - System.nanoTime()) / 1_000_000;
    if (left < 1) {
      // Past the deadline (the connection waited for a thread): what arrived meanwhile is read
      // once more, so an honest client whose request waited in full is still served.
      if (late) {
        throw new BadRequest(408, "the request's " + what + " did not arrive in time");
      }
      late = true;
      left = 1;
    }
    channel.socket().setSoTimeout((int) Math.min(Integer.MAX_VALUE, left));
    try {
      return in.read(into, offset, length);
    } catch (SocketTimeoutException e) {
      throw new BadRequest(408, "the request's " + what + " did not arrive in time");
    }
  }

  private static int endOfHead(final byte[] head, final int length) {
    for (int i = 3; i < length; i++) {
      if ('\n' == head[i] && '\r' == head[i - 1] && '\n' == head[i - 2] && '\r' == head[i - 3]) {
        return i + 1;
      }
    }
    return -1;
  }

  private void parseHead(final String head) throws BadRequest {
    final String[] lines = head.split("\r\n", -1);
    final String[] request = lines[0].split(" ", -1);
    if (3 != request.length || !request[2].startsWith("HTTP/1.")) {
      throw new BadRequest(400, "not an HTTP/1.1 request line");
    }
    method = request[0];
    final int query = request[1].indexOf('?');
    path = query < 0 ? request[1] : request[1].substring(0, query);
    for (int i = 1; i < lines.length; i++) {
      if (lines[i].isEmpty()) {
        continue; // the blank line that ends the head
      }
      final int colon = lines[i].indexOf(':');
      if (colon <= 0) {
        throw new BadRequest(400, "a header line has no name");
      }
      final String name = lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT);
      final String value = lines[i].substring(colon + 1).trim();
      if (null != headers.putIfAbsent(name, value)
          && ("host".equals(name)
              || "content-length".equals(name)
              || "transfer-encoding".equals(name))) {
        throw new BadRequest(400, "the header " + name + " is given twice");
      }
    }
  }

  /**
   * Reads the body, by its {@code Content-Length}, within the body timeout.
   *
   * @throws BadRequest if it is over {@code max} bytes (413), chunked (411), or late (408)
   */
  byte[] body(final int max) throws IOException {
    if (null != header("Transfer-Encoding")) {
      throw new BadRequest(411, "send the body with a Content-Length, not chunked");
    }
    final String given = header("Content-Length");
    final long length;
    try {
      length = null == given ? 0 : Long.parseLong(given);
    } catch (NumberFormatException e) {
      throw new BadRequest(400, "Content-Length is not a number");
    }
    if (length < 0) {
      throw new BadRequest(400, "Content-Length is negative");
    }
    if (length > max) {
      throw new BadRequest(413, length + " bytes");
    }
    if ("100-continue".equalsIgnoreCase(header("Expect"))) {
      write(ByteBuffer.wrap("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
    }
    late = false;
    final byte[] body = Arrays.copyOf(rest, (int) length);
    int have = Math.min(rest.length, (int) length);
    final long deadline = System.nanoTime() + owner.bodyNanos();
    final InputStream in = channel.socket().getInputStream();
    while (have < length) {
      final int read = readBefore(in, body, have, (int) length - have, deadline, "body");
      if (read < 0) {
        throw new IOException("the client closed the connection before its body ended");
      }
      have += read;
    }
    bodyRead = true;
    return body;
  }

  /** Has {@code action} run once if the client closes its end before the answer is written. */
  void onClientGone(final Runnable action) {
    this.gone = action;
  }

  /** Reads without blocking: the client's end of stream means it left. Called by the prober. */
  void probe() {
    final Runnable action = gone;
    if (null == action || answered.get()) {
      return;
    }
    int read;
    synchronized (writing) {
      if (answered.get()) {
        return;
      }
      try {
        channel.configureBlocking(false);
        read = channel.read(ByteBuffer.allocate(256));
        channel.configureBlocking(true);
      } catch (IOException e) {
        read = -1;
      }
    }
    if (read < 0) {
      gone = null;
      action.run();
      close();
    }
  }

  void respondText(final int status, final String text) {
    respond(
        status, "text/plain; charset=utf-8", "", (text + "\n").getBytes(StandardCharsets.UTF_8));
  }

  /**
   * Writes the answer (once; later answers are dropped) and closes the connection.
   *
   * @param headers more header lines, each ending with CRLF
   */
  void respond(final int status, final String type, final String headers, final byte[] body) {
    if (!answered.compareAndSet(false, true)) {
      return;
    }
    try {
      synchronized (writing) {
        channel.configureBlocking(true);
        write(ByteBuffer.wrap(head(status, type, body.length, headers)));
        write(ByteBuffer.wrap(body));
      }
      if (!bodyRead) {
        drain();
      }
    } catch (IOException e) {
      // The client went away: nothing to answer.
    } finally {
      close();
    }
  }

  private void write(final ByteBuffer bytes) throws IOException {
    while (bytes.hasRemaining()) {
      channel.write(bytes);
    }
  }

  /** Closes the connection without an answer (or after it). Idempotent. */
  void close() {
    answered.set(true);
    try {
      channel.close();
    } catch (IOException e) {
      // Closed anyway.
    }
    owner.closed(this);
  }

  /**
   * Ends the output and reads and drops what the client sends until it closes, at most {@link
   * #MAX_DRAIN} bytes for at most {@link #DRAIN_MILLIS} ms: closing with unread bytes would reset
   * the connection under the answer.
   */
  private void drain() throws IOException {
    channel.shutdownOutput();
    late = true; // no read past the drain's deadline
    final long deadline = System.nanoTime() + DRAIN_MILLIS * 1_000_000;
    final InputStream in = channel.socket().getInputStream();
    final byte[] sink = new byte[4096];
    int drained = 0;
    try {
      for (int read = 0; read >= 0 && drained < MAX_DRAIN; drained += read) {
        read = readBefore(in, sink, 0, sink.length, deadline, "rest");
      }
    } catch (BadRequest e) {
      // Late: close anyway.
    }
  }

  /**
   * Ends the output and drops what the client sent that was not read, without blocking, so that
   * closing does not reset the connection under the answer.
   */
  static void drainNow(final SocketChannel channel) throws IOException {
    channel.shutdownOutput();
    channel.configureBlocking(false);
    final ByteBuffer sink = ByteBuffer.allocate(4096);
    int drained = 0;
    for (int read = channel.read(sink);
        read > 0 && drained < MAX_DRAIN;
        read = channel.read(sink)) {
      drained += read;
      sink.clear();
    }
  }

  static byte[] head(final int status, final String type, final int length, final String more) {
    return ("HTTP/1.1 "
            + status
            + " "
            + reason(status)
            + "\r\nContent-Type: "
            + type
            + "\r\nContent-Length: "
            + length
            + "\r\nConnection: close\r\n"
            + more
            + "\r\n")
        .getBytes(StandardCharsets.ISO_8859_1);
  }

  private static String reason(final int status) {
    return switch (status) {
      case 200 -> "OK";
      case 400 -> "Bad Request";
      case 401 -> "Unauthorized";
      case 403 -> "Forbidden";
      case 404 -> "Not Found";
      case 405 -> "Method Not Allowed";
      case 408 -> "Request Timeout";
      case 411 -> "Length Required";
      case 413 -> "Content Too Large";
      case 431 -> "Request Header Fields Too Large";
      case 503 -> "Service Unavailable";
      default -> "Error";
    };
  }
}

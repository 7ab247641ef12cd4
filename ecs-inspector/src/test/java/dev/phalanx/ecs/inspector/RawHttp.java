package dev.phalanx.ecs.inspector;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * HTTP written by hand on a plain socket: for what {@link java.net.http.HttpClient} will not send
 * (a foreign {@code Host}, a head that never ends, a connection closed while its call waits).
 */
final class RawHttp implements AutoCloseable {

  final Socket socket;

  RawHttp(final int port) {
    try {
      socket = new Socket(InetAddress.getLoopbackAddress(), port);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A whole JSON-RPC call with {@code host} as its Host header and the extra header lines. */
  static String call(final String host, final String token, final String extra, final String body) {
    return "POST /rpc HTTP/1.1\r\nHost: "
        + host
        + "\r\nAuthorization: Bearer "
        + token
        + "\r\nContent-Type: application/json\r\n"
        + extra
        + "Content-Length: "
        + body.getBytes(StandardCharsets.UTF_8).length
        + "\r\n\r\n"
        + body;
  }

  RawHttp send(final String text) {
    try {
      socket.getOutputStream().write(text.getBytes(StandardCharsets.UTF_8));
      socket.getOutputStream().flush();
      return this;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Reads the whole answer, until the server closes; "" if the connection was reset. */
  String answer(final int timeoutMillis) {
    try {
      socket.setSoTimeout(timeoutMillis);
      final InputStream in = socket.getInputStream();
      final ByteArrayOutputStream out = new ByteArrayOutputStream();
      final byte[] buffer = new byte[4096];
      for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
        out.write(buffer, 0, read);
      }
      return out.toString(StandardCharsets.UTF_8);
    } catch (SocketTimeoutException e) {
      throw new AssertionError("no answer within " + timeoutMillis + " ms", e);
    } catch (IOException e) {
      return "";
    }
  }

  /** The status code of an answer's first line. */
  static int status(final String answer) {
    return answer.startsWith("HTTP/1.1 ") ? Integer.parseInt(answer.substring(9, 12)) : -1;
  }

  /** The body of an answer. */
  static String body(final String answer) {
    return answer.substring(answer.indexOf("\r\n\r\n") + 4);
  }

  @Override
  public void close() {
    try {
      socket.close();
    } catch (IOException e) {
      // Closed anyway.
    }
  }
}

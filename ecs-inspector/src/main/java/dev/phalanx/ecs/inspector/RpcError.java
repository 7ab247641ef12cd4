package dev.phalanx.ecs.inspector;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A JSON-RPC error: its code, its message (what is wrong, in words) and the HTTP status that
 * carries it. Thrown by the protocol's checks before anything is changed, and caught where the
 * answer is written.
 */
final class RpcError extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** JSON-RPC 2.0: the body is not JSON. */
  static final int PARSE_ERROR = -32700;

  /** JSON-RPC 2.0: the body is JSON, but not a request. */
  static final int INVALID_REQUEST = -32600;

  /** JSON-RPC 2.0: no such method. */
  static final int METHOD_NOT_FOUND = -32601;

  /** JSON-RPC 2.0: the parameters are wrong (type, range, unknown entity or component). */
  static final int INVALID_PARAMS = -32602;

  /** JSON-RPC 2.0: a fault of the inspector itself. */
  static final int INTERNAL_ERROR = -32603;

  /** The request carries no token, or a wrong one. */
  static final int UNAUTHORIZED = -32001;

  /** The request body is larger than the configured bound. */
  static final int REQUEST_TOO_LARGE = -32002;

  /** The result would be larger than the configured bound. */
  static final int RESULT_TOO_LARGE = -32003;

  /** Too many calls are waiting for the game thread. */
  static final int BUSY = -32004;

  /** The game thread did not call {@code serve()} in time. */
  static final int TIMEOUT = -32005;

  /** A schedule method was called, and no schedule is attached to the inspector. */
  static final int NO_SCHEDULE = -32006;

  /** The request's Host or Origin is not the inspector's own address (DNS rebinding). */
  static final int FORBIDDEN = -32007;

  /** The world refused a change (a runtime check, a listener, a constructor). */
  static final int REFUSED = -32010;

  private final int code;
  private final int httpStatus;
  // The id of the request it answers, when the envelope was read far enough to know it.
  private final transient JsonNode id;

  RpcError(final int code, final String message) {
    this(code, message, 200);
  }

  RpcError(final int code, final String message, final int httpStatus) {
    this(code, message, httpStatus, null);
  }

  private RpcError(final int code, final String message, final int httpStatus, final JsonNode id) {
    super(message, null, false, false);
    this.code = code;
    this.httpStatus = httpStatus;
    this.id = id;
  }

  /** {@return this error, answering the request of {@code requestId}} */
  RpcError withId(final JsonNode requestId) {
    return new RpcError(code, getMessage(), httpStatus, requestId);
  }

  JsonNode id() {
    return id;
  }

  int code() {
    return code;
  }

  int httpStatus() {
    return httpStatus;
  }

  static RpcError params(final String message) {
    return new RpcError(INVALID_PARAMS, message);
  }
}

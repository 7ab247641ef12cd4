/**
 * A live world inspector: a JSON-RPC 2.0 protocol over HTTP, modelled on the Bevy Remote Protocol,
 * and a web page that uses it, both served by the JDK's {@code com.sun.net.httpserver} from an
 * {@link dev.phalanx.ecs.inspector.Inspector} attached to a registry (and a schedule, if any).
 *
 * <p>The concept: HTTP threads only check, parse and queue; the game thread runs the queued calls
 * when it calls {@code serve()} at a safe point of its frame, within a time budget, so no call sees
 * a half-applied frame and the world is never touched from another thread. Every call checks its
 * whole input, and everything it would change, before it changes anything.
 *
 * <p>Costs: attached and idle, {@code serve()} polls an empty queue (nanoseconds). A call costs at
 * most a bounded amount of work (1,000 entities listed or dumped, 65,536 positions scanned, 100
 * entities watched); field values are read through {@link dev.phalanx.ecs.snapshot.SnapshotDump}
 * (O(entities × storages) for the chosen entities) and written through reflection on the component
 * class (records and JavaBean-style classes), once per call.
 *
 * <p>The files:
 *
 * <ul>
 *   <li>{@code Inspector}: the public entry point, its {@code Builder}, the HTTP front end, the
 *       queue and {@code serve()};
 *   <li>{@code Methods}: the protocol's methods, run on the game thread;
 *   <li>{@code Codec}: entity handles and field values between JSON and Java, component building;
 *   <li>{@code RpcError}: a JSON-RPC error with its code and HTTP status;
 *   <li>{@code inspector.html} (a resource): the web page, plain JavaScript, no network resource.
 * </ul>
 *
 * <p>The protocol is documented in {@code docs/inspector.md}.
 */
package dev.phalanx.ecs.inspector;

/**
 * A live world inspector: a JSON-RPC 2.0 protocol over HTTP, modelled on the Bevy Remote Protocol,
 * and a web page that uses it, both served by a small HTTP/1.1 front end on {@code java.nio} from
 * an {@link dev.phalanx.ecs.inspector.Inspector} attached to a registry (and a schedule, if any).
 *
 * <p>The concept: HTTP threads only check, parse and queue; the game thread runs the queued calls
 * when it calls {@code serve()} at a safe point of its frame, within a time budget, so no call sees
 * a half-applied frame and the world is never touched from another thread. Every call checks its
 * whole input, and everything it would change, before it changes anything.
 *
 * <p>Costs: attached and idle, {@code serve()} polls an empty queue (nanoseconds). A call costs at
 * most a bounded amount of work (1,000 entities listed or dumped, 524,288 membership tests and
 * 65,536 positions scanned by a query, a field test counting as 4 tests and a name lookup as 128,
 * 65,536 positions scanned for the hierarchy's roots, 100 entities watched); waiting watches are
 * checked round robin within the same budget; field values are read through {@link
 * dev.phalanx.ecs.snapshot.SnapshotDump} (O(entities × storages) for the chosen entities) and
 * written through reflection on the component class (records and JavaBean-style classes), once per
 * call.
 *
 * <p>The files:
 *
 * <ul>
 *   <li>{@code Inspector}: the public entry point, its {@code Builder}, the routing and checks of
 *       requests (Host, Origin, token, envelope), the queue and {@code serve()};
 *   <li>{@code Connections} and {@code Exchange}: the HTTP/1.1 front end, one request per
 *       connection, with head and body deadlines, a bound on open connections, and the probe that
 *       notices a client that left while its call waits;
 *   <li>{@code Methods}: the protocol's methods, run on the game thread;
 *   <li>{@code Codec}: entity handles and field values between JSON and Java, component and
 *       resource building;
 *   <li>{@code Filter}: a field test of {@code world.query}'s {@code where}, read from a storage's
 *       columns;
 *   <li>{@code RpcError}: a JSON-RPC error with its code and HTTP status;
 *   <li>{@code inspector.html} (a resource): the web page, plain JavaScript, no network resource.
 * </ul>
 *
 * <p>The protocol is documented in {@code docs/inspector.md}.
 */
package dev.phalanx.ecs.inspector;

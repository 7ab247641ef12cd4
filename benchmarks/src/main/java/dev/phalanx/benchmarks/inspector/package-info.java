/**
 * The live inspector's costs: what attaching it adds to a frame when no client calls it ({@link
 * dev.phalanx.benchmarks.inspector.InspectorIdle}, next to the example's frame), and how long a
 * client waits for a query through HTTP ({@link dev.phalanx.benchmarks.inspector.InspectorQuery}).
 */
package dev.phalanx.benchmarks.inspector;

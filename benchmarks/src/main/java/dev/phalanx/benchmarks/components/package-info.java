/**
 * The benchmarks' Phalanx components: {@code @Component} records that the Phalanx processor turns
 * into struct-of-arrays storages ({@code Position_Storage}: one paged {@code float[]} per field, no
 * object per entity), with {@code Position_Traits.TYPE} as their key. These are what every
 * "Phalanx" row measures. The plain classes of {@code dev.phalanx.benchmarks.model} are the peers'
 * and baselines' components (and the "Phalanx, object storage" row's).
 */
package dev.phalanx.benchmarks.components;

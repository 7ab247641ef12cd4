package dev.phalanx.examples.arena

import java.nio.file.Files
import java.nio.file.Path
import kotlin.io.path.extension
import kotlin.io.path.readText
import org.junit.jupiter.api.Assertions.assertEquals
import org.junit.jupiter.api.Assertions.assertTrue
import org.junit.jupiter.api.Test

/**
 * Keeps docs/kotlin.md and the README true to the code: every `kotlin` block, but Gradle build
 * scripts, appears line for line (indentation aside) in a source of this module.
 */
class KotlinDocsTest {

  private val block = Regex("```kotlin\n(.*?)```", RegexOption.DOT_MATCHES_ALL)

  private fun String.normalized(): String =
      lines().map { it.trim() }.filter { it.isNotEmpty() }.joinToString("\n", postfix = "\n")

  @Test
  fun everyKotlinBlockOfTheDocsIsCompiledCode() {
    val pages = listOf(Path.of("..", "docs", "kotlin.md"), Path.of("..", "README.md"))
    val page = pages.joinToString("\n") { it.readText() }
    val sources =
        Files.walk(Path.of("src")).use { files ->
          files.filter { it.extension == "kt" }.toList().joinToString("\n") { it.readText() }
        }
    val blocks =
        block.findAll(page).map { it.groupValues[1] }.filterNot { "plugins {" in it }.toList()
    assertTrue(blocks.size >= 5, "kotlin blocks found: ${blocks.size}")
    assertEquals(listOf<String>(), blocks.filterNot { it.normalized() in sources.normalized() })
  }
}

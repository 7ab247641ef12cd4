package dev.phalanx.ecs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No class of the runtime reaches another class's hidden members: read from the compiled classes'
 * constant pools, no method is called that looks members up by name or opens them ({@code
 * MethodHandles.privateLookupIn}, {@code Lookup.findVirtual} and its kin, {@code setAccessible},
 * {@code Class.getDeclaredMethod} and its kin, {@code Class.forName}). A feature package reaches
 * the core through what any user could call, checked by the compiler; {@link PackageLayeringTest}
 * checks which packages it may use. A class's {@code VarHandle}s on its own fields ({@code
 * Lookup.findVarHandle} on {@code MethodHandles.lookup()}, the JDK's idiom for memory-ordered
 * access) are allowed: they reach nothing another class hides.
 */
class NoBackDoorTest {

  /** Owner class (internal name) and the methods of it that look members up or open them. */
  private static final Map<String, Set<String>> FORBIDDEN =
      Map.of(
          "java/lang/invoke/MethodHandles",
          Set.of("privateLookupIn"),
          "java/lang/invoke/MethodHandles$Lookup",
          Set.of(
              "findVirtual",
              "findStatic",
              "findSpecial",
              "findConstructor",
              "findGetter",
              "findSetter",
              "findStaticGetter",
              "findStaticSetter",
              "findStaticVarHandle",
              "findClass",
              "unreflect",
              "unreflectGetter",
              "unreflectSetter",
              "unreflectSpecial",
              "unreflectConstructor"),
          "java/lang/Class",
          Set.of(
              "forName",
              "getDeclaredMethod",
              "getDeclaredMethods",
              "getDeclaredField",
              "getDeclaredFields",
              "getDeclaredConstructor",
              "getDeclaredConstructors",
              "getMethod",
              "getField"),
          "java/lang/reflect/AccessibleObject",
          Set.of("setAccessible", "trySetAccessible"),
          "java/lang/reflect/Field",
          Set.of("setAccessible", "trySetAccessible"),
          "java/lang/reflect/Method",
          Set.of("setAccessible", "trySetAccessible", "invoke"),
          "java/lang/reflect/Constructor",
          Set.of("setAccessible", "trySetAccessible", "newInstance"));

  /**
   * The uses that reach no hidden member, each with its reason; any other use of a forbidden call
   * fails the test.
   */
  private static final Map<String, String> ALLOWED =
      Map.of(
          "dev/phalanx/ecs/ComponentType.class calls java/lang/Class.forName",
          "ComponentType.of(Foo.class) initialises the processor's public Foo_Traits class by its"
              + " documented name, which registers the generated type",
          "dev/phalanx/ecs/ComponentType.class calls java/lang/Class.getDeclaredFields",
          "ComponentType.of(Foo.class) tells a tag from an object type by whether the user's class"
              + " declares instance fields; it reads their modifiers, never their values");

  @Test
  void noRuntimeClassLooksMembersUpByName() throws IOException {
    final List<String> found = new ArrayList<>();
    int scanned = 0;
    try (Stream<Path> files = Files.walk(classes())) {
      for (final Path file : (Iterable<Path>) files::iterator) {
        if (file.toString().endsWith(".class")) {
          scanned++;
          try (InputStream in = Files.newInputStream(file)) {
            for (final String call : methodReferences(in)) {
              final int dot = call.indexOf('.');
              if (FORBIDDEN
                  .getOrDefault(call.substring(0, dot), Set.of())
                  .contains(call.substring(dot + 1))) {
                final String use = classes().relativize(file) + " calls " + call;
                if (!ALLOWED.containsKey(use)) {
                  found.add(use);
                }
              }
            }
          }
        }
      }
    }
    assertTrue(scanned > 100, "the runtime's classes were found: " + scanned);
    assertEquals(List.of(), found);
  }

  @Test
  void theScanFindsWhatItLooksFor() throws IOException {
    // This test's own class file names MethodHandles.privateLookupIn: the scan must see it.
    final Path own =
        Path.of(testClasses().toString(), Seeded.class.getName().replace('.', '/') + ".class");
    try (InputStream in = Files.newInputStream(own)) {
      assertTrue(
          methodReferences(in).contains("java/lang/invoke/MethodHandles.privateLookupIn"),
          "a reference the scan must find");
    }
  }

  /** A class that does what the runtime must not, for {@link #theScanFindsWhatItLooksFor}. */
  static final class Seeded {
    private Seeded() {}

    static Object open() throws IllegalAccessException {
      return java.lang.invoke.MethodHandles.privateLookupIn(
          Registry.class, java.lang.invoke.MethodHandles.lookup());
    }
  }

  /**
   * Reads a class file's constant pool and returns every method it references, as {@code
   * owner.name} (internal owner name). The format: JVMS 4.4.
   */
  private static Set<String> methodReferences(final InputStream stream) throws IOException {
    final DataInputStream in = new DataInputStream(stream);
    in.readInt(); // magic
    in.readUnsignedShort(); // minor
    in.readUnsignedShort(); // major
    final int count = in.readUnsignedShort();
    final String[] utf8 = new String[count];
    final int[] classNames = new int[count];
    final int[][] pairs = new int[count][];
    final boolean[] method = new boolean[count];
    for (int i = 1; i < count; i++) {
      final int tag = in.readUnsignedByte();
      switch (tag) {
        case 1 -> utf8[i] = in.readUTF();
        case 3, 4 -> in.readInt();
        case 5, 6 -> {
          in.readLong();
          i++; // eight-byte constants take two slots
        }
        case 7 -> classNames[i] = in.readUnsignedShort();
        case 8, 16, 19, 20 -> in.readUnsignedShort();
        case 9, 10, 11, 12, 17, 18 -> {
          pairs[i] = new int[] {in.readUnsignedShort(), in.readUnsignedShort()};
          method[i] = 10 == tag || 11 == tag;
        }
        case 15 -> {
          in.readUnsignedByte();
          in.readUnsignedShort();
        }
        default -> throw new IOException("unknown constant pool tag " + tag + " at " + i);
      }
    }
    final Set<String> references = new TreeSet<>();
    for (int i = 1; i < count; i++) {
      if (method[i]) {
        final String owner = utf8[classNames[pairs[i][0]]];
        final String name = utf8[pairs[pairs[i][1]][0]];
        references.add(owner + "." + name);
      }
    }
    return references;
  }

  private static Path classes() {
    return location(Registry.class);
  }

  private static Path testClasses() {
    return location(NoBackDoorTest.class);
  }

  private static Path location(final Class<?> type) {
    try {
      return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (final URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }
}

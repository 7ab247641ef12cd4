package dev.phalanx.ecs.processor;

import com.sun.source.tree.AnnotationTree;
import com.sun.source.tree.BlockTree;
import com.sun.source.tree.ClassTree;
import com.sun.source.tree.CompilationUnitTree;
import com.sun.source.tree.ImportTree;
import com.sun.source.tree.LambdaExpressionTree;
import com.sun.source.tree.NewClassTree;
import com.sun.source.util.TreePath;
import com.sun.source.util.TreePathScanner;
import com.sun.source.util.Trees;
import dev.phalanx.ecs.processor.base.ValidationReport;
import dev.phalanx.ecs.processor.validation.Diagnostics;
import dev.phalanx.ecs.processor.validation.QueryDiagnostics;
import java.util.LinkedHashSet;
import java.util.Set;
import javax.annotation.processing.ProcessingEnvironment;
import javax.lang.model.element.Element;
import javax.lang.model.element.TypeElement;

/**
 * Finds {@code @Component}, {@code @GroupQuery} and {@code @ViewQuery} on local classes (records
 * included), which javac does not hand to processors: they are entered only when method bodies are
 * attributed, after processing. Generated code could not name them anyway, so each is reported
 * where it is declared. Local classes are found in the syntax trees (javac's {@link Trees}), and
 * the annotation by its name and the compilation unit's imports, since nothing in a method body is
 * resolved yet; with a compiler that has no trees, nothing is reported.
 */
final class LocalDeclarations {

  private static final String PACKAGE = "dev.phalanx.ecs.annotations";
  private static final String[] ANNOTATIONS = {"Component", "GroupQuery", "ViewQuery"};

  private final Trees trees;
  // Compilation units already scanned, across rounds.
  private final Set<CompilationUnitTree> scanned = new LinkedHashSet<>();

  private LocalDeclarations(final Trees trees) {
    this.trees = trees;
  }

  /** Returns a finder over the compiler's trees, or one that finds nothing if it has none. */
  static LocalDeclarations of(final ProcessingEnvironment environment) {
    try {
      return new LocalDeclarations(Trees.instance(environment));
    } catch (final IllegalArgumentException | LinkageError e) {
      return new LocalDeclarations(null);
    }
  }

  /** Reports every annotated local class in the compilation units of {@code roots}. */
  void report(final Set<? extends Element> roots, final ValidationReport report) {
    if (null == trees) {
      return;
    }
    for (final Element root : roots) {
      if (!(root instanceof TypeElement)) {
        continue;
      }
      final TreePath path = trees.getPath(root);
      if (null != path && scanned.add(path.getCompilationUnit())) {
        new Scanner(path.getCompilationUnit(), report).scan(path.getCompilationUnit(), null);
      }
    }
  }

  /**
   * Walks one compilation unit, counting how deep it is inside code (bodies, initializers,
   * lambdas).
   */
  private final class Scanner extends TreePathScanner<Void, Void> {
    private final CompilationUnitTree unit;
    private final ValidationReport report;
    private final boolean imported;
    private final boolean wildcard;
    private int code;

    Scanner(final CompilationUnitTree unit, final ValidationReport report) {
      this.unit = unit;
      this.report = report;
      boolean single = false;
      boolean star =
          null != unit.getPackageName() && PACKAGE.equals(unit.getPackageName().toString());
      for (final ImportTree tree : unit.getImports()) {
        final String name = tree.getQualifiedIdentifier().toString();
        single |= !tree.isStatic() && name.startsWith(PACKAGE + ".");
        star |= !tree.isStatic() && (PACKAGE + ".*").equals(name);
      }
      this.imported = single;
      this.wildcard = star;
    }

    @Override
    public Void visitClass(final ClassTree node, final Void unused) {
      if (code > 0) {
        for (final AnnotationTree annotation : node.getModifiers().getAnnotations()) {
          final String name = phalanxAnnotation(annotation.getAnnotationType().toString());
          if (null != name) {
            final String message =
                "Component".equals(name)
                    ? Diagnostics.innerClass(node.getSimpleName().toString(), true)
                    : QueryDiagnostics.local("@" + name, "class " + node.getSimpleName());
            final TreePath where = new TreePath(getCurrentPath(), annotation);
            report.error(
                message, (kind, text) -> trees.printMessage(kind, text, where.getLeaf(), unit));
          }
        }
      }
      return super.visitClass(node, null);
    }

    @Override
    public Void visitBlock(final BlockTree node, final Void unused) {
      code++;
      try {
        return super.visitBlock(node, null);
      } finally {
        code--;
      }
    }

    @Override
    public Void visitLambdaExpression(final LambdaExpressionTree node, final Void unused) {
      code++;
      try {
        return super.visitLambdaExpression(node, null);
      } finally {
        code--;
      }
    }

    @Override
    public Void visitNewClass(final NewClassTree node, final Void unused) {
      code++;
      try {
        return super.visitNewClass(node, null);
      } finally {
        code--;
      }
    }

    /** Returns the simple name of the Phalanx annotation {@code written} names, or {@code null}. */
    private String phalanxAnnotation(final String written) {
      for (final String simple : ANNOTATIONS) {
        if ((PACKAGE + "." + simple).equals(written)
            || (simple.equals(written) && (wildcard || (imported && importsExactly(simple))))) {
          return simple;
        }
      }
      return null;
    }

    private boolean importsExactly(final String simple) {
      for (final ImportTree tree : unit.getImports()) {
        if (!tree.isStatic()
            && (PACKAGE + "." + simple).equals(tree.getQualifiedIdentifier().toString())) {
          return true;
        }
      }
      return false;
    }
  }
}

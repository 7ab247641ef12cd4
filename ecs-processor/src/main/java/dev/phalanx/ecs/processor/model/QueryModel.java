package dev.phalanx.ecs.processor.model;

import com.palantir.javapoet.ClassName;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import javax.lang.model.element.TypeElement;

/**
 * A validated {@code @GroupQuery} or {@code @ViewQuery} declaration: everything the query generator
 * needs.
 *
 * @param element the annotated declaration, the originating element of the generated query
 * @param kind what the query iterates
 * @param packageName the declaration's package, where the query is generated
 * @param flatName the declaration's nesting chain joined with underscores ({@code Systems_Movers})
 * @param owned the owned components, in declaration order (empty unless {@code kind} is {@link
 *     Kind#OWNING_GROUP})
 * @param get the components looked up: a group's {@code get} list, or a view's {@code include} list
 * @param optional the components a visited entity may or may not have, looked up per entity
 * @param exclude the excluded components
 * @param registry the registry name of a group ({@code ""} by default): owning groups of different
 *     names are never checked against each other
 * @param readOnly the qualified names of the included or optional components the query only reads
 */
public record QueryModel(
    TypeElement element,
    Kind kind,
    String packageName,
    String flatName,
    List<ComponentModel> owned,
    List<ComponentModel> get,
    List<ComponentModel> optional,
    List<ComponentModel> exclude,
    String registry,
    Set<String> readOnly) {

  /** What a query iterates. */
  public enum Kind {
    /** A full- or partial-owning group: positions of the owned storages are aligned. */
    OWNING_GROUP,
    /** A group that owns nothing and keeps a member set. */
    NON_OWNING_GROUP,
    /** A view: nothing is kept, entities are tested while iterating. */
    VIEW
  }

  /** Suffix of the generated query class. */
  public static final String QUERY_SUFFIX = "Query";

  /**
   * Copies the lists.
   *
   * @param element the annotated declaration, the originating element of the generated query
   * @param kind what the query iterates
   * @param packageName the declaration's package, where the query is generated
   * @param flatName the declaration's nesting chain joined with underscores
   * @param owned the owned components, in declaration order; copied
   * @param get the components looked up (a group's {@code get}, a view's {@code include}); copied
   * @param optional the components a visited entity may or may not have; copied
   * @param exclude the excluded components; copied
   * @param registry the registry name of a group ({@code ""} by default)
   * @param readOnly the qualified names of the included or optional components the query only
   *     reads; copied
   */
  public QueryModel {
    readOnly = Set.copyOf(readOnly);
    owned = List.copyOf(owned);
    get = List.copyOf(get);
    optional = List.copyOf(optional);
    exclude = List.copyOf(exclude);
  }

  /**
   * {@return whether the query only reads {@code component}}
   *
   * @param component an included or optional component
   */
  public boolean readsOnly(final ComponentModel component) {
    return readOnly.contains(component.element().getQualifiedName().toString());
  }

  /** {@return the generated class, {@code MoversQuery}} */
  public ClassName query() {
    return ClassName.get(packageName, flatName + QUERY_SUFFIX);
  }

  /**
   * {@return whether the generated query names a deprecated class: a listed component, or a class
   * its generated code names}
   */
  public boolean usesDeprecated() {
    return all().stream().anyMatch(ComponentModel::usesDeprecated);
  }

  /** {@return the owned then the get components: those every visited entity has} */
  public List<ComponentModel> included() {
    final List<ComponentModel> all = new ArrayList<>(owned);
    all.addAll(get);
    return all;
  }

  /** {@return every listed component: owned, get, optional, then excluded} */
  public List<ComponentModel> all() {
    final List<ComponentModel> all = included();
    all.addAll(optional);
    all.addAll(exclude);
    return all;
  }
}

package dev.outboxrelay.release;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * What {@code mvn -B -Prelease verify} must leave for a Maven Central deployment, read from the
 * reactor it just built: for every published module (every module of the root pom that inherits its
 * parent, is not marked {@code outbox.unpublished} and is not a pom), its jar, sources jar and
 * Javadoc jar; the BOM lists exactly those modules; the poms they inherit carry the license, SCM,
 * developers and URL Central requires; the poms deployed carry the version resolved; the LICENSE
 * file is there.
 */
class ReleaseArtifactsTest {
  private static final Path ROOT = Path.of(System.getProperty("outbox.root", "..")).normalize();

  record Module(Path dir, String artifactId, String packaging, boolean published) {}

  @Test
  void everyPublishedModuleHasItsJarSourcesAndJavadoc() throws Exception {
    String version = text(deployed(ROOT), "version");
    assertThat(version).as("the deployed root pom's version").doesNotContain("${").isNotBlank();
    List<Module> published = published();
    assertThat(published).hasSizeGreaterThan(10);
    for (Module m : published) {
      Path target = m.dir().resolve("target");
      String base = m.artifactId() + "-" + version;
      assertThat(target.resolve(base + ".jar")).as(m.artifactId()).isNotEmptyFile();
      Path sources = target.resolve(base + "-sources.jar");
      Path javadoc = target.resolve(base + "-javadoc.jar");
      assertThat(sources).as(m.artifactId() + " sources").isNotEmptyFile();
      assertThat(javadoc).as(m.artifactId() + " javadoc").isNotEmptyFile();
      if (Files.isDirectory(m.dir().resolve("src/main/java"))) {
        assertThat(entries(sources))
            .as(m.artifactId() + " sources")
            .anyMatch(e -> e.endsWith(".java"));
        assertThat(entries(javadoc)).as(m.artifactId() + " javadoc").contains("index.html");
      }
    }
  }

  @Test
  void theBomListsEveryPublishedModuleAndNothingElse() throws Exception {
    Document bom = pom(ROOT.resolve("outbox-relay-bom"));
    Set<String> listed = new TreeSet<>();
    for (Element d : elements(bom.getDocumentElement(), "dependency")) {
      listed.add(text(d, "artifactId"));
    }
    Set<String> published =
        published().stream().map(Module::artifactId).collect(Collectors.toCollection(TreeSet::new));
    assertThat(listed).isEqualTo(published);
  }

  @Test
  void thePublishedPomsCarryWhatCentralRequires() throws Exception {
    Document parent = pom(ROOT);
    Element root = parent.getDocumentElement();
    assertThat(text(root, "url")).isNotBlank();
    assertThat(text(first(first(root, "licenses"), "license"), "name")).isEqualTo("Apache-2.0");
    assertThat(text(first(root, "scm"), "url")).isNotBlank();
    assertThat(text(first(root, "scm"), "connection")).startsWith("scm:git:");
    assertThat(text(first(first(root, "developers"), "developer"), "name")).isNotBlank();
    assertThat(text(root, "description")).isNotBlank();
    assertThat(ROOT.resolve("LICENSE")).content().contains("Apache License", "Version 2.0");
    String parentId = text(root, "artifactId");
    String version = text(deployed(ROOT), "version");
    for (Module m : published()) {
      Element pom = pom(m.dir()).getDocumentElement();
      assertThat(text(first(pom, "parent"), "artifactId")).as(m.artifactId()).isEqualTo(parentId);
      Element parentOfDeployed = first(deployed(m.dir()).getDocumentElement(), "parent");
      assertThat(text(parentOfDeployed, "version"))
          .as(m.artifactId() + ": the parent version in the pom that is deployed")
          .isEqualTo(version);
      assertThat(text(pom, "name")).as(m.artifactId() + " name").isNotBlank();
      assertThat(text(pom, "description")).as(m.artifactId() + " description").isNotBlank();
    }
  }

  /** The root pom's modules that users depend on. */
  private static List<Module> published() throws Exception {
    List<Module> modules = new ArrayList<>();
    for (Element e : elements(pom(ROOT).getDocumentElement(), "module")) {
      if (!(e.getParentNode().getParentNode() instanceof Element p)
          || !p.getTagName().equals("project")) {
        continue; // a profile's module (this one)
      }
      Path dir = ROOT.resolve(e.getTextContent().trim());
      Element pom = pom(dir).getDocumentElement();
      String packaging = first(pom, "packaging") == null ? "jar" : text(pom, "packaging");
      Element props = first(pom, "properties");
      boolean unpublished =
          props != null
              && first(props, "outbox.unpublished") != null
              && text(props, "outbox.unpublished").equals("true");
      // A module on another parent (a Spring Boot app under test) is no artifact of ours.
      boolean ours = text(first(pom, "parent"), "artifactId").equals(text(pom(ROOT), "artifactId"));
      Module m = new Module(dir, text(pom, "artifactId"), packaging, ours && !unpublished);
      if (m.published() && !packaging.equals("pom")) {
        modules.add(m);
      }
    }
    return modules;
  }

  private static Set<String> entries(Path jar) throws IOException {
    try (JarFile f = new JarFile(jar.toFile())) {
      return f.stream().map(e -> e.getName()).collect(Collectors.toSet());
    }
  }

  private static Document pom(Path dir) throws Exception {
    return DocumentBuilderFactory.newInstance()
        .newDocumentBuilder()
        .parse(dir.resolve("pom.xml").toFile());
  }

  /**
   * The pom that is installed and deployed: the version (set once, as {@code revision}) resolved by
   * the flatten plugin.
   */
  private static Document deployed(Path dir) throws Exception {
    Path flattened = dir.resolve(".flattened-pom.xml");
    assertThat(flattened).as("the flattened pom of " + dir).isNotEmptyFile();
    return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(flattened.toFile());
  }

  /** The element's own child of that name (not a descendant's), or null. */
  private static Element first(Element parent, String tag) {
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals(tag)) {
        return e;
      }
    }
    return null;
  }

  private static String text(Document d, String tag) {
    return text(d.getDocumentElement(), tag);
  }

  private static String text(Element parent, String tag) {
    Element e = first(parent, tag);
    return e == null ? "" : e.getTextContent().trim();
  }

  private static List<Element> elements(Element root, String tag) {
    List<Element> found = new ArrayList<>();
    var nodes = root.getElementsByTagName(tag);
    for (int i = 0; i < nodes.getLength(); i++) {
      found.add((Element) nodes.item(i));
    }
    return found;
  }
}

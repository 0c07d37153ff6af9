package org.leveldbj.compat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

/**
 * The BOM (leveldbj-bom/pom.xml) against the modules of the build, read from the source tree's
 * pom files: it manages every published module and nothing else, all at the project's version,
 * and no third-party artifact, so that an application importing it gets all of leveldbj and no
 * other version changes in its build. A module is published unless its pom sets
 * {@code maven.deploy.skip} to true or its packaging is {@code pom}.
 *
 * <p>The same checks run on a copy of the poms with one rule broken each, so a check that can no
 * longer fail is noticed too.
 */
class BomTest {
    private static final Path ROOT = Path.of(System.getProperty("compat.root", "..")).toAbsolutePath().normalize();
    private static final String GROUP = "org.leveldbj";
    private static final String BOM = "leveldbj-bom";

    @TempDir
    Path tmp;

    @Test
    void theBomListsEveryPublishedModuleAndNothingElse() throws Exception {
        assertEquals(List.of(), problems(ROOT));
    }

    @Test
    void theBuildKnowsWhichModulesArePublished() throws Exception {
        Set<String> published = published(ROOT);
        assertTrue(published.containsAll(Set.of("leveldb-api", "leveldb-core", "leveldb-testing", "leveldbjni-compat",
                "iq80-compat", "leveldb-kafka-streams", "leveldb-micrometer", "leveldb-cli", "leveldb-benchmark")),
                published.toString());
        assertFalse(published.contains("compat-tests"), published.toString());
        assertFalse(published.contains("leveldb-stress"), published.toString());
        assertFalse(published.contains(BOM), "the BOM is a pom, not a managed dependency");
    }

    @Test
    void theBuildInheritsTheBomsMetadataAndTheBomInheritsNothing() throws Exception {
        Element bom = read(ROOT.resolve(BOM).resolve("pom.xml"));
        assertNull(child(bom, "parent"), "a parent would bring its dependencyManagement into every importer");
        for (String required : List.of("name", "description", "url", "licenses", "developers", "scm")) {
            assertTrue(child(bom, required) != null, "the BOM's " + required);
        }
        Element root = read(ROOT.resolve("pom.xml"));
        Element parent = child(root, "parent");
        assertEquals(BOM, text(parent, "artifactId"), "the root pom's parent");
        assertEquals(text(bom, "version"), text(parent, "version"));
        for (String module : published(ROOT)) {
            Element pom = read(ROOT.resolve(module).resolve("pom.xml"));
            assertEquals("leveldbj-parent", text(child(pom, "parent"), "artifactId"), module);
            assertFalse(text(pom, "name").isBlank(), module + ": Maven Central requires a name");
            assertTrue(text(pom, "description").length() > 20, module + ": Maven Central requires a description");
        }
    }

    @Test
    void aPublishedModuleMissingFromTheBomIsReported() throws Exception {
        Path copy = copyOfPoms();
        Path root = copy.resolve("pom.xml");
        Files.writeString(root, Files.readString(root).replace("<modules>", "<modules>\n    <module>leveldb-new</module>"));
        Path module = Files.createDirectories(copy.resolve("leveldb-new"));
        Files.writeString(module.resolve("pom.xml"), "<project><artifactId>leveldb-new</artifactId></project>");
        assertEquals(List.of("leveldb-new is published but not in the BOM"), problems(copy));
    }

    @Test
    void anUnpublishedModuleInTheBomIsReported() throws Exception {
        Path copy = copyOfPoms();
        Path stress = copy.resolve("leveldb-stress").resolve("pom.xml");
        assertTrue(Files.readString(stress).contains("<maven.deploy.skip>true</maven.deploy.skip>"));
        addToBom(copy, GROUP, "leveldb-stress", "${project.version}");
        assertEquals(List.of("leveldb-stress is in the BOM but not a published module"), problems(copy));
    }

    @Test
    void aThirdPartyVersionOrAnotherVersionInTheBomIsReported() throws Exception {
        Path copy = copyOfPoms();
        addToBom(copy, "com.google.guava", "guava", "33.8.0-jre");
        assertEquals(List.of("com.google.guava:guava: the BOM manages only org.leveldbj artifacts"), problems(copy));

        copy = copyOfPoms();
        Path bom = copy.resolve(BOM).resolve("pom.xml");
        String text = Files.readString(bom);
        String entry = "<artifactId>leveldb-core</artifactId>\n        <version>${project.version}</version>";
        assertTrue(text.contains(entry));
        Files.writeString(bom, text.replace(entry, "<artifactId>leveldb-core</artifactId>\n        <version>0.0.9</version>"));
        assertEquals(List.of("leveldb-core: version 0.0.9, not ${project.version}"), problems(copy));
    }

    /** What is wrong with the BOM of the build rooted at {@code root}; empty when nothing is. */
    static List<String> problems(Path root) throws IOException {
        Set<String> published = published(root);
        Set<String> managed = new TreeSet<>();
        List<String> problems = new ArrayList<>();
        Element bom = read(root.resolve(BOM).resolve("pom.xml"));
        Element dependencies = child(child(bom, "dependencyManagement"), "dependencies");
        for (Element dependency : children(dependencies, "dependency")) {
            String group = text(dependency, "groupId");
            String artifact = text(dependency, "artifactId");
            if (!group.equals(GROUP)) {
                problems.add(group + ":" + artifact + ": the BOM manages only " + GROUP + " artifacts");
                continue;
            }
            if (!text(dependency, "version").equals("${project.version}")) {
                problems.add(artifact + ": version " + text(dependency, "version") + ", not ${project.version}");
            }
            managed.add(artifact);
        }
        for (String module : published) {
            if (!managed.contains(module)) {
                problems.add(module + " is published but not in the BOM");
            }
        }
        for (String artifact : managed) {
            if (!published.contains(artifact)) {
                problems.add(artifact + " is in the BOM but not a published module");
            }
        }
        return problems;
    }

    /** The artifactIds of the root pom's modules that are deployed as jars. */
    static Set<String> published(Path root) throws IOException {
        Set<String> published = new TreeSet<>();
        for (Element module : children(child(read(root.resolve("pom.xml")), "modules"), "module")) {
            Element pom = read(root.resolve(module.getTextContent().trim()).resolve("pom.xml"));
            Element properties = child(pom, "properties");
            boolean skipped = properties != null && text(properties, "maven.deploy.skip").equals("true");
            if (!skipped && !text(pom, "packaging").equals("pom")) {
                published.add(text(pom, "artifactId"));
            }
        }
        return published;
    }

    private Path copyOfPoms() throws IOException {
        Path copy = tmp.resolve("tree" + System.nanoTime());
        List<String> dirs = new ArrayList<>(List.of(""));
        for (Element module : children(child(read(ROOT.resolve("pom.xml")), "modules"), "module")) {
            dirs.add(module.getTextContent().trim());
        }
        for (String dir : dirs) {
            Files.createDirectories(copy.resolve(dir));
            Files.copy(ROOT.resolve(dir).resolve("pom.xml"), copy.resolve(dir).resolve("pom.xml"));
        }
        return copy;
    }

    private static void addToBom(Path root, String group, String artifact, String version) throws IOException {
        Path bom = root.resolve(BOM).resolve("pom.xml");
        String entry = "<dependency><groupId>" + group + "</groupId><artifactId>" + artifact + "</artifactId><version>"
                + version + "</version></dependency>\n      ";
        String text = Files.readString(bom, StandardCharsets.UTF_8);
        int at = text.indexOf("<dependency>");
        assertTrue(at > 0, "a dependency in " + bom);
        Files.writeString(bom, text.substring(0, at) + entry + text.substring(at), StandardCharsets.UTF_8);
    }

    private static Element read(Path pom) throws IOException {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            DocumentBuilder builder = factory.newDocumentBuilder();
            return builder.parse(pom.toFile()).getDocumentElement();
        } catch (ParserConfigurationException | SAXException e) {
            throw new IOException(pom + ": " + e.getMessage(), e);
        }
    }

    /** The first child element named {@code name}, or null. */
    private static Element child(Element parent, String name) {
        if (parent == null) {
            return null;
        }
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element && ((Element) n).getTagName().equals(name)) {
                return (Element) n;
            }
        }
        return null;
    }

    private static List<Element> children(Element parent, String name) {
        List<Element> found = new ArrayList<>();
        if (parent != null) {
            for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
                if (n instanceof Element && ((Element) n).getTagName().equals(name)) {
                    found.add((Element) n);
                }
            }
        }
        return found;
    }

    /** The trimmed text of the child element {@code name}, or "" when there is none. */
    private static String text(Element parent, String name) {
        Element child = child(parent, name);
        return child == null ? "" : child.getTextContent().trim();
    }
}

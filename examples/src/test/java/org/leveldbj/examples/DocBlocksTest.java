package org.leveldbj.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every {@code ```java} block of the README and of doc/ is copied from an example program, which
 * the other tests of this module run: see {@link DocBlocks} for the rule.
 */
class DocBlocksTest {
    private static final Path MODULE = Path.of(System.getProperty("user.dir"));
    private static final Path ROOT = MODULE.getParent();
    private static final Path EXAMPLES = MODULE.resolve("src/main/java/org/leveldbj/examples");

    @Test
    void everyJavaBlockOfTheReadmeAndTheDocPagesIsCopiedFromAnExample() throws IOException {
        List<DocBlocks.Source> sources = examples();
        List<String> problems = new ArrayList<>();
        for (DocBlocks.Block block : allBlocks()) {
            String problem = DocBlocks.check(block, sources);
            if (problem != null) {
                problems.add(problem);
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    @Test
    void findsTheBlocksOfTheReadmeAndOfPagesInSubdirectories() throws IOException {
        assertFalse(DocBlocks.blocks("README.md", Files.readString(ROOT.resolve("README.md"))).isEmpty(),
                "README.md has java blocks");
        List<DocBlocks.Block> blocks = DocBlocks.blocks("doc/a/b.md", String.join("\n",
                "# Title", "```java", "int a;", "", "  int b;", "```", "text", "  ~~~~ java", "x();", "~~~~",
                "```sh", "not java", "```"));
        assertEquals(2, blocks.size());
        assertEquals(2, blocks.get(0).line());
        assertEquals(List.of("int a;", "", "int b;"),
                blocks.get(0).lines().stream().map(DocBlocks.Line::text).collect(Collectors.toList()));
        assertEquals(3, blocks.get(0).lines().get(0).number());
        assertEquals(8, blocks.get(1).line());
        assertEquals(List.of("x();"),
                blocks.get(1).lines().stream().map(DocBlocks.Line::text).collect(Collectors.toList()));
    }

    /** QuickStart's imports and its run method, as the README shows them: it matches. */
    @Test
    void aCopiedBlockMatchesWhateverItsIndentation() throws IOException {
        List<String> block = quickStartBlock();
        assertNull(check(block));
        assertNull(check(block.stream().map(l -> "  " + l.strip()).collect(Collectors.toList())));
    }

    @Test
    void aChangedCallIsReportedWithItsPageLine() throws IOException {
        List<String> block = quickStartBlock();
        int i = indexOf(block, "db.put(bytes(\"hello\"), bytes(\"world\"));");
        block.set(i, block.get(i).replace("db.put(", "db.delete("));
        String problem = check(block);
        assertNotNull(problem);
        assertTrue(problem.startsWith("page.md:" + (i + 2) + ": the java block at page.md:1 is not copied from an example;"
                + " closest: QuickStart.java: \"db.delete(bytes(\"hello\"), bytes(\"world\"));\" differs from line "),
                problem);
        assertTrue(problem.endsWith(" \"db.put(bytes(\"hello\"), bytes(\"world\"));\""), problem);
    }

    @Test
    void aChangedStringIsReported() throws IOException {
        List<String> block = quickStartBlock();
        int i = indexOf(block, "// world");
        block.set(i, block.get(i).replace("bytes(\"hello\")", "bytes(\"hullo\")"));
        String problem = check(block);
        assertNotNull(problem);
        assertTrue(problem.startsWith("page.md:" + (i + 2) + ": "), problem);
        assertTrue(problem.contains("\"System.out.println(asString(db.get(bytes(\"hullo\"))));          // world\""
                + " differs from line "), problem);
    }

    /** Whichever line is left out, import, first or last of a paragraph, or in between. */
    @Test
    void everyRemovedLineIsReported() throws IOException {
        List<String> block = quickStartBlock();
        for (int i = 0; i < block.size(); i++) {
            if (block.get(i).isBlank()) {
                continue;
            }
            List<String> tampered = new ArrayList<>(block);
            String removed = tampered.remove(i);
            String problem = check(tampered);
            assertNotNull(problem, "removing \"" + removed.strip() + "\" is reported");
            assertTrue(problem.contains("\"" + removed.strip() + "\""),
                    "the report names the removed line \"" + removed.strip() + "\": " + problem);
        }
    }

    @Test
    void everyChangedLineIsReportedAtItsLine() throws IOException {
        List<String> block = quickStartBlock();
        for (int i = 0; i < block.size(); i++) {
            if (block.get(i).isBlank()) {
                continue;
            }
            List<String> tampered = new ArrayList<>(block);
            tampered.set(i, block.get(i) + " x");
            String problem = check(tampered);
            assertNotNull(problem, "changing \"" + block.get(i).strip() + "\" is reported");
            assertTrue(problem.startsWith("page.md:" + (i + 2) + ": "), problem);
        }
    }

    @Test
    void aBlockWhoseLinesComeFromTwoExamplesOrInAnotherOrderIsReported() throws IOException {
        List<String> quickStart = quickStartBlock();
        List<String> imports = quickStart.subList(0, quickStart.indexOf(""));
        List<String> readOnlyBody = List.of(
                "try (DB db = factory.open(new File(dir, \"example-db\"), new Options().readOnly(true))) {",
                "System.out.println(asString(db.get(bytes(\"a\"))));                // 1");
        List<String> fromTwo = new ArrayList<>(imports);
        fromTwo.add("");
        fromTwo.addAll(readOnlyBody);
        String problem = check(fromTwo);
        assertNotNull(problem);

        List<String> reordered = new ArrayList<>(quickStart.subList(quickStart.indexOf("") + 1, quickStart.size()));
        reordered.add("");
        reordered.addAll(imports);
        assertNotNull(check(reordered));
    }

    @Test
    void aBlockNotFromAnyExampleIsReported() throws IOException {
        assertEquals("page.md:2: the java block at page.md:1 is not copied from an example: no example has lines"
                + " like \"frobnicate();\"", check(List.of("frobnicate();", "twiddle();")));
    }

    /** Checks {@code lines} as the only block, on line 1, of a page named page.md. */
    private static String check(List<String> lines) throws IOException {
        String page = "```java\n" + String.join("\n", lines) + "\n```\n";
        List<DocBlocks.Block> blocks = DocBlocks.blocks("page.md", page);
        assertEquals(1, blocks.size());
        return DocBlocks.check(blocks.get(0), examples());
    }

    /** QuickStart's import paragraph, a blank line, and its run method, as written there. */
    private static List<String> quickStartBlock() throws IOException {
        List<String> file = Files.readAllLines(EXAMPLES.resolve("QuickStart.java"));
        int firstImport = indexOf(file, "import ");
        int importsEnd = file.subList(firstImport, file.size()).indexOf("") + firstImport;
        int run = indexOf(file, "static void run(File dir)");
        int runEnd = run + file.subList(run, file.size()).indexOf("    }");
        List<String> block = new ArrayList<>(file.subList(firstImport, importsEnd));
        block.add("");
        block.addAll(file.subList(run, runEnd + 1));
        return block;
    }

    private static int indexOf(List<String> lines, String fragment) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(fragment)) {
                return i;
            }
        }
        throw new AssertionError("no line has " + fragment);
    }

    private static List<DocBlocks.Source> examples() throws IOException {
        List<DocBlocks.Source> sources = new ArrayList<>();
        try (Stream<Path> files = Files.list(EXAMPLES)) {
            for (Path f : files.filter(f -> f.toString().endsWith(".java")).sorted().collect(Collectors.toList())) {
                sources.add(DocBlocks.Source.of(f.getFileName().toString(), Files.readString(f)));
            }
        }
        assertFalse(sources.isEmpty(), "examples in " + EXAMPLES);
        return sources;
    }

    /** The java blocks of README.md and of every page under doc/. */
    private static List<DocBlocks.Block> allBlocks() throws IOException {
        List<Path> pages = new ArrayList<>();
        pages.add(ROOT.resolve("README.md"));
        try (Stream<Path> doc = Files.walk(ROOT.resolve("doc"))) {
            doc.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        List<DocBlocks.Block> blocks = new ArrayList<>();
        for (Path page : pages) {
            blocks.addAll(DocBlocks.blocks(ROOT.relativize(page).toString(), Files.readString(page)));
        }
        return blocks;
    }
}

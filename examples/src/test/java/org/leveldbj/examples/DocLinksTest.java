package org.leveldbj.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every relative link of the README and of the pages in {@code doc/} and {@code examples/}
 * leads somewhere: the file exists, and a {@code #fragment} into a Markdown page names one of
 * its headings (as GitHub makes heading anchors: lower case, punctuation dropped, spaces as
 * hyphens). Pages move and headings change; a link that no longer leads anywhere fails here.
 */
class DocLinksTest {
    private static final Path ROOT = Path.of(System.getProperty("user.dir")).getParent();
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern FENCE = Pattern.compile("(?s)```.*?```");
    private static final Pattern HEADING = Pattern.compile("(?m)^#+ (.+)$");

    @Test
    void everyRelativeLinkLeadsSomewhere() throws IOException {
        List<Path> pages = pages();
        assertTrue(pages.size() > 10, "the README and the doc pages: " + pages);
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (Path page : pages) {
            Matcher m = LINK.matcher(FENCE.matcher(Files.readString(page)).replaceAll(""));
            while (m.find()) {
                String link = m.group(1);
                if (link.matches("^[a-z]+:.*")) {
                    continue; // https:, mailto:
                }
                checked++;
                String problem = problem(page, link);
                if (problem != null) {
                    broken.add(ROOT.relativize(page) + ": (" + link + ") " + problem);
                }
            }
        }
        assertTrue(checked > 50, "links checked: " + checked);
        assertEquals(List.of(), broken);
    }

    @Test
    void aBrokenLinkIsReported() {
        Path readme = ROOT.resolve("README.md");
        assertEquals("no such file", problem(readme, "doc/no-such-page.md"));
        assertEquals("no heading 'no-such-heading'", problem(readme, "doc/options.md#no-such-heading"));
        assertEquals(null, problem(readme, "doc/options.md#logging"));
        assertEquals("github-style", anchor("GitHub-style!"));
        assertEquals("what-this-library-adds-to-leveldb-api-012", anchor("What this library adds to leveldb-api 0.12"));
    }

    /** What is wrong with a link of a page, or null. */
    private static String problem(Path page, String link) {
        int hash = link.indexOf('#');
        String file = hash < 0 ? link : link.substring(0, hash);
        Path target = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
        if (!Files.exists(target)) {
            return "no such file";
        }
        if (hash < 0 || !target.toString().endsWith(".md")) {
            return null;
        }
        String fragment = link.substring(hash + 1);
        try {
            return anchors(target).contains(fragment) ? null : "no heading '" + fragment + "'";
        } catch (IOException e) {
            return e.toString();
        }
    }

    private static Set<String> anchors(Path page) throws IOException {
        Set<String> anchors = new HashSet<>();
        Matcher m = HEADING.matcher(FENCE.matcher(Files.readString(page)).replaceAll(""));
        while (m.find()) {
            anchors.add(anchor(m.group(1)));
        }
        return anchors;
    }

    /** GitHub's anchor of a heading. */
    static String anchor(String heading) {
        return heading.strip().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}_\\- ]", "").replace(' ', '-');
    }

    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>();
        pages.add(ROOT.resolve("README.md"));
        pages.add(ROOT.resolve("examples").resolve("README.md"));
        try (Stream<Path> doc = Files.walk(ROOT.resolve("doc"))) {
            doc.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }
}

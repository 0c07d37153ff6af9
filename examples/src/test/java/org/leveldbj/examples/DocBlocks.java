package org.leveldbj.examples;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The {@code ```java} blocks of Markdown pages, and the rule that each one is a copy of code in an
 * example program.
 *
 * <p>The rule. Lines are compared with leading and trailing whitespace stripped; a run of blank
 * lines counts as one blank line. A block is split at its blank lines into paragraphs. Its
 * leading paragraphs made only of {@code import} lines are its imports, the rest its body. A
 * block matches an example file when, in that one file:
 *
 * <ul>
 *   <li>each import paragraph is a whole paragraph of the file (blank lines, or the file's start
 *       or end, on both sides), in the block's order;
 *   <li>the body, blank lines included, is one contiguous run of the file after those imports,
 *       and it is whole: the line before it is blank, or the file starts, or (when the body's
 *       braces balance) the line before ends with an opening brace; the line after it is blank,
 *       or the file ends, or (likewise) it starts with a closing brace.
 * </ul>
 *
 * <p>So a changed call or string, and a removed, added or moved line, all break the match,
 * including a line removed at either end of a paragraph (the block no longer starts or ends
 * where a paragraph of the file does). What it lets pass: a block that leaves out its imports
 * altogether, or a whole paragraph at the start or the end of its body when what remains still
 * begins and ends as a paragraph does (a paragraph that opens or closes a brace of the rest
 * cannot go unnoticed).
 *
 * <p>Thread safety: stateless.
 */
final class DocBlocks {
    private static final Pattern OPENING_FENCE = Pattern.compile("^\\s*(`{3,}|~{3,})\\s*java\\b.*$");
    private static final Pattern STRING_OR_CHAR = Pattern.compile("\"(?:\\\\.|[^\"\\\\])*\"|'(?:\\\\.|[^'\\\\])*'");

    /** A line of a page or of an example file: its 1-based number and its text, stripped. */
    record Line(int number, String text) {
        boolean blank() {
            return text.isEmpty();
        }

        boolean isImport() {
            return text.startsWith("import ");
        }
    }

    /** A {@code ```java} block: the page it is on, the line of its opening fence, its lines. */
    record Block(String page, int line, List<Line> lines) {
    }

    /** An example file: its name, for messages, and its lines. */
    record Source(String name, List<Line> lines) {
        static Source of(String name, String text) {
            return new Source(name, collapse(DocBlocks.lines(text)));
        }
    }

    private DocBlocks() {
    }

    /** Returns the {@code ```java} blocks of a Markdown page. */
    static List<Block> blocks(String page, String markdown) {
        List<Block> blocks = new ArrayList<>();
        List<Line> lines = lines(markdown);
        for (int i = 0; i < lines.size(); i++) {
            Matcher fence = OPENING_FENCE.matcher(lines.get(i).text());
            if (!fence.matches()) {
                continue;
            }
            String closing = fence.group(1);
            int opening = lines.get(i).number();
            List<Line> code = new ArrayList<>();
            for (i++; i < lines.size() && !closes(lines.get(i).text(), closing); i++) {
                code.add(lines.get(i));
            }
            blocks.add(new Block(page, opening, collapse(code)));
        }
        return blocks;
    }

    /** Whether {@code text} closes a block opened by the fence {@code opening}. */
    private static boolean closes(String text, String opening) {
        return text.length() >= opening.length() && text.chars().allMatch(c -> c == opening.charAt(0));
    }

    /**
     * Checks a block against the example files.
     *
     * @return {@code null} when some file holds the block; otherwise what differs, naming the
     *     page and line, the closest file and its line
     */
    static String check(Block block, List<Source> sources) {
        List<List<Line>> runs = runs(block);
        if (runs.isEmpty()) {
            return block.page() + ":" + block.line() + ": the java block is empty";
        }
        String closest = null;
        int closestScore = -1;
        for (Source source : sources) {
            String problem = match(block, runs, source);
            if (problem == null) {
                return null;
            }
            int score = commonLines(block.lines(), source.lines());
            if (score > closestScore) {
                closest = problem;
                closestScore = score;
            }
        }
        return closest == null ? block.page() + ":" + block.line() + ": no example files" : closest;
    }

    /**
     * How close a file is to a block: the length of the longest common subsequence of their
     * non-blank lines.
     */
    private static int commonLines(List<Line> block, List<Line> file) {
        List<String> a = block.stream().filter(l -> !l.blank()).map(Line::text).collect(Collectors.toList());
        List<String> b = file.stream().filter(l -> !l.blank()).map(Line::text).collect(Collectors.toList());
        int[] previous = new int[b.size() + 1];
        int[] current = new int[b.size() + 1];
        for (String line : a) {
            for (int j = 1; j <= b.size(); j++) {
                current[j] = line.equals(b.get(j - 1)) ? previous[j - 1] + 1 : Math.max(previous[j], current[j - 1]);
            }
            int[] t = previous;
            previous = current;
            current = t;
        }
        return previous[b.size()];
    }

    /**
     * The block's runs: each import paragraph on its own, then the body (blank lines included).
     */
    private static List<List<Line>> runs(Block block) {
        List<List<Line>> runs = new ArrayList<>();
        List<Line> lines = trimBlank(block.lines());
        int i = 0;
        while (i < lines.size()) {
            int end = i;
            while (end < lines.size() && !lines.get(end).blank()) {
                end++;
            }
            List<Line> paragraph = lines.subList(i, end);
            if (!paragraph.stream().allMatch(Line::isImport)) {
                break;
            }
            runs.add(paragraph);
            i = end + 1;
        }
        if (i < lines.size()) {
            runs.add(lines.subList(i, lines.size()));
        }
        return runs;
    }

    /** Returns {@code null} when the file holds the block, or else the first difference. */
    private static String match(Block block, List<List<Line>> runs, Source source) {
        List<Line> file = source.lines();
        int from = 0;
        for (int r = 0; r < runs.size(); r++) {
            List<Line> run = runs.get(r);
            boolean imports = run.get(0).isImport();
            int at = find(run, file, from, imports);
            if (at >= 0) {
                from = at + run.size();
                continue;
            }
            return mismatch(block, run, source, from, imports);
        }
        return null;
    }

    /** Where {@code run} sits whole in {@code file}, at or after {@code from}; -1 if nowhere. */
    private static int find(List<Line> run, List<Line> file, int from, boolean imports) {
        for (int at = from; at + run.size() <= file.size(); at++) {
            if (equalAt(run, file, at) && startsWhole(run, file, at, imports) && endsWhole(run, file, at, imports)) {
                return at;
            }
        }
        return -1;
    }

    private static boolean equalAt(List<Line> run, List<Line> file, int at) {
        for (int i = 0; i < run.size(); i++) {
            if (!run.get(i).text().equals(file.get(at + i).text())) {
                return false;
            }
        }
        return true;
    }

    private static boolean startsWhole(List<Line> run, List<Line> file, int at, boolean imports) {
        if (at == 0 || file.get(at - 1).blank()) {
            return true;
        }
        return !imports && balanced(run) && withoutComment(file.get(at - 1).text()).endsWith("{");
    }

    private static boolean endsWhole(List<Line> run, List<Line> file, int at, boolean imports) {
        int after = at + run.size();
        if (after == file.size() || file.get(after).blank()) {
            return true;
        }
        return !imports && balanced(run) && file.get(after).text().startsWith("}");
    }

    /**
     * Describes how {@code run} fails to match the file: where the longest prefix of it agrees
     * with the file (or, when not even its first line is found, where most of its lines agree),
     * the first line that differs; when all agree, the line of the file next to it that the block
     * leaves out.
     */
    private static String mismatch(Block block, List<Line> run, Source source, int from, boolean imports) {
        List<Line> file = source.lines();
        int bestAt = -1;
        int bestPrefix = 0;
        for (int at = 0; at < file.size(); at++) {
            int prefix = 0;
            while (prefix < run.size() && at + prefix < file.size()
                    && run.get(prefix).text().equals(file.get(at + prefix).text())) {
                prefix++;
            }
            boolean later = prefix == bestPrefix && bestAt < from && at >= from;
            if (prefix > bestPrefix || (prefix > 0 && later)) {
                bestPrefix = prefix;
                bestAt = at;
            }
        }
        // When not even the run's first line is in the file: where the most lines agree.
        int equal = 0;
        int alignedAt = 0;
        for (int at = 1 - run.size(); at < file.size(); at++) {
            int count = 0;
            for (int i = 0; i < run.size(); i++) {
                int f = at + i;
                if (f >= 0 && f < file.size() && run.get(i).text().equals(file.get(f).text())) {
                    count++;
                }
            }
            if (count > equal) {
                equal = count;
                alignedAt = at;
            }
        }
        if (bestPrefix == 0) {
            bestAt = alignedAt;
        }
        String head = "the java block at " + block.page() + ":" + block.line() + " is not copied from an example";
        if (equal == 0) {
            Line first = run.get(0);
            return block.page() + ":" + first.number() + ": " + head
                    + ": no example has lines like \"" + first.text() + "\"";
        }
        head = head + "; closest: " + source.name() + ": ";
        for (int i = 0; i < run.size(); i++) {
            int f = bestAt + i;
            Line line = run.get(i);
            if (f < 0 || f >= file.size() || !line.text().equals(file.get(f).text())) {
                String there = f < 0 ? "the start of the file" : f >= file.size() ? "the end of the file"
                        : "line " + file.get(f).number() + " \"" + file.get(f).text() + "\"";
                return block.page() + ":" + line.number() + ": " + head
                        + "\"" + line.text() + "\" differs from " + there;
            }
        }
        if (bestAt < from) {
            return block.page() + ":" + run.get(0).number() + ": " + head
                    + "the lines from here are at line " + file.get(bestAt).number()
                    + ", not after the block's previous part";
        }
        if (!startsWhole(run, file, bestAt, imports)) {
            Line before = file.get(bestAt - 1);
            return block.page() + ":" + run.get(0).number() + ": " + head
                    + "line " + before.number() + " \"" + before.text() + "\", just before \"" + run.get(0).text()
                    + "\", is missing from the block";
        }
        Line after = file.get(bestAt + run.size());
        Line last = run.get(run.size() - 1);
        return block.page() + ":" + last.number() + ": " + head
                + "line " + after.number() + " \"" + after.text() + "\", just after \"" + last.text()
                + "\", is missing from the block";
    }

    /** Whether the braces of {@code run} (outside strings and line comments) balance. */
    private static boolean balanced(List<Line> run) {
        int depth = 0;
        for (Line line : run) {
            String code = withoutComment(line.text());
            for (int i = 0; i < code.length(); i++) {
                char c = code.charAt(i);
                if (c == '{') {
                    depth++;
                } else if (c == '}' && --depth < 0) {
                    return false;
                }
            }
        }
        return depth == 0;
    }

    /** The code of a line: string and character literals emptied, a {@code //} comment cut off. */
    private static String withoutComment(String text) {
        String code = STRING_OR_CHAR.matcher(text).replaceAll("\"\"");
        int comment = code.indexOf("//");
        return (comment >= 0 ? code.substring(0, comment) : code).strip();
    }

    private static List<Line> lines(String text) {
        List<Line> lines = new ArrayList<>();
        String[] split = text.split("\\R", -1);
        for (int i = 0; i < split.length; i++) {
            lines.add(new Line(i + 1, split[i].strip()));
        }
        return lines;
    }

    /** Keeps one blank line of each run of blank lines. */
    private static List<Line> collapse(List<Line> lines) {
        List<Line> collapsed = new ArrayList<>();
        for (Line line : lines) {
            if (!(line.blank() && !collapsed.isEmpty() && collapsed.get(collapsed.size() - 1).blank())) {
                collapsed.add(line);
            }
        }
        return collapsed;
    }

    private static List<Line> trimBlank(List<Line> lines) {
        int start = 0;
        int end = lines.size();
        while (start < end && lines.get(start).blank()) {
            start++;
        }
        while (end > start && lines.get(end - 1).blank()) {
            end--;
        }
        return lines.subList(start, end);
    }
}

package org.leveldbj.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.leveldbj.testing.PeerExtension;

/**
 * The Java recipe parser against the format (interop/RECIPES.md) and against the C++ peer:
 * the canonical expansion of every sample recipe must be byte-identical to
 * {@code leveldb_peer expand}.
 */
@ExtendWith(PeerExtension.class)
class RecipeTest {

    static Stream<String> recipes() throws IOException {
        try (Stream<Path> files = Files.list(Peers.repoRoot().resolve("interop/recipes"))) {
            return files.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".recipe"))
                    .map(n -> n.substring(0, n.length() - ".recipe".length()))
                    .sorted().toList().stream();
        }
    }

    @ParameterizedTest
    @MethodSource("recipes")
    void expansionIsByteIdenticalToTheCppPeer(String name) throws IOException {
        Peers peers = Peers.get();
        Path file = peers.recipe(name);
        String ours = Recipe.load(file).expand();
        Peers.Result cpp = peers.cpp("expand", file.toString()).expectOk();
        if (!ours.equals(cpp.stdout())) {
            String[] a = ours.split("\n", -1);
            String[] b = cpp.stdout().split("\n", -1);
            for (int i = 0; i < Math.min(a.length, b.length); i++) {
                assertEquals(b[i], a[i], name + ": first difference at expanded line " + (i + 1));
            }
            assertEquals(b.length, a.length, name + ": expanded line count");
        }
        // The expansion is itself a recipe that expands to itself.
        assertEquals(ours, Recipe.parse(name + "-expanded", ours).expand());
    }

    @Test
    void splitmix64MatchesTheReferenceSequence() {
        // splitmix64 seeded with 0: the first outputs of the published reference generator.
        Recipe.SplitMix64 rng = new Recipe.SplitMix64(0);
        assertEquals(0xe220a8397b1dcdafL, rng.next());
        assertEquals(0x6e789e6aa1b965f4L, rng.next());
        assertEquals(0x06c45d188009454fL, rng.next());
        // Bytes are little-endian, the last word truncated.
        byte[] b = new Recipe.SplitMix64(0).bytes(10);
        assertArrayEquals(new byte[] {(byte) 0xaf, (byte) 0xcd, 0x1d, 0x7b, 0x39, (byte) 0xa8, 0x20, (byte) 0xe2,
            (byte) 0xf4, 0x65}, b);
    }

    @Test
    void generatorsFollowTheDocumentedCallOrder() {
        Recipe r = Recipe.parse("t", "gen seq 5 2 start=7 step=3 vmin=4 vmax=4 prefix=6b vkind=half\n"
                + "put 01 repeat:ab:3\nput - rand:9:5\ndelete -\n");
        assertEquals(5, r.steps().size());
        assertArrayEquals("k000000000007".getBytes(StandardCharsets.US_ASCII), r.steps().get(0).key());
        assertArrayEquals("k000000000010".getBytes(StandardCharsets.US_ASCII), r.steps().get(1).key());
        // vkind=half, length 4: two random bytes, two zeros; the length draw comes first.
        Recipe.SplitMix64 rng = new Recipe.SplitMix64(5);
        rng.next();
        byte[] half = rng.bytes(2);
        assertArrayEquals(new byte[] {half[0], half[1], 0, 0}, r.steps().get(0).value());
        assertArrayEquals(new byte[] {(byte) 0xab, (byte) 0xab, (byte) 0xab}, r.steps().get(2).value());
        assertArrayEquals(new Recipe.SplitMix64(9).bytes(5), r.steps().get(3).value());
        assertEquals(0, r.steps().get(4).key().length);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "put 0 00", "put zz 00", "put 00", "option nope=1", "put 00 00\noption bloom_bits=1", "gen seq 1 2 bogus=3",
        "gen nope 1 2", "batch begin\nflush\nbatch end", "batch end", "batch begin", "put 00 rand:1", "put 00 rand:x:2",
        "put 00 repeat:abab:2", "snapshot", "frobnicate", "gen seq 1 2 vmin=5 vmax=4", "gen seq 1 1 vkind=other",
        "option block_size=-1", "option compression=zstd"})
    void invalidRecipesAreRejectedLikeTheCppPeerDoes(String text, @TempDir Path dir) throws IOException {
        Peers peers = Peers.get();
        Path file = dir.resolve("bad.recipe");
        Files.writeString(file, text + "\n", StandardCharsets.ISO_8859_1);
        Recipe.RecipeException e = assertThrows(Recipe.RecipeException.class, () -> Recipe.load(file));
        Peers.Result cpp = peers.cpp("expand", file.toString());
        assertEquals(2, cpp.exit(), "the C++ peer should reject it too: " + cpp.output());
        // Both name the place; C++'s message is "leveldb_peer: <file>:<line>: <what>".
        String cppMessage = cpp.stderr().trim().replaceFirst("^leveldb_peer: ", "");
        assertEquals(cppMessage, e.getMessage());
        assertTrue(e.getMessage().startsWith(file.toString()), e.getMessage());
    }
}

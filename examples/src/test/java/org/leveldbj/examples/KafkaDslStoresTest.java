package org.leveldbj.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaDslStoresTest {
    @Test
    void everyStoreOfTheTopologyIsALeveldbjStore(@TempDir Path dir) throws Exception {
        assertEquals(List.of(
                "words: shop = 1",
                "words: books = 1",
                "words: shop = 2",
                "words: music = 1",
                "words: home = 1",
                "per-minute: ada@2023-11-14T22:13:00Z = 1",
                "per-minute: ada@2023-11-14T22:13:00Z = 2",
                "per-minute: ada@2023-11-14T22:14:00Z = 1",
                "per-session: ada@2023-11-14T22:13:21Z..2023-11-14T22:13:21Z = 1",
                "per-session: ada@2023-11-14T22:13:21Z..2023-11-14T22:13:30Z = 2",
                "per-session: ada@2023-11-14T22:14:50Z..2023-11-14T22:14:50Z = 1",
                "click-to-buy: ada = shop/books -> a book",
                "click-to-buy: ada = shop/music -> a book",
                "click-to-buy: ada = home -> a book",
                // the purchase came after the plan changed, but happened before: the version then
                "buys-with-plan: ada = a book on free",
                "leveldbj stores: [KSTREAM-AGGREGATE-STATE-STORE-0000000006, KSTREAM-AGGREGATE-STATE-STORE-0000000014, "
                        + "KSTREAM-AGGREGATE-STATE-STORE-0000000020, KSTREAM-JOINOTHER-0000000030-store, "
                        + "KSTREAM-JOINTHIS-0000000029-store, plans]"),
                ExampleOutput.of(KafkaDslStores::main, dir.toString()));
    }
}

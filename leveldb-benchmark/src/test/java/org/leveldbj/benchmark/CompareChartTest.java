package org.leveldbj.benchmark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CompareChartTest {
    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    @Test
    void rendersAPngFromTheCsv(@TempDir Path dir) throws Exception {
        System.setProperty("java.awt.headless", "true");
        Path csv = dir.resolve("compare.csv");
        Files.writeString(csv, CompareResults.CSV_HEADER + "\n"
                + "fillseq,2.500,2.000,1.250\n"
                + "readrandom,1.100,1.400,0.786\n"
                + "compact,18853.777,12000.000,1.571\n"
                + "readreverse,,1.000,\n", StandardCharsets.UTF_8);
        Path png = dir.resolve("charts/compare.png");

        CompareChart.write(csv, png);

        byte[] bytes = Files.readAllBytes(png);
        assertArrayEquals(PNG_SIGNATURE, Arrays.copyOf(bytes, PNG_SIGNATURE.length));
        assertTrue(bytes.length > 10_000 && bytes.length < 5_000_000, "size " + bytes.length);
        BufferedImage image = ImageIO.read(png.toFile());
        assertEquals(1400, image.getWidth());
        assertEquals(1040, image.getHeight());
        // The ratio panel colours each bar by who is faster: one green bar, two red ones.
        int green = 0;
        int red = 0;
        for (int x = 0; x < image.getWidth(); x++) {
            for (int y = image.getHeight() / 2; y < image.getHeight(); y++) {
                int rgb = image.getRGB(x, y) & 0xffffff;
                green += rgb == 0x2ca02c ? 1 : 0;
                red += rgb == 0xd62728 ? 1 : 0;
            }
        }
        assertTrue(green > 1_000, "green pixels: " + green);
        assertTrue(red > 2 * green, "red pixels: " + red + ", green: " + green);
    }

    @Test
    void skipsRowsMissingASideAndRejectsOtherFiles(@TempDir Path dir) throws Exception {
        Path csv = dir.resolve("compare.csv");
        Files.writeString(csv, CompareResults.CSV_HEADER + "\nfillseq,2.5,2.0,1.25\n"
                + "readreverse,,1.0,\n", StandardCharsets.UTF_8);
        assertEquals(1, CompareChart.read(csv).size());

        Path other = dir.resolve("other.csv");
        Files.writeString(other, "a,b\n1,2\n", StandardCharsets.UTF_8);
        assertThrows(IllegalArgumentException.class,
                () -> CompareChart.write(other, dir.resolve("x.png")));
    }
}

package org.leveldbj.benchmark;

import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * Draws bin/compare's chart from its CSV ({@link CompareResults#CSV_HEADER}): on top the
 * median times per operation of both sides on a logarithmic scale, below it the ratios (ours
 * over C++, green where ours is faster, red where C++ is) with a line at 1. Workloads measured on one side only, or timed as zero,
 * are left out.
 * <p>Usage: {@code CompareChart CSV PNG}; exit code 2 on bad arguments, 1 on a bad CSV.
 */
public final class CompareChart {
    private static final int WIDTH = 1400;
    private static final int HEIGHT = 520;
    private static final Color OURS = new Color(0x1f77b4);
    private static final Color CPP = new Color(0xff7f0e);
    private static final Color FASTER = new Color(0x2ca02c);
    private static final Color SLOWER = new Color(0xd62728);

    private CompareChart() {
    }

    public static void main(String[] args) {
        if (args.length != 2) {
            System.err.println("usage: CompareChart CSV PNG");
            System.exit(2);
        }
        try {
            write(Paths.get(args[0]), Paths.get(args[1]));
        } catch (IOException | IllegalArgumentException e) {
            System.err.println("CompareChart: " + e.getMessage());
            System.exit(1);
        }
    }

    /** Reads the CSV and writes the PNG. */
    static void write(Path csv, Path png) throws IOException {
        List<CompareResults.Row> rows = read(csv);
        if (rows.isEmpty()) {
            throw new IllegalArgumentException(csv + ": no workload measured on both sides");
        }
        List<String> names = new ArrayList<>();
        List<Double> ours = new ArrayList<>();
        List<Double> cpp = new ArrayList<>();
        // Two ratio series, so that a bar's colour says who is faster; a workload has a bar in
        // one of them and nothing (null) in the other.
        List<Double> faster = new ArrayList<>();
        List<Double> slower = new ArrayList<>();
        for (CompareResults.Row row : rows) {
            names.add(row.workload());
            ours.add(row.ours());
            cpp.add(row.cpp());
            double r = row.ratio();
            faster.add(r <= 1.0 ? r : null);
            slower.add(r > 1.0 ? r : null);
        }

        CategoryChart times = new CategoryChartBuilder().width(WIDTH).height(HEIGHT)
                .title("Median time per operation").xAxisTitle("workload")
                .yAxisTitle("micros/op (log scale)").build();
        style(times);
        times.getStyler().setYAxisLogarithmic(true);
        // Bars start from the axis minimum, which must be above zero on a logarithmic scale.
        double smallest = Math.min(ours.stream().mapToDouble(Double::doubleValue).min()
                .orElse(1), cpp.stream().mapToDouble(Double::doubleValue).min().orElse(1));
        times.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(smallest))));
        times.getStyler().setLegendVisible(true);
        times.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
        times.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        times.getStyler().setSeriesColors(new Color[] {OURS, CPP});
        times.addSeries("leveldbj", names, ours);
        times.addSeries("C++ LevelDB", names, cpp);

        CategoryChart ratio = new CategoryChartBuilder().width(WIDTH).height(HEIGHT)
                .title("leveldbj / C++ LevelDB (below 1: leveldbj faster)")
                .xAxisTitle("workload").yAxisTitle("ratio of micros/op").build();
        style(ratio);
        ratio.getStyler().setLegendVisible(true);
        ratio.getStyler().setLegendLayout(Styler.LegendLayout.Horizontal);
        ratio.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        ratio.getStyler().setLabelsVisible(true);
        ratio.getStyler().setDecimalPattern("0.00");
        ratio.getStyler().setYAxisMin(0.0);
        ratio.getStyler().setOverlapped(true);
        ratio.getStyler().setSeriesColors(new Color[] {FASTER, SLOWER});
        ratio.addSeries("leveldbj faster", names, faster);
        ratio.addSeries("C++ faster", names, slower);
        ratio.addAnnotation(new AnnotationLine(1.0, false, false));

        Path parent = png.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        try (OutputStream out = Files.newOutputStream(png)) {
            BitmapEncoder.saveBitmap(List.of(times, ratio), 2, 1, out,
                    BitmapEncoder.BitmapFormat.PNG);
        }
    }

    private static void style(CategoryChart chart) {
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setPlotGridVerticalLinesVisible(false);
        chart.getStyler().setXAxisLabelRotation(45);
        chart.getStyler().setAvailableSpaceFill(0.8);
    }

    /** The rows of the CSV measured on both sides. */
    static List<CompareResults.Row> read(Path csv) throws IOException {
        List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
        if (lines.isEmpty() || !lines.get(0).strip().equals(CompareResults.CSV_HEADER)) {
            throw new IllegalArgumentException(csv + ": not a comparison CSV (header "
                    + CompareResults.CSV_HEADER + ")");
        }
        List<CompareResults.Row> rows = new ArrayList<>();
        for (String line : lines.subList(1, lines.size())) {
            if (line.isBlank()) {
                continue;
            }
            String[] fields = line.split(",", -1);
            if (fields.length != 4) {
                throw new IllegalArgumentException(csv + ": bad line '" + line + "'");
            }
            if (fields[1].isEmpty() || fields[2].isEmpty()) {
                continue;
            }
            try {
                double ours = Double.parseDouble(fields[1]);
                double cpp = Double.parseDouble(fields[2]);
                // A time rounded to zero has no place on a logarithmic scale, nor a ratio.
                if (ours > 0 && cpp > 0) {
                    rows.add(new CompareResults.Row(fields[0], ours, cpp));
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(csv + ": bad number in '" + line + "'");
            }
        }
        return rows;
    }
}

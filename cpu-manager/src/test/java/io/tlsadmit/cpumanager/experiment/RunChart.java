package io.tlsadmit.cpumanager.experiment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * One of a run's charts after the thesis's Figures 5.22–5.24: one value a second (or a period) for each instance,
 * against the time since the run's first phase began, with the axis titles of what it shows.
 */
final class RunChart {

    private RunChart() {
    }

    static void write(Path file, String title, String yTitle, List<String> labels, List<double[]> series) {
        XYChart chart = new XYChartBuilder().width(800).height(500).title(title)
                .xAxisTitle("second of the run (phases back to back)").yAxisTitle(yTitle).build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.InsideNE);
        for (int i = 0; i < labels.size(); i++) {
            double[] y = series.get(i);
            double[] x = new double[y.length];
            for (int s = 0; s < x.length; s++) {
                x[s] = s;
            }
            chart.addSeries(labels.get(i), x, y).setMarker(SeriesMarkers.NONE);
        }
        try {
            BitmapEncoder.saveBitmap(chart, file.toString(), BitmapEncoder.BitmapFormat.PNG);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }
}

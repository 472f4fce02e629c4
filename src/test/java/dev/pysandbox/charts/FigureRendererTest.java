package dev.pysandbox.charts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;

class FigureRendererTest {
    private static final FigureRenderer RENDERER = new FigureRenderer(ChartLimits.DEFAULT);
    private static final long LATER = System.nanoTime() + 60_000_000_000L;

    static String axes(String artists, String extra) {
        return """
                {"cell": {"rows": 1, "cols": 1, "row": 0, "col": 0, "rowspan": 1, "colspan": 1}, "twin_of": -1,
                 "facecolor": "#ffffffff", "spines": ["left", "right", "bottom", "top"], "visible": true,
                 "x": {"low": -0.5, "high": 10.5, "ticks": [{"at": 0, "label": "0"}, {"at": 5, "label": "5"},
                       {"at": 10, "label": "10"}], "label": {"text": "x label", "size": 10}},
                 "y": {"low": 0, "high": 100, "ticks": [{"at": 0, "label": "0"}, {"at": 50, "label": "50"},
                       {"at": 100, "label": "100"}], "label": {"text": "y label", "size": 10}},
                 "titles": {"center": {"text": "A title", "size": 12}},
                 "artists": [%s] %s}
                """.formatted(artists, extra);
    }

    static String figure(String... axes) {
        return """
                {"width": 6.4, "height": 4.8, "dpi": 100, "facecolor": "#ffffffff",
                 "layout": {"left": 0.125, "right": 0.9, "bottom": 0.11, "top": 0.88, "wspace": 0.2, "hspace": 0.2},
                 "axes": [%s]}
                """.formatted(String.join(",", axes));
    }

    static BufferedImage png(String json) throws IOException {
        FigureRenderer.Rendering rendering = RENDERER.render(json, ChartFormat.PNG, 0, LATER);
        FigureRenderer.Rendering.Drawn drawn = assertInstanceOf(FigureRenderer.Rendering.Drawn.class, rendering,
                () -> rendering.toString());
        Files.createDirectories(Path.of("target/charts"));
        Files.write(Path.of("target/charts/last.png"), drawn.picture().bytes());
        return ImageIO.read(new ByteArrayInputStream(drawn.picture().bytes()));
    }

    @Test
    void aRedLinePutsRedPixelsWhereItsDataIs() throws IOException {
        BufferedImage image = png(figure(axes("""
                {"kind": "line", "x": [0, 10], "y": [50, 50], "x_in": "data", "y_in": "data", "color": "#ff0000ff",
                 "width": 3}""", "")));
        assertEquals(640, image.getWidth());
        assertEquals(480, image.getHeight());
        // The axes box is 80..576 across and 57.6..427.2 down; y=50 is its middle row.
        int row = (int) Math.round((57.6 + 427.2) / 2);
        int red = image.getRGB(320, row) & 0xffffff;
        assertEquals(0xff0000, red, () -> Integer.toHexString(red));
        assertEquals(0xffffff, image.getRGB(320, row - 20) & 0xffffff);
    }

    @Test
    void svgDrawsTheSameFigureAsADocument() {
        FigureRenderer.Rendering rendering = RENDERER.render(figure(axes("""
                {"kind": "line", "x": [0, 10], "y": [50, 50], "color": "#ff0000ff", "width": 3}""", "")),
                ChartFormat.SVG, 0, LATER);
        FigureRenderer.Rendering.Drawn drawn = assertInstanceOf(FigureRenderer.Rendering.Drawn.class, rendering);
        String svg = new String(drawn.picture().bytes(), StandardCharsets.UTF_8);
        assertTrue(svg.startsWith("<?xml"), svg);
        assertTrue(svg.contains("stroke=\"#ff0000\""), svg);
        assertTrue(svg.contains("width=\"460.8pt\""), svg);
    }

    @Test
    void attackAHugeFigureIsRefusedWithTheLimitNamed() {
        String huge = figure(axes("", "")).replace("\"dpi\": 100", "\"dpi\": 2000");
        FigureRenderer.Rendering rendering = RENDERER.render(huge, ChartFormat.PNG, 0, LATER);
        FigureRenderer.Rendering.Refused refused = assertInstanceOf(FigureRenderer.Rendering.Refused.class, rendering);
        assertTrue(refused.reason().contains("pixels"), refused.reason());
    }

    @Test
    void attackADescriptionThatIsNotAFigureIsRefused() {
        FigureRenderer.Rendering rendering = RENDERER.render("[1, 2", ChartFormat.PNG, 0, LATER);
        FigureRenderer.Rendering.Refused refused = assertInstanceOf(FigureRenderer.Rendering.Refused.class, rendering);
        assertTrue(refused.reason().startsWith("the figure's description could not be read"), refused.reason());
    }

    @Test
    void textIsDrawnInDejaVuSansFromTheWorkersOwnJar() {
        // Not a host font: the worker's file system shows it none, and the look must not depend on the host's.
        assertEquals("DejaVu Sans", ChartText.font(10, false).getFamily(java.util.Locale.ROOT));
        assertEquals("DejaVu Sans Bold", ChartText.font(10, true).getFontName(java.util.Locale.ROOT));
    }
}

package org.jvmreuse.workloads.chart;

import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;

/** What both charts draw with: an off-screen image (no display needed), fonts, legend, PNG output. */
final class Canvas {
    static final Font TEXT = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
    static final Font SMALL = new Font(Font.SANS_SERIF, Font.PLAIN, 10);
    static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 15);
    static final Color AXIS = new Color(0x333333);
    static final Color GRID = new Color(0xdddddd);

    /** One legend entry: a coloured square and its text. */
    record Key(Color color, String text) {
    }

    private Canvas() {
    }

    static BufferedImage image(int width, int height) {
        if (width < 200 || height < 150) {
            throw new IllegalArgumentException("a chart needs at least 200 x 150 pixels");
        }
        return new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    }

    static Graphics2D graphics(BufferedImage image) {
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, image.getWidth(), image.getHeight());
        return g;
    }

    static void title(Graphics2D g, String title, int x, int y) {
        g.setFont(TITLE);
        g.setColor(AXIS);
        g.drawString(title, x, y);
    }

    /** Draws the keys in one row starting at (x, baseline y). */
    static void legend(Graphics2D g, List<Key> keys, int x, int y) {
        g.setFont(TEXT);
        for (Key key : keys) {
            g.setColor(key.color());
            g.fillRect(x, y - 10, 12, 12);
            g.setColor(AXIS);
            g.drawRect(x, y - 10, 12, 12);
            g.drawString(key.text(), x + 17, y);
            x += 17 + g.getFontMetrics().stringWidth(key.text()) + 22;
        }
    }

    static void writePng(BufferedImage image, Path file) throws IOException {
        if (file.toAbsolutePath().getParent() != null) {
            Files.createDirectories(file.toAbsolutePath().getParent());
        }
        if (!ImageIO.write(image, "png", file.toFile())) {
            throw new IOException("no PNG writer");
        }
    }
}

package io.tlsadmit.rubis.art;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.GradientPaint;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.RoundRectangle2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import javax.imageio.IIOImage;
import javax.imageio.ImageIO;
import javax.imageio.ImageWriteParam;
import javax.imageio.ImageWriter;
import javax.imageio.stream.MemoryCacheImageOutputStream;

/**
 * Draws the site's images at build time: the logo and the two buttons, as JPEGs of about the sizes the RUBiS client
 * expects to download (20 KB, 3 KB, 5 KB), since image bytes are part of the benchmark's traffic. A seeded grain
 * gives the encoder something to keep; the quality is then searched for the size closest to the target.
 */
public final class ImageMaker {

    private ImageMaker() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: ImageMaker OUTPUT_DIRECTORY");
            System.exit(2);
        }
        Path out = Files.createDirectories(Path.of(args[0]));
        write(out.resolve("logo.jpg"), logo(), 20 * 1024);
        write(out.resolve("bid_now.jpg"), button(90, 32, "Bid now!", new Color(0x1f6f3f), 7), 3 * 1024);
        write(out.resolve("buy_it_now.jpg"), button(120, 40, "Buy it now!", new Color(0xb0451c), 9), 5 * 1024);
    }

    private static BufferedImage logo() {
        BufferedImage image = new BufferedImage(400, 120, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = canvas(image);
        g.setPaint(new GradientPaint(0, 0, new Color(0x12355b), 400, 120, new Color(0x3d8fd1)));
        g.fillRect(0, 0, 400, 120);
        // a gavel: the auction site's mark
        g.setColor(new Color(0xe8c170));
        g.rotate(Math.toRadians(-35), 60, 60);
        g.fillRoundRect(30, 35, 60, 26, 8, 8);
        g.fillRect(55, 60, 10, 50);
        g.rotate(Math.toRadians(35), 60, 60);
        g.setColor(Color.WHITE);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 58));
        g.drawString("RUBiS", 120, 72);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 14));
        g.drawString("auctions for the tlsadmit experiments", 124, 100);
        g.dispose();
        grain(image, 1, 26);
        return image;
    }

    private static BufferedImage button(int width, int height, String label, Color color, long seed) {
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = canvas(image);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, width, height);
        RoundRectangle2D shape = new RoundRectangle2D.Float(1, 1, width - 3, height - 3, 14, 14);
        g.setPaint(new GradientPaint(0, 0, color.brighter(), 0, height, color.darker()));
        g.fill(shape);
        g.setColor(color.darker().darker());
        g.setStroke(new BasicStroke(1.5f));
        g.draw(shape);
        g.setColor(Color.WHITE);
        int fontSize = height / 2;
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, fontSize));
        while (g.getFontMetrics().stringWidth(label) > width - 14 && fontSize > 8) {
            g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, --fontSize));
        }
        int textWidth = g.getFontMetrics().stringWidth(label);
        g.drawString(label, (width - textWidth) / 2, height / 2 + height / 6);
        g.dispose();
        grain(image, seed, 40);
        return image;
    }

    private static Graphics2D canvas(BufferedImage image) {
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        return g;
    }

    /** Adds seeded noise of +-amplitude to every channel, like film grain. */
    private static void grain(BufferedImage image, long seed, int amplitude) {
        SplittableRandom random = new SplittableRandom(seed);
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                int rgb = image.getRGB(x, y);
                int r = clamp(((rgb >> 16) & 0xff) + random.nextInt(-amplitude, amplitude + 1));
                int gr = clamp(((rgb >> 8) & 0xff) + random.nextInt(-amplitude, amplitude + 1));
                int b = clamp((rgb & 0xff) + random.nextInt(-amplitude, amplitude + 1));
                image.setRGB(x, y, (r << 16) | (gr << 8) | b);
            }
        }
    }

    private static int clamp(int value) {
        return Math.max(0, Math.min(255, value));
    }

    private static void write(Path file, BufferedImage image, int targetBytes) throws IOException {
        byte[] best = null;
        for (int step = 1; step <= 20; step++) {
            byte[] jpeg = encode(image, step / 20f);
            if (best == null || Math.abs(jpeg.length - targetBytes) < Math.abs(best.length - targetBytes)) {
                best = jpeg;
            }
        }
        Files.write(file, best);
        System.out.printf("%s: %d bytes (target %d)%n", file.getFileName(), best.length, targetBytes);
    }

    private static byte[] encode(BufferedImage image, float quality) throws IOException {
        ImageWriter writer = ImageIO.getImageWritersByFormatName("jpeg").next();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (MemoryCacheImageOutputStream out = new MemoryCacheImageOutputStream(bytes)) {
            writer.setOutput(out);
            ImageWriteParam param = writer.getDefaultWriteParam();
            param.setCompressionMode(ImageWriteParam.MODE_EXPLICIT);
            param.setCompressionQuality(quality);
            writer.write(null, new IIOImage(image, null, null), param);
        } finally {
            writer.dispose();
        }
        return bytes.toByteArray();
    }
}

package dev.pysandbox.charts;

import java.util.Locale;
import java.util.Optional;

/** The picture formats {@code savefig} writes. */
public enum ChartFormat {
    PNG("image/png"), SVG("image/svg+xml");

    private final String mimeType;

    ChartFormat(String mimeType) {
        this.mimeType = mimeType;
    }

    public String mimeType() {
        return mimeType;
    }

    /** The format of this name ({@code png}, {@code svg}), if it is one. */
    public static Optional<ChartFormat> named(String name) {
        return switch (name == null ? "" : name.toLowerCase(Locale.ROOT)) {
            case "png" -> Optional.of(PNG);
            case "svg" -> Optional.of(SVG);
            default -> Optional.empty();
        };
    }
}

package dev.pysandbox.execution;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * A figure the call's code drew ({@code plt.show()}, {@code savefig}, or left open), as a PNG the answer carries in
 * an MCP image block. The answer's structured content lists it without its bytes ({@link ImageListing}).
 *
 * @param name     the file name it was saved under, or {@code figure-N.png} for a figure shown or left open
 * @param mimeType {@code image/png}
 * @param width    its width in pixels
 * @param height   its height in pixels
 * @param size     its size in bytes
 * @param base64   its bytes, in base64
 */
public record ChartImage(
        @JsonProperty("name") String name,
        @JsonProperty("mime_type") String mimeType,
        @JsonProperty("width") int width,
        @JsonProperty("height") int height,
        @JsonProperty("size") long size,
        @JsonProperty("base64") String base64) {

    /** This image as the answer's structured content lists it: everything but its bytes. */
    public ImageListing listing() {
        return new ImageListing(name, mimeType, width, height, size);
    }

    /** An image of the answer, listed in {@code structuredContent.images}; its bytes are in an image block. */
    public record ImageListing(
            @JsonProperty("name") String name,
            @JsonProperty("mime_type") String mimeType,
            @JsonProperty("width") int width,
            @JsonProperty("height") int height,
            @JsonProperty("size") long size) {
    }
}

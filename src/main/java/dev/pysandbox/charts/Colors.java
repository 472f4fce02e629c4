package dev.pysandbox.charts;

import java.awt.Color;

/** The colours of a figure's JSON: {@code #rrggbbaa} (or {@code #rrggbb}), as the guest resolved them. */
final class Colors {
    private Colors() {
    }

    /**
     * The colour {@code text} names, or {@code fallback} when it names none (null, {@code none}, or not a colour:
     * the guest resolves every colour a user names, so anything else here is its mistake, drawn as the fallback).
     */
    static Color parse(String text, Color fallback) {
        if (text == null || text.length() != 7 && text.length() != 9 || text.charAt(0) != '#') {
            return fallback;
        }
        try {
            long value = Long.parseLong(text.substring(1), 16);
            if (text.length() == 7) {
                return new Color((int) value);
            }
            return new Color((int) (value >>> 24), (int) (value >>> 16) & 0xff, (int) (value >>> 8) & 0xff,
                    (int) value & 0xff);
        } catch (NumberFormatException e) {
            return fallback;
        }
    }

    /** The colour, or null (draw nothing) when {@code text} names none. */
    static Color parseOrNone(String text) {
        return parse(text, null);
    }
}

package dev.pysandbox.worker;

import java.util.Locale;

import org.graalvm.polyglot.Value;
import org.graalvm.polyglot.proxy.ProxyExecutable;

import org.graalvm.shadowed.com.ibm.icu.lang.UCharacter;
import org.graalvm.shadowed.com.ibm.icu.lang.UProperty;
import org.graalvm.shadowed.com.ibm.icu.text.Normalizer2;

/**
 * The {@code unicodedata} functions GraalPy leaves to a native module the sandbox cannot load ({@code lookup},
 * {@code numeric}, {@code decimal}, {@code digit}, {@code decomposition}, {@code east_asian_width},
 * {@code combining}, {@code mirrored}), answered from the ICU tables GraalPy itself ships (its own
 * {@code name}, {@code category} and {@code normalize} use them too). The prelude hands this to the guest as
 * one function, {@code ucd(what, argument)}; it reaches nothing but these tables. Missing values come back as
 * plain values the prelude tests for ({@code ""}, {@code -1}, NaN), never as a host null.
 */
final class UnicodeData implements ProxyExecutable {
    private static final String[] EAST_ASIAN_WIDTHS = {"N", "A", "H", "F", "Na", "W"};

    @Override
    public Object execute(Value... arguments) {
        String what = arguments[0].asString();
        if (what.equals("lookup")) {
            int codePoint = UCharacter.getCharFromName(arguments[1].asString().toUpperCase(Locale.ROOT));
            if (codePoint < 0) {
                codePoint = UCharacter.getCharFromNameAlias(arguments[1].asString().toUpperCase(Locale.ROOT));
            }
            return codePoint < 0 ? "" : Character.toString(codePoint);
        }
        int codePoint = arguments[1].asInt();
        return switch (what) {
            case "numeric" -> {
                double value = UCharacter.getUnicodeNumericValue(codePoint);
                yield value == UCharacter.NO_NUMERIC_VALUE ? Double.NaN : value;
            }
            case "decimal" -> numericType(codePoint) == UCharacter.NumericType.DECIMAL
                    ? (int) UCharacter.getUnicodeNumericValue(codePoint) : -1;
            case "digit" -> numericType(codePoint) == UCharacter.NumericType.DECIMAL
                    || numericType(codePoint) == UCharacter.NumericType.DIGIT
                    ? (int) UCharacter.getUnicodeNumericValue(codePoint) : -1;
            case "decomposition" -> decomposition(codePoint);
            case "east_asian_width" -> EAST_ASIAN_WIDTHS[UCharacter.getIntPropertyValue(codePoint, UProperty.EAST_ASIAN_WIDTH)];
            case "combining" -> UCharacter.getCombiningClass(codePoint);
            case "mirrored" -> UCharacter.isMirrored(codePoint) ? 1 : 0;
            default -> throw new IllegalArgumentException("no unicodedata function " + what);
        };
    }

    private static int numericType(int codePoint) {
        return UCharacter.getIntPropertyValue(codePoint, UProperty.NUMERIC_TYPE);
    }

    /** CPython's form: code points in hex, after a {@code <tag>} for compatibility decompositions. */
    private static String decomposition(int codePoint) {
        String raw = Normalizer2.getNFKDInstance().getRawDecomposition(codePoint);
        if (raw == null) {
            return "";
        }
        StringBuilder text = new StringBuilder();
        int type = UCharacter.getIntPropertyValue(codePoint, UProperty.DECOMPOSITION_TYPE);
        if (type != UCharacter.DecompositionType.CANONICAL) {
            text.append('<').append(UCharacter.getPropertyValueName(UProperty.DECOMPOSITION_TYPE, type,
                    UProperty.NameChoice.LONG).toLowerCase(Locale.ROOT)).append("> ");
        }
        raw.codePoints().forEach(c -> text.append(String.format("%04X ", c)));
        return text.toString().strip();
    }
}

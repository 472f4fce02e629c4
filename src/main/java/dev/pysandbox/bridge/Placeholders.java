package dev.pysandbox.bridge;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.pysandbox.config.ConfigException;

/**
 * {@code ${VAR}} and {@code ${VAR:-default}} with shell meaning, as Claude Code expands them, so a servers
 * file copied from a client configuration keeps its secrets out of the file here too. Anything else that
 * looks like a placeholder (a bad name, no closing brace) is left as literal text, not guessed at.
 */
final class Placeholders {
    private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?}");

    private final Map<String, String> environment;
    private final String server;
    private final boolean lenient;

    /**
     * @param lenient leave placeholders of unset variables as they are instead of failing: a disabled
     *                server is often disabled exactly because its secret is not set on this machine
     */
    Placeholders(Map<String, String> environment, String server, boolean lenient) {
        this.environment = environment;
        this.server = server;
        this.lenient = lenient;
    }

    /** {@code value} with every placeholder replaced; {@code key} names the value in an error. */
    String expand(String value, String key) throws ConfigException {
        Matcher matcher = PLACEHOLDER.matcher(value);
        StringBuilder out = new StringBuilder();
        while (matcher.find()) {
            String variable = matcher.group(1);
            String set = environment.get(variable);
            String fallback = matcher.group(2);
            String replacement;
            if (fallback != null) {
                // Shell ":-": an empty value is as good as unset.
                replacement = set == null || set.isEmpty() ? fallback : set;
            } else if (set != null) {
                replacement = set;
            } else if (lenient) {
                replacement = matcher.group();
            } else {
                throw new ConfigException(ServersFile.PREFIX + "server '" + server + "': " + key + " uses ${"
                        + variable + "}, which is not set");
            }
            matcher.appendReplacement(out, Matcher.quoteReplacement(replacement));
        }
        matcher.appendTail(out);
        return out.toString();
    }
}

package dev.pysandbox.auth;

import java.util.Arrays;
import java.util.Collection;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What an OAuth access token lets its bearer do here (README, "OAuth"). A token without {@link #EXECUTE} is
 * refused at every call of our tools with 403 {@code insufficient_scope}; code run with a token without
 * {@link #TOOLS} gets {@code ToolError(not_allowed)} at each call of the operator's tools (code mode). Callers of
 * the tokens file and of a server without authentication hold every scope.
 */
public enum Scope {
    /** execute_code, run_python, validate_code and inspect_session. */
    EXECUTE("sandbox:execute"),
    /** The operator's downstream tools, called from code (code mode). */
    TOOLS("sandbox:tools");

    private final String wireName;

    Scope(String wireName) {
        this.wireName = wireName;
    }

    /** The name in tokens, metadata and {@code WWW-Authenticate}. */
    public String wireName() {
        return wireName;
    }

    /** Every scope: what callers hold when no OAuth server grants scopes. */
    public static Set<Scope> all() {
        return EnumSet.allOf(Scope.class);
    }

    /** The scopes among the names given; names of other scopes (openid, profile, ...) are not ours and ignored. */
    public static Set<Scope> named(Collection<String> names) {
        Set<Scope> scopes = EnumSet.noneOf(Scope.class);
        for (Scope scope : values()) {
            if (names.contains(scope.wireName)) {
                scopes.add(scope);
            }
        }
        return scopes;
    }

    /** The names, space-separated, in declaration order: as a {@code scope} parameter writes them. */
    public static String wireNames(Collection<Scope> scopes) {
        return Arrays.stream(values()).filter(scopes::contains).map(Scope::wireName).collect(Collectors.joining(" "));
    }
}

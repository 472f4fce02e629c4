package dev.pysandbox.packages;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The pure-Python packages this project knows by the name code imports, pinned to the distribution that
 * provides each: {@code yaml} is PyYAML, {@code dateutil} is python-dateutil. The names are fixed here, never
 * guessed from what a guest imports, because the obvious name is often someone else's package.
 *
 * <p>Used by {@code install --profile common}, by the {@code common} import profile, and by auto-install
 * ({@code packages.auto-install}).
 */
public final class KnownPackages {
    /** Import name → the distribution pip installs for it. */
    private static final Map<String, String> DISTRIBUTIONS = Map.ofEntries(
            Map.entry("jmespath", "jmespath"),
            Map.entry("dateutil", "python-dateutil"),
            Map.entry("yaml", "PyYAML"),
            Map.entry("tabulate", "tabulate"),
            Map.entry("attr", "attrs"),
            Map.entry("attrs", "attrs"),
            Map.entry("more_itertools", "more-itertools"),
            Map.entry("toolz", "toolz"),
            Map.entry("pytz", "pytz"),
            Map.entry("jinja2", "Jinja2"),
            Map.entry("markupsafe", "MarkupSafe"),
            Map.entry("tzdata", "tzdata"),
            Map.entry("six", "six"));

    /** What the {@code common} profile adds to the standard one, by import name. */
    public static final List<String> COMMON_MODULES = List.of("jmespath", "dateutil", "yaml", "tabulate", "attr",
            "attrs", "more_itertools", "toolz", "pytz", "jinja2", "markupsafe");

    private KnownPackages() {
    }

    /** The distribution that provides a module, if this project knows it. */
    public static Optional<String> distribution(String module) {
        return Optional.ofNullable(DISTRIBUTIONS.get(module.split("\\.", 2)[0]));
    }

    /** The import names auto-install may act on. */
    public static Set<String> modules() {
        return DISTRIBUTIONS.keySet();
    }

    /**
     * What {@code install --profile NAME} installs: for {@code common}, the distributions of
     * {@link #COMMON_MODULES} and {@code tzdata}, the time zones {@code zoneinfo} reads.
     *
     * @throws IllegalArgumentException for a profile with no packages to install
     */
    public static List<String> profile(String name) {
        if (!name.equals("common")) {
            throw new IllegalArgumentException("no package profile '" + name + "'; known: common");
        }
        Collection<String> distributions = new LinkedHashSet<>();
        COMMON_MODULES.forEach(module -> distributions.add(DISTRIBUTIONS.get(module)));
        distributions.add("tzdata");
        return new ArrayList<>(distributions);
    }
}

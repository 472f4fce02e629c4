package dev.pysandbox.mcp;

import java.util.SortedSet;
import java.util.function.Consumer;

import org.slf4j.LoggerFactory;

import dev.pysandbox.packages.PackageFolder;

/**
 * Notices when the operator's installed packages change (an install switches the package folder's
 * generation while the server runs) and hands over the new set of modules, so that {@code execute_code}'s
 * description can say what code may import now. Run every few seconds: it lists one folder.
 */
final class PackageWatch implements Runnable {
    private final PackageFolder packages;
    private final Consumer<SortedSet<String>> onChange;
    private SortedSet<String> last;

    /** @param seen the modules the tool was last described with */
    PackageWatch(PackageFolder packages, SortedSet<String> seen, Consumer<SortedSet<String>> onChange) {
        this.packages = packages;
        this.onChange = onChange;
        this.last = seen;
    }

    /** The modules the tool was last described with. */
    synchronized SortedSet<String> installed() {
        return last;
    }

    @Override
    public synchronized void run() {
        SortedSet<String> now = packages.modules();
        if (!now.equals(last)) {
            last = now;
            try {
                onChange.accept(now);
            } catch (RuntimeException e) {
                // A scheduled task that throws is never run again; the next change must still be seen.
                LoggerFactory.getLogger(PackageWatch.class).warn("could not update the tool list: {}", e.toString());
            }
        }
    }
}

package dev.pysandbox.files;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * A directory listing read at once: the guest paths of a folder's entries that pass the filter. Both of this
 * package's file systems list this way, so that a guest is handed guest paths only and nothing stays open.
 */
final class ListedDirectory implements DirectoryStream<Path> {
    private final List<Path> entries = new ArrayList<>();

    /** @param guestDir the folder as the guest names it; {@code names} are its entries' file names */
    ListedDirectory(Path guestDir, Iterable<String> names, DirectoryStream.Filter<? super Path> filter)
            throws IOException {
        for (String name : names) {
            Path entry = guestDir.resolve(name);
            if (filter.accept(entry)) {
                entries.add(entry);
            }
        }
    }

    @Override
    public Iterator<Path> iterator() {
        return entries.iterator();
    }

    @Override
    public void close() {
    }
}

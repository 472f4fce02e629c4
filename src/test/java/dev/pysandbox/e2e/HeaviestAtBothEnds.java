package dev.pysandbox.e2e;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.ClassDescriptor;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.ClassOrdererContext;

/**
 * The order the end-to-end classes run in, two at a time (pom.xml, failsafe): the longest first, so that the two
 * cores finish together rather than one running the last long class alone. JUnit's executor hands a list of
 * classes to two threads from both ends, one from the front and one from the back; so the longest go to the two
 * ends in turn and the shortest meet in the middle. A class not named here counts as short.
 *
 * <p>A clean-clone run of 9580946 started {@code ReleaseIT}, then third longest, last, in the middle of JUnit's own
 * order, and ran its final half-minute alone. Seconds are each class's time in that run (2026-11-28); only their
 * order matters. In the first run in this order (e7c9b10) the last two classes to end were short ones, a second
 * apart; the end-to-end phase as a whole took 1,066 s against 1,005-1,103 s in the four runs before, within what
 * the shared machine varies by.
 */
public final class HeaviestAtBothEnds implements ClassOrderer {
    private static final Map<String, Integer> SECONDS = Map.ofEntries(
            Map.entry("SoakIT", 215), Map.entry("PackageInstallIT", 171), Map.entry("ReleaseIT", 140),
            Map.entry("AttackSuiteIT", 140), Map.entry("ScaleOutIT", 114), Map.entry("RecyclingIT", 108),
            Map.entry("HttpTransportIT", 107), Map.entry("SessionsIT", 106), Map.entry("CodeModeIT", 90),
            Map.entry("TypeScriptClientIT", 89), Map.entry("FaultSuiteIT", 71), Map.entry("ProgressIT", 62),
            Map.entry("AutoInstallIT", 52), Map.entry("LongCallsIT", 49), Map.entry("FreshCallIsolationIT", 49),
            Map.entry("ServerExitIT", 48), Map.entry("AgentCorpusIT", 44), Map.entry("RunCommandIT", 41));

    @Override
    public void orderClasses(ClassOrdererContext context) {
        List<? extends ClassDescriptor> classes = context.getClassDescriptors();
        List<ClassDescriptor> longestFirst = new ArrayList<>(classes);
        longestFirst.sort(Comparator.comparingInt((ClassDescriptor c) -> seconds(c)).reversed()
                .thenComparing(c -> c.getTestClass().getName()));
        List<ClassDescriptor> ordered = atBothEnds(longestFirst);
        classes.sort(Comparator.comparingInt(ordered::indexOf));
    }

    /** The first to the front, the second to the back, the third after the first, and so on. */
    static <T> List<T> atBothEnds(List<T> longestFirst) {
        List<T> front = new ArrayList<>();
        Deque<T> back = new ArrayDeque<>();
        for (int i = 0; i < longestFirst.size(); i++) {
            if (i % 2 == 0) {
                front.add(longestFirst.get(i));
            } else {
                back.addFirst(longestFirst.get(i));
            }
        }
        front.addAll(back);
        return front;
    }

    private static int seconds(ClassDescriptor descriptor) {
        return SECONDS.getOrDefault(descriptor.getTestClass().getSimpleName(), 0);
    }
}

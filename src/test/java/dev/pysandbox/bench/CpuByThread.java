package dev.pysandbox.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * CPU time of every thread of some JVMs, read from /proc and grouped by thread name (the trailing number
 * dropped, so "C2 CompilerThread0" and "...1" add up). Says where a call's CPU goes, compiler threads included,
 * which no Java API shows.
 */
public final class CpuByThread {
    private static final long CLOCK_TICKS_PER_SECOND = 100; // USER_HZ on Linux

    private CpuByThread() {
    }

    /** Ticks by "server: name" or "worker: name", over the JVMs tagged for a benchmark. */
    static Map<String, Long> of(String tag) throws IOException {
        Map<String, Long> ticks = new TreeMap<>();
        for (ProcessHandle p : SpeedBenchmark.taggedJvms(tag)) {
            add(p.pid(), SpeedBenchmark.isWorker(p) ? "worker: " : "server: ", ticks);
        }
        return ticks;
    }

    /** Ticks by thread name, over this JVM. */
    public static Map<String, Long> ofThisJvm() throws IOException {
        Map<String, Long> ticks = new TreeMap<>();
        add(ProcessHandle.current().pid(), "", ticks);
        return ticks;
    }

    /** The largest groups, in ms per call, largest first. */
    public static String perCall(Map<String, Long> before, Map<String, Long> after, int calls) {
        return after.entrySet().stream()
                .map(e -> Map.entry(e.getKey(), (e.getValue() - before.getOrDefault(e.getKey(), 0L)) * 1000.0 / CLOCK_TICKS_PER_SECOND / calls))
                .filter(e -> e.getValue() >= 0.5)
                .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
                .limit(10)
                .map(e -> String.format("%s %.1f", e.getKey(), e.getValue()))
                .collect(Collectors.joining(", "));
    }

    /** Total ms per call over all threads. */
    public static double totalPerCall(Map<String, Long> before, Map<String, Long> after, int calls) {
        long ticks = 0;
        for (Map.Entry<String, Long> e : after.entrySet()) {
            ticks += e.getValue() - before.getOrDefault(e.getKey(), 0L);
        }
        return ticks * 1000.0 / CLOCK_TICKS_PER_SECOND / calls;
    }

    private static void add(long pid, String prefix, Map<String, Long> ticks) throws IOException {
        try (var tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks.toList()) {
                String stat;
                try {
                    stat = Files.readString(task.resolve("stat"));
                } catch (IOException gone) {
                    continue; // the thread ended meanwhile
                }
                String name = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')')).replaceAll("[#\\d]+$", "");
                String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                long used = Long.parseLong(fields[11]) + Long.parseLong(fields[12]); // utime, stime
                ticks.merge(prefix + name, used, Long::sum);
            }
        }
    }
}

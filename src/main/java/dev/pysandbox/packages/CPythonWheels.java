package dev.pysandbox.packages;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * Pure-Python wheels made from CPython wheels, for the few packages that ship C speedups beside a pure-Python
 * fallback: PyYAML and MarkupSafe (which Jinja2 needs) have no pure wheel, and an index often carries only
 * their CPython wheels, which GraalPy's pip refuses. For those packages alone, the installer fetches the
 * CPython wheel, drops its native files (the sandbox could not load them anyway) and re-tags it
 * {@code py3-none-any}; the smoke import then shows that the fallback works. Any other package with native
 * code is still refused.
 */
final class CPythonWheels {
    /** PEP 503 names of the packages whose own code falls back to pure Python when its extension is missing. */
    static final Set<String> WITH_PURE_FALLBACK = Set.of("pyyaml", "markupsafe", "simplejson");
    /** CPython versions whose wheels are tried, newest first: GraalPy speaks 3.12. */
    private static final List<String> VERSIONS = List.of("3.12", "3.11");
    private static final Pattern NOT_FOUND = Pattern.compile("No matching distribution found for ([A-Za-z0-9._-]+)([^\\s]*)");

    private final PipRunner pip;
    private final PrintStream out;

    /** How the installer runs GraalPy's pip: its arguments in, its exit code and what it printed out. */
    interface PipRunner {
        PipRun run(List<String> args) throws IOException;
    }

    record PipRun(int exitCode, String output) {
    }

    CPythonWheels(PipRunner pip, PrintStream out) {
        this.pip = pip;
        this.out = out;
    }

    /** Whether a requirement ({@code PyYAML==6.0.3}) names one of {@link #WITH_PURE_FALLBACK}. */
    static boolean hasPureFallback(String requirement) {
        Matcher name = Pattern.compile("^[A-Za-z0-9._-]+").matcher(requirement.strip());
        return name.find() && WITH_PURE_FALLBACK.contains(PackageFolder.distributionName(name.group()));
    }

    /** The requirement pip could not find a wheel for, if it is one of {@link #WITH_PURE_FALLBACK}. */
    static Optional<String> missingWithFallback(String pipOutput) {
        Matcher matcher = NOT_FOUND.matcher(pipOutput);
        while (matcher.find()) {
            if (WITH_PURE_FALLBACK.contains(PackageFolder.distributionName(matcher.group(1)))) {
                return Optional.of(matcher.group(1) + matcher.group(2));
            }
        }
        return Optional.empty();
    }

    /**
     * Fetches the CPython wheels of {@code requirements} into {@code folder} and leaves beside them pure ones
     * made from them, which pip finds with {@code --find-links folder}. One pip command per CPython version
     * tried, in the install's one pip JVM ({@link GraalPyPip}).
     *
     * @return whether pure wheels were made
     */
    boolean makePure(List<String> requirements, Path folder) throws IOException {
        String platform = platformTag();
        if (platform == null) {
            return false;
        }
        Path downloads = Files.createDirectories(folder.resolve("cpython"));
        for (String version : VERSIONS) {
            String abi = "cp" + version.replace(".", "");
            out.println(String.join(", ", requirements) + " ship" + (requirements.size() == 1 ? "s" : "")
                    + " no pure-Python wheel: fetching the CPython " + version
                    + " wheel to use its pure-Python code without the native speedups...");
            List<String> args = new ArrayList<>(List.of("download", "--no-deps", "--only-binary=:all:", "--dest",
                    downloads.toString(), "--implementation", "cp", "--python-version", version, "--abi", abi,
                    "--abi", "abi3", "--abi", "none", "--progress-bar", "off"));
            for (String tag : List.of("manylinux_2_28_", "manylinux_2_17_", "manylinux2014_", "manylinux_2_5_",
                    "manylinux1_", "linux_")) {
                args.add("--platform");
                args.add(tag + platform);
            }
            args.addAll(requirements);
            if (pip.run(args).exitCode() == 0) {
                try (Stream<Path> wheels = Files.list(downloads)) {
                    for (Path wheel : wheels.filter(p -> p.toString().endsWith(".whl")).toList()) {
                        repackWithoutNativeCode(wheel, folder);
                    }
                }
                return true;
            }
        }
        return false;
    }

    /** The wheel's pure-Python files as a {@code py3-none-any} wheel in {@code folder}. */
    static Path repackWithoutNativeCode(Path wheel, Path folder) throws IOException {
        String[] parts = wheel.getFileName().toString().split("-");
        Path pure = folder.resolve(parts[0] + "-" + parts[1] + "-py3-none-any.whl");
        List<String> dropped = new ArrayList<>();
        try (ZipFile zip = new ZipFile(wheel.toFile());
                ZipOutputStream repacked = new ZipOutputStream(Files.newOutputStream(pure))) {
            for (ZipEntry entry : zip.stream().toList()) {
                if (PackageInstaller.isNativeCode(entry.getName())) {
                    dropped.add(entry.getName());
                }
            }
            for (ZipEntry entry : zip.stream().toList()) {
                String name = entry.getName();
                if (dropped.contains(name)) {
                    continue;
                }
                byte[] content;
                try (InputStream in = zip.getInputStream(entry)) {
                    content = in.readAllBytes();
                }
                if (name.endsWith(".dist-info/WHEEL")) {
                    content = pureWheelMetadata(new String(content, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);
                } else if (name.endsWith(".dist-info/RECORD")) {
                    content = record(new String(content, StandardCharsets.UTF_8), dropped).getBytes(StandardCharsets.UTF_8);
                }
                repacked.putNextEntry(new ZipEntry(name));
                repacked.write(content);
                repacked.closeEntry();
            }
        }
        return pure;
    }

    /** The WHEEL file of a pure wheel: every {@code Tag} replaced by {@code py3-none-any}, purelib. */
    static String pureWheelMetadata(String wheel) {
        StringBuilder text = new StringBuilder();
        for (String line : wheel.split("\r?\n")) {
            if (line.startsWith("Tag:") || line.startsWith("Root-Is-Purelib:") || line.isBlank()) {
                continue;
            }
            text.append(line).append('\n');
        }
        return text.append("Root-Is-Purelib: true\nTag: py3-none-any\n").toString();
    }

    /** RECORD without the dropped files, and without the hash of WHEEL, which changed. */
    static String record(String record, List<String> dropped) {
        StringBuilder text = new StringBuilder();
        for (String line : record.split("\r?\n")) {
            String file = line.split(",", 2)[0];
            if (line.isBlank() || dropped.contains(file)) {
                continue;
            }
            text.append(file.endsWith(".dist-info/WHEEL") ? file + ",," : line).append('\n');
        }
        return text.toString();
    }

    /** The machine part of a Linux wheel tag for this JVM's architecture, or null where none is known. */
    private static String platformTag() {
        if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) {
            return null;
        }
        return switch (System.getProperty("os.arch", "")) {
            case "amd64", "x86_64" -> "x86_64";
            case "aarch64", "arm64" -> "aarch64";
            default -> null;
        };
    }
}

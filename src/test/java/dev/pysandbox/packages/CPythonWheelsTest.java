package dev.pysandbox.packages;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Pure wheels made from CPython wheels, for the packages with a pure-Python fallback only. */
class CPythonWheelsTest {
    @TempDir
    Path temp;

    @Test
    void onlyPackagesWithAFallbackAreTakenFromPipsComplaint() {
        assertEquals(Optional.of("MarkupSafe>=2.0"), CPythonWheels.missingWithFallback(
                "ERROR: Could not find a version that satisfies the requirement MarkupSafe>=2.0 (from jinja2)"
                        + " (from versions: none)\nERROR: No matching distribution found for MarkupSafe>=2.0\n"));
        assertEquals(Optional.of("PyYAML"), CPythonWheels.missingWithFallback(
                "ERROR: No matching distribution found for PyYAML\n"));
        assertEquals(Optional.empty(), CPythonWheels.missingWithFallback(
                "ERROR: No matching distribution found for numpy\n"), "numpy has no pure-Python fallback");
    }

    @Test
    void requirementsNameTheirPackage() {
        assertTrue(CPythonWheels.hasPureFallback("PyYAML==6.0.3"));
        assertTrue(CPythonWheels.hasPureFallback("markupsafe>=2"));
        assertEquals(false, CPythonWheels.hasPureFallback("numpy"));
        assertEquals(false, CPythonWheels.hasPureFallback("pyyaml-evil"));
    }

    @Test
    void aCPythonWheelLosesItsNativeFilesAndBecomesPy3NoneAny() throws IOException {
        Path wheel = temp.resolve("pyyaml-6.0.3-cp311-cp311-manylinux2014_x86_64.whl");
        Map<String, String> entries = new TreeMap<>(Map.of(
                "yaml/__init__.py", "try:\n    from .cyaml import *\nexcept ImportError:\n    pass\n",
                "yaml/_yaml.cpython-311-x86_64-linux-gnu.so", "ELF",
                "PyYAML-6.0.3.dist-info/WHEEL", "Wheel-Version: 1.0\nGenerator: bdist_wheel\nRoot-Is-Purelib: false\n"
                        + "Tag: cp311-cp311-manylinux_2_17_x86_64\nTag: cp311-cp311-manylinux2014_x86_64\n",
                "PyYAML-6.0.3.dist-info/RECORD", "yaml/__init__.py,sha256=abc,10\n"
                        + "yaml/_yaml.cpython-311-x86_64-linux-gnu.so,sha256=def,3\n"
                        + "PyYAML-6.0.3.dist-info/WHEEL,sha256=ghi,99\nPyYAML-6.0.3.dist-info/RECORD,,\n"));
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(wheel))) {
            for (Map.Entry<String, String> entry : entries.entrySet()) {
                zip.putNextEntry(new ZipEntry(entry.getKey()));
                zip.write(entry.getValue().getBytes(StandardCharsets.UTF_8));
                zip.closeEntry();
            }
        }
        Path pure = CPythonWheels.repackWithoutNativeCode(wheel, Files.createDirectories(temp.resolve("pure")));
        assertEquals("pyyaml-6.0.3-py3-none-any.whl", pure.getFileName().toString());
        try (ZipFile zip = new ZipFile(pure.toFile())) {
            List<String> names = zip.stream().map(ZipEntry::getName).sorted().toList();
            assertEquals(List.of("PyYAML-6.0.3.dist-info/RECORD", "PyYAML-6.0.3.dist-info/WHEEL", "yaml/__init__.py"), names);
            String wheelFile = new String(zip.getInputStream(zip.getEntry("PyYAML-6.0.3.dist-info/WHEEL")).readAllBytes(),
                    StandardCharsets.UTF_8);
            assertEquals("Wheel-Version: 1.0\nGenerator: bdist_wheel\nRoot-Is-Purelib: true\nTag: py3-none-any\n", wheelFile);
            String record = new String(zip.getInputStream(zip.getEntry("PyYAML-6.0.3.dist-info/RECORD")).readAllBytes(),
                    StandardCharsets.UTF_8);
            assertTrue(!record.contains(".so") && record.contains("PyYAML-6.0.3.dist-info/WHEEL,,\n"), record);
        }
    }
}

package dev.pysandbox.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Raw GraalPy refusals become plain words without Java class or builder names. */
class GuestFailureTest {
    @Test
    void knownRefusalsAreExplainedInUserTerms() {
        assertEquals("starting processes is not allowed", GuestFailure.explain(
                "java.lang.SecurityException: Process creation is not allowed, to enable it set Context.Builder.allowCreateProcess(true)."));
        assertEquals("network access is not allowed", GuestFailure.explain(
                "com.oracle.graal.python.runtime.PosixSupportLibrary$UnsupportedPosixFeatureException: getaddrinfo was excluded"));
        assertEquals("creating threads is not allowed", GuestFailure.explain("java.lang.IllegalStateException: Creating threads is not allowed."));
        assertEquals("access to the host file system is not allowed", GuestFailure.explain("java.lang.SecurityException: Operation is not allowed for: "));
    }

    @Test
    void unknownRefusalsRevealNothing() {
        assertEquals("this operation is not allowed", GuestFailure.explain("com.example.Internal: secret detail /home/x"));
        assertEquals("this operation is not allowed", GuestFailure.explain(null));
    }
}

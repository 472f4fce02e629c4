package dev.pysandbox.polyglot;

import java.io.InputStream;
import java.io.OutputStream;

import org.graalvm.polyglot.Context;
import org.graalvm.polyglot.Engine;
import org.graalvm.polyglot.EnvironmentAccess;
import org.graalvm.polyglot.HostAccess;
import org.graalvm.polyglot.PolyglotAccess;
import org.graalvm.polyglot.SandboxPolicy;

/**
 * What every guest context is built with, whatever its language: the tightest settings the community edition
 * accepts (SECURITY.md, "Locked-down interpreter"). The CONSTRAINED policy, and every capability switched off
 * explicitly, because CONSTRAINED alone leaves threads, polyglot access and host class lookup to the embedder.
 * The caller adds the file system its language gets, which is the one thing the two languages' contexts differ in.
 */
public final class LockedDownContext {
    /** {@code HostAccess.NONE} is refused by CONSTRAINED; this is NONE without mutable target mappings. */
    private static final HostAccess NO_HOST_ACCESS = HostAccess.newBuilder().allowMutableTargetMappings().build();

    private LockedDownContext() {
    }

    /** A builder for a context of {@code language} on {@code engine}, its streams given, all else off. */
    public static Context.Builder builder(String language, Engine engine, InputStream in, OutputStream out,
            OutputStream err) {
        return Context.newBuilder(language)
                .engine(engine)
                .sandbox(SandboxPolicy.CONSTRAINED)
                .in(in)
                .out(out)
                .err(err)
                .allowHostAccess(NO_HOST_ACCESS)
                .allowHostClassLookup(className -> false)
                .allowHostClassLoading(false)
                .allowNativeAccess(false)
                .allowCreateThread(false)
                .allowCreateProcess(false)
                .allowEnvironmentAccess(EnvironmentAccess.NONE)
                .allowPolyglotAccess(PolyglotAccess.NONE)
                .allowInnerContextOptions(false)
                .allowExperimentalOptions(false)
                .allowValueSharing(false);
    }
}

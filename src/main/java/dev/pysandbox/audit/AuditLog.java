package dev.pysandbox.audit;

import java.io.IOException;

import org.slf4j.LoggerFactory;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.rolling.FixedWindowRollingPolicy;
import ch.qos.logback.core.rolling.RollingFileAppender;
import ch.qos.logback.core.rolling.SizeBasedTriggeringPolicy;
import ch.qos.logback.core.util.Duration;
import ch.qos.logback.core.util.FileSize;

import io.modelcontextprotocol.json.McpJsonMapper;

import dev.pysandbox.config.AuditSettings;

/**
 * Writes the audit log (README, "Audit log"): each {@link AuditEntry} as one line of JSON, through a Logback
 * logger of its own ({@value #LOGGER}) that writes nowhere else, to stderr or to a file that Logback rotates by
 * size ({@code audit.log.1} ... {@code audit.log.N}, the oldest deleted), so that the log is bounded. Never to
 * stdout, which carries the protocol.
 */
public final class AuditLog implements AutoCloseable {
    /**
     * The logger the lines are written through; the server's own log never sees them. Outside the package's logger
     * names, so that this class's own messages (an entry that could not be written) go to the server's log.
     */
    public static final String LOGGER = "pysandbox-audit";

    private final Logger logger;
    private final OutputStreamAppender<ILoggingEvent> appender;
    private final McpJsonMapper json;
    private final boolean includeCode;

    private AuditLog(Logger logger, OutputStreamAppender<ILoggingEvent> appender, McpJsonMapper json,
            boolean includeCode) {
        this.logger = logger;
        this.appender = appender;
        this.json = json;
        this.includeCode = includeCode;
    }

    /** Opens the log the settings name (they must be {@link AuditSettings#enabled()}). */
    public static AuditLog open(AuditSettings settings, McpJsonMapper json) {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern("%msg%n");
        encoder.start();
        OutputStreamAppender<ILoggingEvent> appender;
        if (settings.file() == null) {
            ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
            console.setTarget("System.err");
            appender = console;
        } else {
            RollingFileAppender<ILoggingEvent> file = new RollingFileAppender<>();
            file.setContext(context);
            file.setFile(settings.file().toString());
            FixedWindowRollingPolicy rolling = new FixedWindowRollingPolicy();
            rolling.setContext(context);
            rolling.setParent(file);
            rolling.setFileNamePattern(settings.file() + ".%i");
            rolling.setMinIndex(1);
            rolling.setMaxIndex(settings.maxFiles());
            rolling.start();
            SizeBasedTriggeringPolicy<ILoggingEvent> trigger = new SizeBasedTriggeringPolicy<>();
            trigger.setContext(context);
            trigger.setMaxFileSize(new FileSize(settings.maxFileBytes()));
            // Logback looks at the size once a minute by default, so a burst could pass the bound many times over;
            // a line per tool call is few enough to look at every time.
            trigger.setCheckIncrement(Duration.buildByMilliseconds(0));
            trigger.start();
            file.setRollingPolicy(rolling);
            file.setTriggeringPolicy(trigger);
            appender = file;
        }
        appender.setContext(context);
        appender.setName("audit");
        appender.setEncoder(encoder);
        appender.start();
        if (!appender.isStarted()) {
            throw new IllegalStateException("the audit log could not be opened: " + settings.file());
        }
        Logger logger = context.getLogger(LOGGER);
        logger.setAdditive(false);
        logger.setLevel(Level.INFO);
        logger.addAppender(appender);
        return new AuditLog(logger, appender, json, settings.includeCode());
    }

    /** Whether entries carry the code itself ({@code audit.include-code}). */
    public boolean includesCode() {
        return includeCode;
    }

    /** Writes one entry as one line. */
    public void write(AuditEntry entry) {
        try {
            logger.info(json.writeValueAsString(entry));
        } catch (IOException e) {
            LoggerFactory.getLogger(AuditLog.class).error("an audit entry could not be written: {}", e.toString());
        }
    }

    @Override
    public void close() {
        logger.detachAppender(appender);
        appender.stop();
    }
}

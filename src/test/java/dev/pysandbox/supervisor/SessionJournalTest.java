package dev.pysandbox.supervisor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.pysandbox.execution.ExecutionRequest;
import dev.pysandbox.execution.RunReport;
import dev.pysandbox.execution.Status;
import dev.pysandbox.execution.ToolCall;
import dev.pysandbox.execution.Truncation;

/** What a session keeps to be rebuilt, and what makes it impossible to rebuild. */
class SessionJournalTest {
    private static final Duration MINUTE = Duration.ofMinutes(1);

    private static ExecutionRequest call(String code) {
        return new ExecutionRequest(code, "", Duration.ofSeconds(5), "s#1", "<string>");
    }

    private static RunReport report(Status status, double seconds) {
        return new RunReport(status, "", "", status == Status.SUCCESS ? 0 : 1, seconds, null, null, Truncation.NONE);
    }

    private static WorkerRun ended(Status status, double seconds) {
        return WorkerRun.without(report(status, seconds));
    }

    @Test
    void callsThatRanAreKeptInOrderWithTheirStatusAndThoseThatNeverRanAreNot() {
        SessionJournal journal = new SessionJournal(1024, MINUTE);
        journal.record(call("x = 1"), ended(Status.SUCCESS, 0.1));
        journal.record(call("never"), WorkerRun.without(RunReport.setupError("no worker")));
        journal.record(call("1 / 0"), ended(Status.EXECUTION_ERROR, 0.1));
        assertNull(journal.refusal());
        assertEquals(List.of(call("x = 1"), call("1 / 0")),
                journal.entries().stream().map(SessionJournal.Entry::request).toList());
        assertEquals(List.of(Status.SUCCESS, Status.EXECUTION_ERROR),
                journal.entries().stream().map(SessionJournal.Entry::status).toList());
    }

    @Test
    void eachCallKeepsWhatItPrintedAsADigestToCompareARunAgainWith() {
        SessionJournal journal = new SessionJournal(1024, MINUTE);
        journal.record(call("print(41 + 1)"), WorkerRun.without(new RunReport(Status.SUCCESS, "42\n", "", 0, 0.1, null,
                null, Truncation.NONE)));
        SessionJournal.Entry entry = journal.entries().get(0);
        assertTrue(entry.printsAsBefore("42\n"));
        assertFalse(entry.printsAsBefore("43\n"), "a value made from chance or the clock printed differently");
        assertFalse(entry.stdoutDigest().contains("42"), "a digest, not the output");
    }

    @Test
    void aCallThatUsedTheOperatorsToolsIsNeverRunAgain() {
        SessionJournal journal = new SessionJournal(1024, MINUTE);
        journal.record(call("x = 1"), ended(Status.SUCCESS, 0.1));
        WorkerRun withTool = new WorkerRun(report(Status.SUCCESS, 0.1),
                List.of(new ToolCall("mail__send", true, 12, null)), 0);
        journal.record(call("tools.call('mail__send', {})"), withTool);
        assertTrue(journal.refusal().contains("operator's tools"), journal.refusal());
        assertEquals(List.of(), journal.entries(), "nothing is kept once it cannot be rebuilt");
        journal.record(call("y = 1"), ended(Status.SUCCESS, 0.1));
        assertEquals(List.of(), journal.entries(), "for good");
    }

    @Test
    void aCallStoppedAtItsTimeoutCannotBeMadeAgain() {
        SessionJournal journal = new SessionJournal(1024, MINUTE);
        journal.record(call("while True: n += 1"), ended(Status.TIMEOUT, 5));
        assertTrue(journal.refusal().contains("stopped at its timeout"), journal.refusal());
    }

    @Test
    void callsBeyondTheByteOrTimeLimitEndTheJournal() {
        SessionJournal bytes = new SessionJournal(10, MINUTE);
        bytes.record(new ExecutionRequest("x = 1", "", Duration.ofSeconds(5), "s#1", "<string>",
                Map.of("data.csv", new byte[8]), null), ended(Status.SUCCESS, 0.1));
        assertNotNull(bytes.refusal(), "code and files count");
        assertTrue(bytes.refusal().contains("sessions.rebuild-bytes (10)"), bytes.refusal());
        SessionJournal time = new SessionJournal(1024, Duration.ofSeconds(1));
        time.record(call("a"), ended(Status.SUCCESS, 0.6));
        assertNull(time.refusal());
        time.record(call("b"), ended(Status.SUCCESS, 0.6));
        assertTrue(time.refusal().contains("sessions.rebuild-seconds (1 s)"), time.refusal());
    }

    @Test
    void noBytesMeansNoRebuild() {
        assertNotNull(new SessionJournal(0, MINUTE).refusal());
    }
}

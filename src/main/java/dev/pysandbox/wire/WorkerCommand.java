package dev.pysandbox.wire;

import java.util.Map;

import com.fasterxml.jackson.annotation.JsonSubTypes;
import dev.pysandbox.execution.Language;
import com.fasterxml.jackson.annotation.JsonTypeInfo;

/**
 * A line the supervisor sends to a worker's stdin: one of the records below, named on the wire by its
 * {@code type} property ({@code execute}, {@code validate}, {@code inspect}, {@code cancel},
 * {@code close-session}, {@code tool-result}). Each carries only its own fields, and both sides switch over the family exhaustively,
 * so a new message cannot be forgotten by either.
 */
@JsonTypeInfo(use = JsonTypeInfo.Id.NAME, property = "type")
@JsonSubTypes({
        @JsonSubTypes.Type(value = WorkerCommand.Execute.class, name = "execute"),
        @JsonSubTypes.Type(value = WorkerCommand.Validate.class, name = "validate"),
        @JsonSubTypes.Type(value = WorkerCommand.Inspect.class, name = "inspect"),
        @JsonSubTypes.Type(value = WorkerCommand.Cancel.class, name = "cancel"),
        @JsonSubTypes.Type(value = WorkerCommand.CloseSession.class, name = "close-session"),
        @JsonSubTypes.Type(value = WorkerCommand.ToolResult.class, name = "tool-result")})
public sealed interface WorkerCommand {

    /** A command that runs guest code, or checks it, and is answered by one {@link WorkerEvent.Result}. */
    sealed interface Call extends WorkerCommand {
        /** The call this is. */
        long id();

        /** The code to run or check. */
        String code();

        /** The code's own time limit. */
        long timeoutMillis();

        /** The language of the code; a session's context runs one language. */
        default Language language() {
            return Language.PYTHON;
        }

        /** The session whose context the call runs in; null for a fresh context, which a validation always gets. */
        default String session() {
            return null;
        }
    }

    /**
     * Runs code.
     *
     * @param language         the code's language; null (an older sender) for Python
     * @param session          the session whose context to use; null for a fresh context
     * @param filename         the name tracebacks show for the code
     * @param files            files to place in the working directory first, by relative path (base64 on the
     *                         wire); empty for none
     * @param workingDirectory a host folder to show read-only as the working directory; null for none
     * @param inputs           {@code context.inputs} as JSON object text; null for {@code {}}
     */
    record Execute(long id, Language language, String code, String stdin, long timeoutMillis, String session,
            String filename, Map<String, byte[]> files, String workingDirectory, String inputs) implements Call {
        public Execute {
            language = language == null ? Language.PYTHON : language;
            files = files == null ? Map.of() : files;
        }
    }

    /**
     * Checks code ({@code validate_code}) in a fresh context, running none of it.
     *
     * @param language the code's language; null (an older sender) for Python
     * @param catalog the tools as the supervisor knows them, JSON text {@code {"allowed":[..],"known":[..]}},
     *                for the checks of literal tool names
     */
    record Validate(long id, Language language, String code, long timeoutMillis, String catalog) implements Call {
        public Validate {
            language = language == null ? Language.PYTHON : language;
        }
    }

    /**
     * Tells what session {@code session}'s context holds, running none of its code; a session with no context in
     * this worker is answered with a setup error, never given a new one.
     */
    record Inspect(long id, String session, long timeoutMillis) implements Call {
        @Override
        public String code() {
            return "";
        }
    }

    /** Stops call {@code id} if it is running or about to. */
    record Cancel(long id) implements WorkerCommand {
    }

    /** Closes the context of a session. */
    record CloseSession(String session) implements WorkerCommand {
    }

    /**
     * The answer to a tool request of call {@code id}.
     *
     * @param seq   which request of the call this answers
     * @param reply the answer's JSON envelope ({@code ToolReply})
     */
    record ToolResult(long id, long seq, String reply) implements WorkerCommand {
    }
}

// The runtime every JavaScript context installs before user code, put together from the concern files
// (JavaScriptEngine joins timers.js, refusals.js, node.js, tools.js, files.js, report.js and this one inside one
// function, so that nothing here is a global user code can see or replace). JavaScriptRuntime.java calls what
// installRuntime returns.

/**
 * @param nodeConsole console.js's {inspect, format, makeConsole}
 * @param write       the host's door to the context's streams: write(1, text) for stdout, write(2, text) for stderr
 * @param bridge      the host's door to the operator's tools (code mode), for tools.js
 * @param scratch     the host's door to the context's scratch space, for files.js
 */
function installRuntime(nodeConsole, write, bridge, scratch) {
    const out = text => write(1, text);
    const err = text => write(2, text);
    const inspect = value => nodeConsole.inspect(value, {});
    const timers = makeTimers();
    const { tools, ToolError } = makeTools(bridge);
    // process.exit: the status to end with, once code asked; the throw ends the code the way Node's exit does,
    // unless the code catches it (then the run still ends with that status).
    const exitMark = Symbol('process.exit');
    let exitStatus = null;
    const exits = {
        exit(code) {
            const status = Number(code ?? 0);
            exitStatus = Number.isInteger(status) ? status : 1;
            throw { [exitMark]: true };
        },
    };
    removeHostGlobals(globalThis);
    defineRefusals(globalThis);
    defineNodeGlobals(globalThis, { console: nodeConsole.makeConsole(out, err), timers: timers.globals, out, err,
        exits });
    for (const [name, value] of Object.entries({ tools, ToolError, files: makeFiles(scratch) })) {
        Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
    }
    // `result = ...` then works in a module (strict) too; `let result` at the top of a script shadows it.
    Object.defineProperty(globalThis, 'result', { value: undefined, writable: true, configurable: true,
        enumerable: false });
    const builtins = new Set(Reflect.ownKeys(globalThis));

    /** The `result` binding as user code left it: its own `let`/`const`, else the global property. */
    function resultNow() {
        return typeof result === 'undefined' ? undefined : result;
    }

    let resultBefore;

    return {
        /** Before the code: a new call's inputs, no timers, no exit. */
        begin(inputs) {
            timers.clearAll();
            exitStatus = null;
            globalThis.context = Object.freeze({ inputs: JSON.parse(inputs), tools });
            resultBefore = resultNow();
        },
        /** After the code: no timer of this call outlives it, even in a session. */
        end() {
            timers.clearAll();
        },
        /** The status process.exit asked for, or -1 when the code did not call it. */
        exitStatus() {
            return exitStatus === null ? -1 : exitStatus;
        },
        /** Whether an error the code threw is process.exit ending it. */
        isExit(error) {
            return error !== null && typeof error === 'object' && error[exitMark] === true;
        },
        /** Writes GraalJS's message for code that does not parse to stderr; returns its first line, cut. */
        syntaxError(message, limit) {
            err(message.endsWith('\n') ? message : message + '\n');
            const line = message.split('\n')[0];
            return line.length > limit + 1 ? line.slice(0, limit + 1) : line;
        },
        /** Writes an uncaught error to stderr; returns the call's error message. */
        failure(error, limit) {
            return describeFailure(error, limit, inspect, err);
        },
        nextTimerDue() {
            return timers.nextDue();
        },
        runTimer() {
            timers.runNext();
        },
        /**
         * {json, is_repr, truncated} for `result`, or null when this call set none. In a session `result` outlives
         * the call that set it, so it is reported only if this call's code names it or its value changed.
         */
        result(limit, code) {
            const value = resultNow();
            if (value === undefined || (value === resultBefore && !/\bresult\b/.test(code))) {
                return null;
            }
            return describeResult(value, limit, inspect);
        },
        /** inspect_session: the globals user code added (`var`, functions, assignments), the largest first. */
        state(limit) {
            const variables = [];
            for (const name of Reflect.ownKeys(globalThis)) {
                if (typeof name === 'symbol' || builtins.has(name) || name === 'context') {
                    continue;
                }
                const value = globalThis[name];
                let size;
                try {
                    size = inspect(value).length;
                } catch (e) {
                    size = 0;
                }
                const type = value === null ? 'null' : Array.isArray(value) ? 'Array'
                    : typeof value === 'object' ? (Object.getPrototypeOf(value)?.constructor?.name ?? 'Object')
                    : typeof value;
                const entry = { name, type, size_bytes: size * 2 };
                if (Array.isArray(value) || typeof value === 'string') {
                    entry.length = value.length;
                }
                variables.push(entry);
            }
            variables.sort((a, b) => b.size_bytes - a.size_bytes);
            const shown = variables.slice(0, limit);
            return JSON.stringify({ variables: shown, variables_omitted: variables.length - shown.length,
                size_bytes: variables.reduce((sum, v) => sum + v.size_bytes, 0) });
        },
    };
}

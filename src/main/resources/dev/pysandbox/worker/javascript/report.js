// What a call reports: `result` as JSON, and an uncaught error as Node shows it (its stack on stderr).
// One of the runtime's files (JavaScriptEngine joins them): it defines describeResult and describeFailure.

/** Plain data JSON keeps as it is: no functions, no class instances, no NaN, no holes, no cycles deeper than 100. */
function isJsonData(value, depth) {
    if (depth > 100) {
        return false;
    }
    if (value === null || typeof value === 'boolean' || typeof value === 'string') {
        return true;
    }
    if (typeof value === 'number') {
        return Number.isFinite(value);
    }
    if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) {
            if (!(i in value) || !isJsonData(value[i], depth + 1)) {
                return false;
            }
        }
        return true;
    }
    if (typeof value === 'object') {
        const prototype = Object.getPrototypeOf(value);
        if (prototype !== Object.prototype && prototype !== null) {
            return false;
        }
        for (const key of Reflect.ownKeys(value)) {
            const property = Object.getOwnPropertyDescriptor(value, key);
            if (typeof key === 'symbol' || !('value' in property) || !isJsonData(property.value, depth + 1)) {
                return false;
            }
        }
        return true;
    }
    return false;
}

/**
 * {json, is_repr, truncated} for `result`, as Python's report gives it: the value as JSON when it is plain data
 * and fits, else what console.log would show of it, as a JSON string cut to the limit.
 */
function describeResult(value, limit, inspect) {
    if (isJsonData(value, 0)) {
        const text = JSON.stringify(value);
        if (text.length <= limit) {
            return { json: text, is_repr: false, truncated: false };
        }
    }
    let shown;
    try {
        shown = inspect(value);
    } catch (e) {
        shown = '<result could not be shown: ' + (e && e.name) + '>';
    }
    const truncated = shown.length > limit;
    return { json: JSON.stringify(truncated ? shown.slice(0, limit) : shown), is_repr: true, truncated };
}

/**
 * GraalJS's own refusal of a module or file, which a context without a file system gives every `import`: said as
 * the sandbox's other refusals are (refusals.js), without its stack, which shows only the runtime.
 */
const MODULE_REFUSED = /^Operation is not allowed for: (.*)$/;

/** The runtime's own frames, which a stack shown to the caller leaves out. */
const RUNTIME_FRAME = /^\s+at .*<sandbox-(runtime|console)>.*$/;

/**
 * Writes an uncaught error to stderr as Node does (its stack, or `Uncaught <value>` for a thrown non-error) and
 * returns the call's error message, `TypeError: message`, cut to one character beyond the limit.
 */
function describeFailure(error, limit, inspect, writeErr) {
    let shown;
    let message;
    const refusedModule = error instanceof Error ? MODULE_REFUSED.exec(String(error.message)) : null;
    if (refusedModule !== null) {
        message = 'Error: import of ' + JSON.stringify(refusedModule[1]) + ' is not available here: ' + WHAT_IS_HERE + '.';
        shown = message;
    } else if (error instanceof Error) {
        shown = inspect(error).split('\n').filter(line => !RUNTIME_FRAME.test(line)).join('\n');
        message = error.message === '' ? String(error.name) : error.name + ': ' + error.message;
    } else {
        shown = 'Uncaught ' + inspect(error);
        message = shown;
    }
    writeErr(shown + '\n');
    return message.length > limit + 1 ? message.slice(0, limit + 1) : message;
}
